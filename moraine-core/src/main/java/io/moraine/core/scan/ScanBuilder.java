package io.moraine.core.scan;

import com.google.common.base.Suppliers;
import io.moraine.core.catalog.AllowedLocations;
import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.store.StoreFacts;
import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.error.NotFoundException;
import io.moraine.core.types.DuckLakeType;
import io.moraine.core.types.DuckLakeValues;
import io.moraine.core.types.TableColumn;
import io.moraine.core.types.TableSchema;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * Builds a {@link Scan} of one table at a snapshot: which columns (by column id, nested leaves included), a filter for
 * pruning, an optional row limit, where relative paths resolve, and how large a task may be.
 */
public final class ScanBuilder
{
    /** Files larger than this are read by several tasks unless the engine says otherwise. */
    public static final long DEFAULT_MAX_SPLIT_SIZE = 64L << 20;

    private final CatalogSnapshot snapshot;
    private final long tableId;
    private final Supplier<TableSchema> tableSchema;
    private Optional<List<Long>> projection = Optional.empty();
    private ScanFilter filter = ScanFilter.all();
    private Optional<String> dataPathOverride = Optional.empty();
    private long limit = -1;
    private long maxSplitSize = DEFAULT_MAX_SPLIT_SIZE;
    private RowIdMembership membership = RowIdMembership.unknown();
    private boolean catalogCopies = true;
    private AllowedLocations allowedLocations = AllowedLocations.registered("allowed locations");

    private ScanBuilder(CatalogSnapshot snapshot, long tableId, Supplier<TableSchema> tableSchema)
    {
        this.snapshot = snapshot;
        this.tableId = tableId;
        this.tableSchema = tableSchema;
    }

    /**
     * A scan of table {@code tableId} as {@code snapshot} sees it. The table's columns are read only if the scan needs
     * them (a filter, a projection); planning refuses a table not visible at the snapshot.
     */
    public static ScanBuilder forTable(CatalogSnapshot snapshot, long tableId)
    {
        requireNonNull(snapshot, "snapshot is null");
        return forTable(snapshot, tableId, () -> readSchema(snapshot, tableId));
    }

    /**
     * A scan of table {@code tableId} whose columns at the snapshot the engine looks up itself, for example from a
     * cache (a snapshot's columns never change); asked for only if the scan needs them.
     */
    public static ScanBuilder forTable(CatalogSnapshot snapshot, long tableId, Supplier<TableSchema> schema)
    {
        return new ScanBuilder(requireNonNull(snapshot, "snapshot is null"), tableId, Suppliers.memoize(requireNonNull(schema, "schema is null")::get));
    }

    private static TableSchema readSchema(CatalogSnapshot snapshot, long tableId)
    {
        TableSchema schema = TableSchema.of(snapshot.columnTree(tableId));
        if (schema.columns().isEmpty()) {
            // DuckLake tables have at least one column: no column rows means no table at this snapshot.
            throw new NotFoundException("table " + tableId + " does not exist at snapshot " + snapshot.id());
        }
        return schema;
    }

    /** The table's columns at the snapshot (to pick a projection by name, or map types). */
    public TableSchema tableSchema()
    {
        return tableSchema.get();
    }

    /**
     * Reads only these columns, by column id, in this order; a nested column's id reads it whole, a nested leaf's id reads
     * that leaf inside its parents. Without a projection every column is read.
     */
    public ScanBuilder withProjection(List<Long> columnIds)
    {
        this.projection = Optional.of(List.copyOf(columnIds));
        return this;
    }

    /** Prunes with {@code filter}; values may be of any class {@link DuckLakeValues#normalize} accepts for the column. */
    public ScanBuilder withFilter(ScanFilter filter)
    {
        this.filter = requireNonNull(filter, "filter is null");
        return this;
    }

    /** Reads relative paths under {@code dataPath} instead of the catalog's {@code data_path} (the lake was moved). */
    public ScanBuilder withDataPath(Optional<String> dataPath)
    {
        this.dataPathOverride = dataPath.map(path -> path.endsWith("/") ? path : path + "/");
        return this;
    }

    /** The engine needs at most {@code rows} rows (it still applies the limit itself). */
    public ScanBuilder withLimit(long rows)
    {
        if (rows < 0) {
            throw new InvalidArgumentException("a scan limit must not be negative, was " + rows);
        }
        this.limit = rows;
        return this;
    }

    /** Files larger than {@code bytes} are read by several tasks, each taking the row groups that start in its range. */
    public ScanBuilder withMaxSplitSize(long bytes)
    {
        if (bytes <= 0) {
            throw new InvalidArgumentException("the split size must be positive, was " + bytes);
        }
        this.maxSplitSize = bytes;
        return this;
    }

    /**
     * Answers which row ids a file holds for files the catalog cannot prove positional, so a bounded {@code $row_id}
     * filter drops them at planning (row summaries, RFC 0023); without it such files are kept.
     */
    public ScanBuilder withRowIdMembership(RowIdMembership membership)
    {
        this.membership = requireNonNull(membership, "membership is null");
        return this;
    }

