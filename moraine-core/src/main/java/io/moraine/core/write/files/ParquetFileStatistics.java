package io.moraine.core.write.files;

import io.moraine.core.types.DuckLakeType;
import io.moraine.core.types.PrimitiveKind;
import io.moraine.core.types.TableColumn;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A written data file's {@code ducklake_file_column_stats}, derived from its Parquet footer as parquet-java reads it:
 * one {@link FileColumnStatistics} per leaf column of the table (a scalar column, or a scalar leaf of a struct, list or
 * map), matched by Parquet field id = DuckLake column id, in column-id order. Columns of the table that the file does
 * not hold get no entry; leaves of the file without a field id of the table (the hidden row-id column) are skipped.
 * <p>
 * What equals DuckDB 1.5.5's own rows (reference writes §1.4, §3.4; checked by {@code DataFileStatisticsOracleTest}):
 * <ul>
 *   <li>{@code column_size_bytes}: the sum over row groups of the chunk's total compressed size;</li>
 *   <li>{@code null_count}: the sum of the chunks' null counts; {@code value_count} = values − nulls (leaf slots, so an
 *       empty or NULL list adds a NULL slot to its element), null when a null count is missing or exceeds the values;</li>
 *   <li>min and max as DuckDB prints them ({@link StatisticsText}): BOOLEAN {@code 0}/{@code 1}, decimals scaled,
 *       temporal types with trimmed fractions, TIMESTAMPTZ in UTC with {@code +00}, BLOB upper-case hex, VARCHAR and
 *       BLOB cut to 256 bytes as DuckDB's writer cuts them; a text holding NUL is kept as it is (DuckLake 1.5.5 on a
 *       DuckDB catalog stores it so, observed; not NULL as reference writes §1.4 has it); none for HUGEINT, UHUGEINT
 *       (written as DOUBLE), nested parents and GEOMETRY; VARIANT columns (whose Parquet leaves carry no field id) get
 *       no entry;</li>
 *   <li>INTERVAL and TIMETZ: DuckDB's writer reports nothing for them, so DuckLake stores 0 for size, values and
 *       NULLs and no bounds; this does the same.</li>
 * </ul>
 * What a parquet-java footer cannot tell, and what is chosen instead (never a bound that could exclude a value):
 * <ul>
 *   <li><b>NaN.</b> {@code contains_nan} is set for FLOAT and DOUBLE only. When the writer recorded a NaN count
 *       (parquet-java 1.15 and later, which also keep NaN out of min/max) it is exact. DuckDB records none: it orders NaN
 *       above every number, so its max is NaN when the file holds one, and parquet-java then drops the chunk's min and
 *       max. So without a NaN count: a chunk with values but no bounds → {@code true} and no bounds for the file
 *       (DuckDB itself would record the bounds of the non-NaN values: an expected difference); bounds from a
 *       {@code DuckDB} writer → {@code false}; bounds from any other writer → {@code true} (older parquet-java writers
 *       skip NaN in their bounds without counting it).</li>
 *   <li><b>Signed zero.</b> parquet-java reads a float min of {@code 0.0} as {@code -0.0} and a max of {@code -0.0} as
 *       {@code 0.0} (the Parquet rule for readers), so a zero bound is printed {@code 0.0}, as DuckDB prints the
 *       common case; DuckDB prints {@code -0.0} where the column's first-seen zero extreme was negative.</li>
 *   <li><b>Long strings.</b> The 256-byte cut is applied to the footer's min and max. DuckDB applies it value by value and
 *       gives up on the column's bounds (sticky) when a long max cannot be incremented (all of its first 256 bytes
 *       are ≥ 0x7F); this applies that rule to the file's max only. A writer that dropped a chunk's string bounds
 *       (parquet-java omits min and max above 4 KiB together) leaves the file without bounds.</li>
 *   <li><b>extra_stats</b> (GEOMETRY bounding boxes, VARIANT) is not derived: always null.</li>
 * </ul>
 */
public final class ParquetFileStatistics
{
    private ParquetFileStatistics() {}

    /** The column statistics of the file with footer {@code footer}, a data file of a table with top-level columns {@code tableColumns}. */
    public static List<FileColumnStatistics> fromFooter(ParquetMetadata footer, List<TableColumn> tableColumns)
    {
        Map<Long, TableColumn> leaves = new LinkedHashMap<>();
        tableColumns.forEach(column -> collectLeaves(column, leaves));
        return fromFooter(footer, chunk -> {
            var id = chunk.getPrimitiveType().getId();
            return id == null ? null : leaves.get((long) id.intValue());
        });
    }

    /**
     * The column statistics of the file with footer {@code footer} whose leaf chunks {@code leafOf} matches to the
     * table's leaf columns (null: not a column of the table), for a file read by name rather than by field id.
     */
    public static List<FileColumnStatistics> fromFooter(ParquetMetadata footer, java.util.function.Function<ColumnChunkMetaData, TableColumn> leafOf)
    {
        String createdBy = footer.getFileMetaData().getCreatedBy();
        Map<Long, LeafAccumulator> accumulators = new LinkedHashMap<>();
        for (BlockMetaData block : footer.getBlocks()) {
            for (ColumnChunkMetaData chunk : block.getColumns()) {
                TableColumn column = leafOf.apply(chunk);
                if (column == null) {
                    continue;
                }
                accumulators.computeIfAbsent(column.columnId(), ignored -> new LeafAccumulator(column, createdBy)).add(chunk);
            }
        }
        List<FileColumnStatistics> statistics = new ArrayList<>();
        accumulators.values().stream()
                .sorted(java.util.Comparator.comparingLong(accumulator -> accumulator.column.columnId()))
                .forEach(accumulator -> statistics.add(accumulator.result()));
        return statistics;
    }

