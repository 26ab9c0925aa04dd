package io.moraine.core.scan;

import com.google.common.base.Suppliers;
import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.PartitionTransform;
import io.moraine.core.row.Row;
import io.moraine.core.catalog.RowCursor;
import io.moraine.core.row.TableKind;
import io.moraine.core.types.BucketHash;
import io.moraine.core.types.DuckLakeType;
import io.moraine.core.types.DuckLakeValues;
import io.moraine.core.types.TableColumn;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Decides whether a data file can hold rows a {@link ScanFilter} accepts, from the catalog alone (reference §4.9):
 * <ul>
 * <li>its {@code ducklake_file_column_stats}: min/max against each range, null and value counts against NULL and
 * IS NOT NULL; a file is kept whenever a statistic is missing, NULL, unreadable, or the column holds NaN;</li>
 * <li>its partition values, read through the file's own spec: identity keys against the domain, {@code year} keys
 * against the years the ranges span, {@code bucket(N)} keys against the buckets of an equality or IN list's values.
 * Month, day and hour keys are calendar fields that do not order a column, so those files are pruned by their
 * statistics only.</li>
 * </ul>
 */
public final class FilePruning
{
    private record PartitionKey(long columnId, PartitionTransform transform) {}

    private final ScanFilter filter;
    private final Map<Long, TableColumn> columns;
    private final Supplier<Map<Long, Map<Integer, PartitionKey>>> specs;
    private final Set<Long> statsColumns;

    /** Pruning of files without partition specs (for tests of the statistics rules). */
    FilePruning(ScanFilter filter, Map<Long, TableColumn> columns)
    {
        this(filter, columns, Map::of);
    }

    private FilePruning(ScanFilter filter, Map<Long, TableColumn> columns, Supplier<Map<Long, Map<Integer, PartitionKey>>> specs)
    {
        this.filter = filter;
        this.columns = columns;
        this.specs = specs;
        this.statsColumns = Set.copyOf(filter.domains().keySet().stream().filter(id -> columns.containsKey(id) && columns.get(id).type().isOrderable()).toList());
    }

    /**
     * Pruning for {@code filter} (values already normalised) over a table's files. The table's partition specs are read
     * when the first partitioned file is judged.
     */
    public static FilePruning of(CatalogSnapshot snapshot, long tableId, ScanFilter filter, Map<Long, TableColumn> columns)
    {
        return new FilePruning(filter, columns, Suppliers.memoize(() -> readSpecs(snapshot, tableId)));
    }

    private static Map<Long, Map<Integer, PartitionKey>> readSpecs(CatalogSnapshot snapshot, long tableId)
    {
        Map<Long, Map<Integer, PartitionKey>> specs = new HashMap<>();
        try (RowCursor keys = snapshot.children(TableKind.PARTITION_COLUMN, tableId)) {
            keys.forEachRemaining(key -> specs.computeIfAbsent(key.getLong("partition_id"), id -> new HashMap<>())
                    .put(key.getLong("partition_key_index").intValue(), new PartitionKey(key.getLong("column_id"), PartitionTransform.parse(key.getString("transform")))));
        }
        return specs;
    }

    /** The columns whose statistics the filter can test: only their stats rows need reading. */
    public Set<Long> statsColumns()
    {
        return statsColumns;
    }

    /**
     * Whether the file may hold matching rows.
     *
     * @param stats the file's stats rows of {@link #statsColumns()}, by column id
     * @param partitionValues the file's partition values by key index (a NULL value maps to null; a key without a row is
     *         not known and never prunes)
     */
    public boolean mayMatch(Row dataFile, Map<Long, Row> stats, Map<Integer, String> partitionValues)
    {
        return mayMatch(dataFile, stats, FilePartitionValues.ofSingle(partitionValues));
    }