    /**
     * Whether tasks carry the catalog's copies of tiny files (docs/tiny-files.md) when the store's
     * {@code tiny_file_threshold_bytes} is above 0; default true. False reads every file from the object store (an
     * engine's "read files anyway" switch).
     */
    public ScanBuilder withCatalogCopies(boolean use)
    {
        this.catalogCopies = use;
        return this;
    }

    /**
     * Where the table's data and delete files may live ({@link AllowedLocations}); by default the data path and the
     * files the catalog registered. A file outside is refused when its task is planned.
     */
    public ScanBuilder withAllowedLocations(AllowedLocations allowed)
    {
        this.allowedLocations = requireNonNull(allowed, "allowed is null");
        return this;
    }

    public Scan build()
    {
        String dataPath = dataPathOverride.orElseGet(() -> snapshot.facts().get(StoreFacts.DATA_PATH));
        return new Scan(snapshot, tableId, tableSchema, projection, normalized(filter), dataPath, limit, maxSplitSize, membership, catalogCopies, allowedLocations);
    }

    /** The projected columns of {@code schema}: all without a projection. */
    static TableSchema readSchema(TableSchema schema, Optional<List<Long>> projection, long tableId, long snapshotId)
    {
        if (projection.isEmpty()) {
            return schema;
        }
        List<TableColumn> columns = new ArrayList<>();
        for (long id : projection.get()) {
            columns.add(project(schema, id, tableId, snapshotId));
        }
        return new TableSchema(columns);
    }

    /** The top-level column holding {@code columnId}, pruned to the path down to it. */
    private static TableColumn project(TableSchema schema, long columnId, long tableId, long snapshotId)
    {
        for (TableColumn column : schema.columns()) {
            Optional<TableColumn> pruned = pruneTo(column, columnId);
            if (pruned.isPresent()) {
                return pruned.get();
            }
        }
        throw new InvalidArgumentException("table " + tableId + " has no column with id " + columnId + " at snapshot " + snapshotId);
    }

    private static Optional<TableColumn> pruneTo(TableColumn column, long columnId)
    {
        return io.moraine.core.types.ColumnProjection.prune(column, java.util.Set.of(columnId));
    }

    /**
     * The filter with every value in moraine's class for its column's type; a column whose domain holds a value that
     * cannot be converted exactly, or that is not a column of the table, is dropped (never pruned on).
     */
    private ScanFilter normalized(ScanFilter filter)
    {
        if (filter.isNone() || filter.isAll()) {
            return filter;
        }
        return normalized(filter, tableSchema.get().byId());
    }

    /**
     * {@code filter} as pruning takes it (see {@link #withFilter}): each value in moraine's class for its column of
     * {@code columns} (by column id); a domain that cannot be converted exactly, or of no such column, is dropped.
     */
    public static ScanFilter normalized(ScanFilter filter, Map<Long, TableColumn> columns)
    {
        if (filter.isNone() || filter.isAll()) {
            return filter;
        }
        Map<Long, ColumnDomain> domains = new HashMap<>();
        filter.domains().forEach((columnId, domain) -> {
            TableColumn column = columns.get(columnId);
            if (columnId == HiddenColumn.PATH.columnId() || columnId == HiddenColumn.ROW_ID.columnId()) {
                hidden(columnId, domain).ifPresent(usable -> domains.put(columnId, usable));
            }
            else if (column != null) {
                normalized(column.type(), domain).ifPresent(normalized -> domains.put(columnId, normalized));
            }
        });
        return ScanFilter.of(domains);
    }

    /** A domain of {@code $path} (text values) or {@code $row_id} (whole numbers); empty when a value is of another class. */
    private static Optional<ColumnDomain> hidden(long columnId, ColumnDomain domain)
    {
        Class<?> valueClass = columnId == HiddenColumn.PATH.columnId() ? String.class : Long.class;
        boolean usable = domain.ranges().stream().allMatch(range -> range.low().map(valueClass::isInstance).orElse(true)
                && range.high().map(valueClass::isInstance).orElse(true));
        return usable ? Optional.of(domain) : Optional.empty();
    }

    private static Optional<ColumnDomain> normalized(DuckLakeType type, ColumnDomain domain)
    {
        List<ValueRange> ranges = new ArrayList<>();
        for (ValueRange range : domain.ranges()) {
            Optional<Optional<Object>> low = bound(type, range.low());
            Optional<Optional<Object>> high = bound(type, range.high());
            if (low.isEmpty() || high.isEmpty()) {
                return Optional.empty();
            }
            ranges.add(new ValueRange(low.get(), range.lowInclusive(), high.get(), range.highInclusive()));
        }
        return Optional.of(new ColumnDomain(ranges, domain.nullAllowed()));
    }

    /** An unbounded side stays unbounded; a bound is converted, or the whole domain is unusable (empty). */
    private static Optional<Optional<Object>> bound(DuckLakeType type, Optional<Object> value)
    {
        if (value.isEmpty()) {
            return Optional.of(Optional.empty());
        }
        return DuckLakeValues.normalize(type, value.get()).map(Optional::of);
    }
}