    /**
     * {@code statistics} with {@code contains_nan} of the columns in {@code nanWritten} (column id → whether a NaN was
     * written) as the writer saw them: a writer that saw every value of a top-level FLOAT or DOUBLE column knows what a
     * footer without a NaN count cannot tell (a parquet-java 1.17 footer: the rule above assumes a NaN). Columns not in
     * the map, and columns without a {@code contains_nan}, keep the footer's answer.
     */
    public static List<FileColumnStatistics> withWrittenNans(List<FileColumnStatistics> statistics, Map<Long, Boolean> nanWritten)
    {
        return statistics.stream()
                .map(stats -> stats.containsNan() == null || !nanWritten.containsKey(stats.columnId()) ? stats
                        : new FileColumnStatistics(stats.columnId(), stats.columnSizeBytes(), stats.valueCount(), stats.nullCount(), stats.minValue(),
                                stats.maxValue(), nanWritten.get(stats.columnId()), stats.extraStats()))
                .toList();
    }

    private static void collectLeaves(TableColumn column, Map<Long, TableColumn> leaves)
    {
        if (column.children().isEmpty() && !(column.type() instanceof DuckLakeType.StructOf)) {
            leaves.put(column.columnId(), column);
        }
        column.children().forEach(child -> collectLeaves(child, leaves));
    }

    /**
     * Whether parquet-java read a NaN count: parquet-java 1.17 (the one Trino 483 and Spark 4.2 bring) has no NaN
     * counts, and its files' floats then follow the rule for writers without one.
     */
    private static boolean nanCountSet(Statistics<?> statistics)
    {
        return NAN_COUNTS && statistics.isNanCountSet();
    }

    private static final boolean NAN_COUNTS = java.util.Arrays.stream(Statistics.class.getMethods()).anyMatch(method -> method.getName().equals("isNanCountSet"));

    /** The chunks of one leaf column over the file's row groups. */
    private static final class LeafAccumulator
    {
        private final TableColumn column;
        private final PrimitiveKind kind;
        private final boolean fromDuckDb;
        private long sizeBytes;
        private long values;
        private long nulls;
        private boolean nullsKnown = true;
        private boolean boundsKnown = true;
        private boolean nan;
        private boolean nanCounted = true;
        private Statistics<?> merged;

        LeafAccumulator(TableColumn column, String createdBy)
        {
            this.column = column;
            this.kind = column.type() instanceof DuckLakeType.Primitive primitive ? primitive.kind() : null;
            this.fromDuckDb = createdBy != null && createdBy.startsWith("DuckDB");
        }

        void add(ColumnChunkMetaData chunk)
        {
            sizeBytes += chunk.getTotalSize();
            values += chunk.getValueCount();
            Statistics<?> statistics = chunk.getStatistics();
            boolean hasNulls = statistics != null && statistics.isNumNullsSet();
            if (hasNulls) {
                nulls += statistics.getNumNulls();
            }
            else {
                nullsKnown = false;
            }
            long nonNull = hasNulls ? chunk.getValueCount() - statistics.getNumNulls() : chunk.getValueCount();
            if (statistics != null && nanCountSet(statistics)) {
                nan |= statistics.getNanCount() > 0;
            }
            else if (nonNull > 0) {
                nanCounted = false;
            }
            if (statistics == null || !statistics.hasNonNullValue()) {
                if (nonNull > 0) {
                    boundsKnown = false;
                    if (statistics == null || !nanCountSet(statistics)) {
                        // A float chunk with values and no readable bounds: a NaN bound that parquet-java dropped, or no bounds at all.
                        nan = true;
                    }
                }
                return;
            }
            if (merged == null) {
                merged = statistics.copy();
            }
            else {
                merged.mergeStatistics(statistics);
            }
        }

        FileColumnStatistics result()
        {
            if (kind == PrimitiveKind.INTERVAL || kind == PrimitiveKind.TIMETZ) {
                return new FileColumnStatistics(column.columnId(), 0L, 0L, 0L, null, null, null, null);
            }
            Long valueCount = nullsKnown && nulls <= values ? values - nulls : null;
            Long nullCount = nullsKnown && nulls <= values ? nulls : null;
            String min = null;
            String max = null;
            if (boundsKnown && merged != null && merged.hasNonNullValue()) {
                StatisticsText.Bounds bounds = StatisticsText.bounds(column.type(), merged);
                if (bounds != null) {
                    min = bounds.min();
                    max = bounds.max();
                }
            }
            Boolean containsNan = null;
            if (kind != null && kind.isFloatingPoint()) {
                containsNan = nan || (!nanCounted && !fromDuckDb);
            }
            return new FileColumnStatistics(column.columnId(), sizeBytes, valueCount, nullCount, min, max, containsNan, null);
        }
    }
}