    /**
     * Whether the file may hold matching rows, given all its partition value rows: a key with several rows (written
     * by {@code ducklake_add_data_files}, see {@link FilePartitionValues}) excludes the file only when each of them
     * does, as DuckLake's {@code partition_value IN (...)} keeps a file when any row of the key matches.
     */
    public boolean mayMatch(Row dataFile, Map<Long, Row> stats, FilePartitionValues partitionValues)
    {
        if (!statsMayMatch(stats)) {
            return false;
        }
        Long partitionId = dataFile.getLong("partition_id");
        Map<Integer, PartitionKey> spec = partitionId == null || filter.domains().isEmpty() ? null : specs.get().get(partitionId);
        if (spec != null) {
            for (Map.Entry<Integer, PartitionKey> key : spec.entrySet()) {
                ColumnDomain domain = filter.domains().get(key.getValue().columnId());
                TableColumn column = columns.get(key.getValue().columnId());
                if (domain != null && column != null && partitionValues.has(key.getKey())
                        && partitionValues.values(key.getKey()).stream().allMatch(value -> partitionExcludes(column, key.getValue().transform(), domain, value))) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Whether every row of the file is certain to match, from the catalog alone: for each filtered column, the file's
     * identity partition value is accepted, or its statistics (null count, min and max) lie inside one range of the
     * domain. False when a statistic is missing, a column holds NaN or floats, or the values straddle the domain: the
     * file may then hold rows that match and rows that do not (see {@link #mayMatch}).
     */
    public boolean mustMatch(Row dataFile, Map<Long, Row> stats, FilePartitionValues partitionValues)
    {
        Long partitionId = dataFile.getLong("partition_id");
        Map<Integer, PartitionKey> spec = partitionId == null ? Map.of() : specs.get().getOrDefault(partitionId, Map.of());
        for (Map.Entry<Long, ColumnDomain> entry : filter.domains().entrySet()) {
            TableColumn column = columns.get(entry.getKey());
            if (column == null) {
                return false;
            }
            if (!identityKeyAccepts(spec, entry.getKey(), column, entry.getValue(), partitionValues)
                    && !statsInside(column.type(), stats.get(entry.getKey()), entry.getValue())) {
                return false;
            }
        }
        return true;
    }

    private static boolean identityKeyAccepts(Map<Integer, PartitionKey> spec, long columnId, TableColumn column, ColumnDomain domain,
            FilePartitionValues partitionValues)
    {
        for (Map.Entry<Integer, PartitionKey> key : spec.entrySet()) {
            if (key.getValue().columnId() != columnId || key.getValue().transform().kind() != PartitionTransform.Kind.IDENTITY
                    || !partitionValues.hasSingle(key.getKey())) {
                continue;
            }
            String text = partitionValues.single(key.getKey());
            if (text == null) {
                return domain.nullAllowed();
            }
            Optional<Object> value = DuckLakeValues.parseStat(column.type(), text);
            if (value.isPresent() && domain.accepts(value.get())) {
                return true;
            }
        }
        return false;
    }

    private static boolean statsInside(DuckLakeType type, Row stats, ColumnDomain domain)
    {
        if (stats == null || !type.isOrderable() || Boolean.TRUE.equals(stats.get("contains_nan"))) {
            return false;
        }
        if (type instanceof DuckLakeType.Primitive primitive && (primitive.kind() == io.moraine.core.types.PrimitiveKind.FLOAT64
                || primitive.kind() == io.moraine.core.types.PrimitiveKind.FLOAT32)) {
            // float statistics may be texts of another width (a retyped column): never certain
            return false;
        }
        Long nullCount = stats.getLong("null_count");
        Long valueCount = stats.getLong("value_count");
        if (nullCount == null || nullCount > 0 && !domain.nullAllowed()) {
            return false;
        }
        if (valueCount != null && valueCount == 0) {
            return nullCount > 0;
        }
        Optional<Object> min = DuckLakeValues.parseStat(type, stats.getString("min_value"));
        Optional<Object> max = DuckLakeValues.parseStat(type, stats.getString("max_value"));
        return min.isPresent() && max.isPresent() && domain.ranges().stream().anyMatch(range -> range.contains(min.get()) && range.contains(max.get()));
    }

    /** Whether a file with these stats rows of {@link #statsColumns()} (by column id) may hold matching rows. */
    public boolean statsMayMatch(Map<Long, Row> stats)
    {
        for (Map.Entry<Long, ColumnDomain> entry : filter.domains().entrySet()) {
            TableColumn column = columns.get(entry.getKey());
            if (column == null) {
                continue;
            }
            Row columnStats = stats.get(entry.getKey());
            if (columnStats != null && statsExclude(column.type(), columnStats, entry.getValue())) {
                return false;
            }
        }
        return true;
    }

    private static boolean statsExclude(DuckLakeType type, Row stats, ColumnDomain domain)
    {
        Long nullCount = stats.getLong("null_count");
        Long valueCount = stats.getLong("value_count");
        boolean mayHoldNull = nullCount == null || nullCount > 0;
        boolean mayHoldValues = valueCount == null || valueCount > 0;
        if (domain.ranges().isEmpty()) {
            return !mayHoldNull;
        }
        if (!mayHoldValues) {
            return !domain.nullAllowed();
        }
        if (domain.nullAllowed() && mayHoldNull || Boolean.TRUE.equals(stats.get("contains_nan"))) {
            return false;
        }
        Optional<Object> min = DuckLakeValues.parseStat(type, stats.getString("min_value"));
        Optional<Object> max = DuckLakeValues.parseStat(type, stats.getString("max_value"));
        if (min.isEmpty() || max.isEmpty()) {
            return false;
        }
        if (type instanceof DuckLakeType.Primitive primitive && primitive.kind() == io.moraine.core.types.PrimitiveKind.FLOAT64) {
            // A float64 column retyped from float32 keeps the older files' float texts: cover both readings of them.
            Object low = Math.min((Double) min.get(), (double) ((Double) min.get()).floatValue());
            Object high = Math.max((Double) max.get(), (double) ((Double) max.get()).floatValue());
            return domain.ranges().stream().noneMatch(range -> range.overlaps(low, high));
        }
        return domain.ranges().stream().noneMatch(range -> range.overlaps(min.get(), max.get()));
    }

    private static boolean partitionExcludes(TableColumn column, PartitionTransform transform, ColumnDomain domain, String valueText)
    {
        if (valueText == null) {
            // Every row of the file has NULL in the key column (a NULL key is written as a NULL partition value).
            return !domain.nullAllowed();
        }
        return switch (transform.kind()) {
            case IDENTITY -> DuckLakeValues.parseStat(column.type(), valueText).map(value -> !domain.accepts(value)).orElse(false);
            // timestamptz years are the writer session's calendar, which the catalog does not record: not pruned.
            case YEAR -> !isTimestampWithTimeZone(column) && parseLong(valueText).map(year -> !yearsOf(column, transform, domain).accepts(year)).orElse(false);
            case BUCKET -> bucketsOf(column.type(), domain, transform.buckets()).map(buckets -> parseLong(valueText).map(bucket -> !buckets.contains(bucket)).orElse(false))
                    .orElse(false);
            case MONTH, DAY, HOUR -> false;
        };
    }

    /** The years a domain's ranges span (year is monotonic, so a range maps to the range of its bounds' years). */
    private static ColumnDomain yearsOf(TableColumn column, PartitionTransform year, ColumnDomain domain)
    {
        List<ValueRange> years = new ArrayList<>();
        for (ValueRange range : domain.ranges()) {
            try {
                years.add(new ValueRange(range.low().map(low -> year.apply(low, column.type().duckLakeName())), true,
                        range.high().map(high -> year.apply(high, column.type().duckLakeName())), true));
            }
            catch (RuntimeException e) {
                years.add(ValueRange.all());
            }
        }
        return new ColumnDomain(years, domain.nullAllowed());
    }

    private static Optional<List<Long>> bucketsOf(DuckLakeType type, ColumnDomain domain, int buckets)
    {
        if (!domain.isDiscrete() || domain.nullAllowed()) {
            return Optional.empty();
        }
        List<Long> result = new ArrayList<>();
        for (ValueRange range : domain.ranges()) {
            Optional<Integer> bucket = BucketHash.bucketOf(type, range.low().orElseThrow(), buckets);
            if (bucket.isEmpty()) {
                return Optional.empty();
            }
            result.add((long) bucket.get());
        }
        return Optional.of(result);
    }

    private static boolean isTimestampWithTimeZone(TableColumn column)
    {
        return column.type() instanceof DuckLakeType.Primitive primitive && primitive.kind() == io.moraine.core.types.PrimitiveKind.TIMESTAMPTZ;
    }

    private static Optional<Long> parseLong(String text)
    {
        try {
            return Optional.of(Long.parseLong(text.strip()));
        }
        catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
