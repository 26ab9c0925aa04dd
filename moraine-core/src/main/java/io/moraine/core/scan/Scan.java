package io.moraine.core.scan;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.types.TableSchema;

/**
 * A planned read of one table at one snapshot: the columns to read and the tasks that read them. Made by
 * {@link ScanBuilder}; reads through the caller's {@link CatalogSnapshot}, which must stay open while tasks are planned.
 */
public final class Scan
{
    private final CatalogSnapshot snapshot;
    private final long tableId;
    private final TableSchema tableSchema;
    private final TableSchema readSchema;
    private final ScanFilter filter;
    private final String dataPath;
    private final long limit;
    private final long maxSplitSize;

    Scan(CatalogSnapshot snapshot, long tableId, TableSchema tableSchema, TableSchema readSchema, ScanFilter filter, String dataPath, long limit,
            long maxSplitSize)
    {
        this.snapshot = snapshot;
        this.tableId = tableId;
        this.tableSchema = tableSchema;
        this.readSchema = readSchema;
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
        return tableSchema;
    }

    /** The projected columns, in the order asked for, nested ones pruned to the leaves asked for. */
    public TableSchema readSchema()
    {
        return readSchema;
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
        return new ScanPlanner(snapshot, tableId, dataPath, FilePruning.of(snapshot, tableId, filter, tableSchema.byId()), filter, limit, maxSplitSize);
    }
}
