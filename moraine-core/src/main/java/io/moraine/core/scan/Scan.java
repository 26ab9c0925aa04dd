package io.moraine.core.scan;

import com.google.common.base.Suppliers;
import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.types.TableColumn;
import io.moraine.core.types.TableSchema;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A planned read of one table at one snapshot: the columns to read and the tasks that read them. Made by
 * {@link ScanBuilder}; reads through the caller's {@link CatalogSnapshot}, which must stay open while tasks are planned.
 */
public final class Scan
{
    private final CatalogSnapshot snapshot;
    private final long tableId;
    private final Supplier<TableSchema> tableSchema;
    private final Supplier<TableSchema> readSchema;
    private final ScanFilter filter;
    private final String dataPath;
    private final long limit;
    private final long maxSplitSize;
    private final RowIdMembership membership;
    private final boolean catalogCopies;
    private final io.moraine.core.catalog.AllowedLocations allowedLocations;

    Scan(CatalogSnapshot snapshot, long tableId, Supplier<TableSchema> tableSchema, Optional<List<Long>> projection, ScanFilter filter, String dataPath,
            long limit, long maxSplitSize, RowIdMembership membership, boolean catalogCopies,
            io.moraine.core.catalog.AllowedLocations allowedLocations)
    {
        this.allowedLocations = allowedLocations;
        this.catalogCopies = catalogCopies;
        this.membership = membership;
        this.snapshot = snapshot;
        this.tableId = tableId;
        this.tableSchema = tableSchema;
        this.readSchema = Suppliers.memoize(() -> ScanBuilder.readSchema(tableSchema.get(), projection, tableId, snapshot.id()));
        this.filter = filter;
        this.dataPath = dataPath;
        this.limit = limit;
        this.maxSplitSize = maxSplitSize;
    }

    public long tableId()
    {
        return tableId;
    }

    public long snapshotId()
    {
        return snapshot.id();
    }

    /** Every column of the table at the snapshot. */
    public TableSchema tableSchema()
    {
        return tableSchema.get();
    }

    /** The projected columns, in the order asked for, nested ones pruned to the leaves asked for. */
    public TableSchema readSchema()
    {
        return readSchema.get();
    }

    /** The filter as pruning uses it: values normalised, domains of columns it cannot use dropped. */
    public ScanFilter filter()
    {
        return filter;
    }

    /** Where the table's relative paths resolve: the override, or the catalog's {@code data_path}. */
    public String dataPath()
    {
        return dataPath;
    }

    /**
     * The tasks: the inlined-rows task (when the table has inlined data) first, then one per data file the filter does
     * not rule out (several for files over the split size). Under a limit, planning stops once the planned files are
     * certain to hold that many rows.
     */
    public TaskStream planTasks()
    {
        Map<Long, TableColumn> columns = filter.domains().isEmpty() ? Map.of() : tableSchema.get().byId();
        return new ScanPlanner(snapshot, tableId, dataPath, FilePruning.of(snapshot, tableId, filter, columns), RowIdentityPruning.of(snapshot, tableId, filter, membership), filter,
                limit, maxSplitSize, catalogCopies && snapshot.tinyFileThresholdBytes() > 0, allowedLocations);
    }
}
