package io.moraine.core.write;

import io.moraine.core.write.files.WrittenDataFile;
import io.moraine.core.write.files.FileColumnStatistics;

import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.tx.StagedTransaction;
import io.moraine.core.types.DuckLakeType;
import io.moraine.core.types.DuckLakeValues;
import io.moraine.core.types.TableColumn;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A table's {@code ducklake_table_stats} and {@code ducklake_table_column_stats} as a commit's new data changes them:
 * {@code record_count}, {@code next_row_id} and {@code file_size_bytes} only grow; each leaf column's
 * {@code contains_null} / {@code contains_nan} are OR-ed and min / max merged as typed values (DuckLake's
 * {@code MergeStats}). The table's first data inserts a column-stats row per leaf column; later data only updates the
 * rows that exist (DuckLake's UPDATE is not an upsert).
 */
final class TableStatsUpdate
{
    private final long tableId;
    private final Optional<Row> readRow;
    private final Map<Long, Row> readColumnRows = new HashMap<>();
    private final Map<Long, TableColumn> leaves = new LinkedHashMap<>();
    private final Map<Long, ColumnStatsMerge> merged = new LinkedHashMap<>();
    long recordCount;
    long nextRowId;
    long fileSizeBytes;

    private TableStatsUpdate(long tableId, Optional<Row> readRow, List<Row> columnRows, List<TableColumn> columns)
    {
        this.tableId = tableId;
        this.readRow = readRow;
        this.recordCount = readRow.map(row -> row.getLong("record_count")).orElse(0L);
        this.nextRowId = readRow.map(row -> row.getLong("next_row_id")).orElse(0L);
        this.fileSizeBytes = readRow.map(row -> row.getLong("file_size_bytes")).orElse(0L);
        columnRows.forEach(row -> readColumnRows.put(row.getLong("column_id"), row));
        columns.forEach(this::addLeaves);
    }

    static TableStatsUpdate read(CommitAttempt attempt, TableDraft table)
    {
        List<TableColumn> columns = ColumnTree.of(table.columns);
        if (table.created) {
            return new TableStatsUpdate(table.tableId, Optional.empty(), List.of(), columns);
        }
        return new TableStatsUpdate(table.tableId, attempt.base.tableStats(table.tableId), attempt.base.tableColumnStats(table.tableId), columns);
    }

    private void addLeaves(TableColumn column)
    {
        if (column.children().isEmpty()) {
            leaves.put(column.columnId(), column);
        }
        column.children().forEach(this::addLeaves);
    }

    List<TableColumn> leafColumns()
    {
        return List.copyOf(leaves.values());
    }

    /**
     * A new data file: counted, its column statistics merged into the table's. With {@code added} (a file of
     * {@code ducklake_add_data_files}, whose statistics DuckLake reads from
     * {@code parquet_metadata}), a column's bounds count even when it counted no value: a Parquet leaf under a list
     * of structs counts its NULL structs' slots as NULLs too, so value_count (values - NULLs) may be 0 beside real bounds,
     * which DuckLake merges into the table's. The statistics of {@code keyTyped} columns are typed as a partition key's
     * (see {@link MappedDataFile#keyTypedStatistics}).
     */
    void addFile(WrittenDataFile file, boolean added, java.util.Set<Long> keyTyped)
    {
        recordCount += file.recordCount();
        nextRowId += file.recordCount();
        fileSizeBytes += file.fileSizeBytes();
        for (FileColumnStatistics column : file.columnStatistics()) {
            TableColumn leaf = leaves.get(column.columnId());
            if (leaf != null) {
                ColumnStatsMerge merge = merge(leaf);
                merge.typedAs(keyTyped.contains(column.columnId()));
                merge.add(column.nullCount() == null || column.nullCount() > 0, column.containsNan(), column.minValue(), column.maxValue(),
                        column.valueCount() == null || column.valueCount() > 0 || added && column.minValue() != null);
            }
        }
    }

    /** Inlined rows: counted, and their statistics (DuckDB's text of each value) merged into the table's. */
    void addInlined(long rows, Map<Long, FileColumnStatistics> columnStatistics)
    {
        recordCount += rows;
        nextRowId += rows;
        for (Map.Entry<Long, FileColumnStatistics> entry : columnStatistics.entrySet()) {
            TableColumn leaf = leaves.get(entry.getKey());
            FileColumnStatistics column = entry.getValue();
            if (leaf != null) {
                merge(leaf).add(column.nullCount() != null && column.nullCount() > 0, column.containsNan(), column.minValue(), column.maxValue(),
                        column.valueCount() == null || column.valueCount() > 0);
            }
        }
    }

    private ColumnStatsMerge merge(TableColumn leaf)
    {
        return merged.computeIfAbsent(leaf.columnId(), id -> ColumnStatsMerge.from(leaf.type(), Optional.ofNullable(readColumnRows.get(id)),
                readRow.isEmpty()));
    }

    void stage(StagedTransaction tx)
    {
        if (readRow.isEmpty()) {
            tx.insert(Row.of(TableKind.TABLE_STATS, tableId, recordCount, nextRowId, fileSizeBytes));
        }
        else {
            tx.update(readRow.get(), Map.of("record_count", recordCount, "next_row_id", nextRowId, "file_size_bytes", fileSizeBytes));
        }
        for (TableColumn leaf : leaves.values()) {
            ColumnStatsMerge column = merged.get(leaf.columnId());
            Row read = readColumnRows.get(leaf.columnId());
            if (column == null) {
                continue;
            }
            if (read == null) {
                if (readRow.isEmpty()) {
                    tx.insert(Row.of(TableKind.TABLE_COLUMN_STATS, tableId, leaf.columnId(), column.containsNull, column.containsNan, column.min, column.max, null));
                }
                continue;
            }
            Map<String, Object> changes = new HashMap<>();
            changes.put("contains_null", column.containsNull);
            changes.put("contains_nan", column.containsNan);
            changes.put("min_value", column.min);
            changes.put("max_value", column.max);
            tx.update(read, changes);
        }
    }

    /** One leaf column's table-level statistics, merged contributor by contributor. */
    static final class ColumnStatsMerge
    {
        private final DuckLakeType type;
        Boolean containsNull;
        Boolean containsNan;
        String min;
        String max;
        /** Whether min and max hold the bounds of every value so far (false once a contributor with values had none). */
        private boolean boundsKnown;
        private boolean anyValues;
        private boolean nanStarted;
        /** Whether the bounds so far are typed as a partition key rather than the column; null before any contributor. */
        private Boolean keyTyped;
        /** Whether the next contributor's type differs from the bounds' (DuckLake then drops them: "cannot be compared"). */
        private boolean typesDiffer;

        private ColumnStatsMerge(DuckLakeType type)
        {
            this.type = type;
        }

        static ColumnStatsMerge from(DuckLakeType type, Optional<Row> read, boolean firstData)
        {
            ColumnStatsMerge merge = new ColumnStatsMerge(type);
            if (read.isPresent()) {
                Row row = read.get();
                merge.containsNull = (Boolean) row.get("contains_null");
                merge.containsNan = (Boolean) row.get("contains_nan");
                merge.min = row.getString("min_value");
                merge.max = row.getString("max_value");
                merge.anyValues = merge.min != null || merge.max != null;
                merge.nanStarted = true;
                merge.boundsKnown = true;
                merge.keyTyped = false;
            }
            else {
                merge.boundsKnown = true;
            }
            return merge;
        }

        /** The next contributor's bounds are typed as a partition key ({@code true}) or as the column. */
        void typedAs(boolean key)
        {
            typesDiffer = keyTyped != null && keyTyped != key;
            keyTyped = key;
        }

        void add(boolean hasNulls, Boolean hasNan, String otherMin, String otherMax, boolean hasValues)
        {
            containsNull = containsNull == null ? hasNulls : containsNull || hasNulls;
            // DuckLake: the first contributor's contains_nan, then unknown (NULL) as soon as one contributor does not know it
            if (!nanStarted) {
                containsNan = hasNan;
                nanStarted = true;
            }
            else {
                containsNan = containsNan == null || hasNan == null ? null : containsNan || hasNan;
            }
            boolean differ = typesDiffer;
            typesDiffer = false;
            if (differ && anyValues) {
                boundsKnown = false;
                min = null;
                max = null;
            }
            if (!hasValues) {
                return;
            }
            if (otherMin == null || otherMax == null) {
                boundsKnown = false;
            }
            if (!boundsKnown) {
                min = null;
                max = null;
                anyValues = true;
                return;
            }
            min = !anyValues ? otherMin : extreme(min, otherMin, true);
            max = !anyValues ? otherMax : extreme(max, otherMax, false);
            anyValues = true;
        }

        private String extreme(String current, String other, boolean smallest)
        {
            if (current == null || other == null) {
                return null;
            }
            Optional<Object> left = DuckLakeValues.parseStat(type, current);
            Optional<Object> right = DuckLakeValues.parseStat(type, other);
            int order = left.isPresent() && right.isPresent() ? DuckLakeValues.compare(left.get(), right.get()) : current.compareTo(other);
            // DuckLake replaces a bound only by a strictly smaller (larger) one: a tie keeps the current text ('true', not a file's '1')
            return (smallest ? order <= 0 : order >= 0) ? current : other;
        }
    }
}
