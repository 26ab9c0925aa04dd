package io.moraine.core.stats;

import com.google.common.collect.Iterators;
import com.google.common.collect.PeekingIterator;
import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.row.Row;
import io.moraine.core.row.RowsOfDataFile;
import io.moraine.core.catalog.RowCursor;
import io.moraine.core.keyspace.InlineKeys;
import io.moraine.core.keyspace.KeyWriter;
import io.moraine.core.scan.FilePartitionValues;
import io.moraine.core.scan.FilePruning;
import io.moraine.core.scan.InlinedFileDeletes;
import io.moraine.core.scan.ScanBuilder;
import io.moraine.core.scan.ScanFilter;
import io.moraine.core.store.KeyValue;
import io.moraine.core.store.KeyValueCursor;
import io.moraine.core.types.DuckLakeType;
import io.moraine.core.types.DuckLakeValues;
import io.moraine.core.types.PrimitiveKind;
import io.moraine.core.types.TableColumn;
import io.moraine.core.types.TableSchema;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * Computes {@link TableStatistics} at a snapshot S from the catalog alone, in one pass over the table's visible data
 * files joined with their {@code ducklake_file_column_stats} rows (both stored in {@code data_file_id} order), its
 * visible delete files and its inlined deletes and inlined-row locators. {@code ducklake_table_stats} and
 * {@code ducklake_table_column_stats} are not used: DuckLake updates them in place (they describe the newest snapshot,
 * not S) and never decrements them on deletes.
 *
 * <p>The rules, per statistic (a statistic that the rule does not make exact or valid is left unknown):
 * <ul>
 * <li><b>row count</b> = Σ {@code record_count} of the visible files − Σ {@code delete_count} of their visible delete
 * files − their inlined deletes visible at S + the live inlined rows. Unknown when a file holds rows newer than S
 * ({@code partial_max > S}: a flush or merge output read before its newest rows), when a delete file may hold
 * positions deleted after S (its {@code partial_max > S}, or a per-row-snapshot delete file of such an output without
 * {@code partial_max} read before the newest snapshot), when a data file has several visible delete files, or when an
 * inlined row was deleted or updated by S (counting the live ones would need the chunk bodies).</li>
 * <li><b>min / max</b>: the union of the files' bounds. Deletes keep it a valid bound (it only gets looser). Unknown
 * when a file has no stats row for the column (the file predates an added column, whose rows read its default), a
 * NULL or unreadable bound with values present, NaN in a floating-point column, or live inlined rows (they have no
 * statistics).</li>
 * <li><b>NULL fraction</b>: 0 when no file holds a NULL, 1 when no file holds a value (both stay true under deletes),
 * else Σ {@code null_count} / rows, and only when no row of the matched files is deleted or newer than S (a delete
 * may have removed NULLs or values). Unknown with live inlined rows or a missing stats row.</li>
 * <li><b>data size</b>: Σ {@code column_size_bytes} (bytes as written, compressed), scaled by live rows / file rows
 * when the row count is known: an estimate by nature.</li>
 * </ul>
 * With a filter, only the files it may match count (the filter's own selectivity is the optimizer's to estimate).
 */
final class TableStatisticsReader
{
    private final CatalogSnapshot snapshot;
    private final long tableId;
    private final TableSchema schema;
    private final ScanFilter filter;

    TableStatisticsReader(CatalogSnapshot snapshot, long tableId, TableSchema schema, ScanFilter filter)
    {
        this.snapshot = snapshot;
        this.tableId = tableId;
        this.schema = schema;
        this.filter = filter;
    }

    TableStatistics read()
    {
        if (filter.isNone()) {
            return new TableStatistics(OptionalLong.of(0), Map.of());
        }
        ScanFilter normalized = filter.isAll() ? filter : ScanBuilder.forTable(snapshot, tableId, () -> schema).withFilter(filter).build().filter();
        Map<Long, TableColumn> byId = normalized.isAll() ? Map.of() : schema.byId();
        FilePruning pruning = FilePruning.of(snapshot, tableId, normalized, byId);

        InlinedRows inlined = inlinedRows();
        Map<Long, List<Row>> deleteFiles = new HashMap<>();
        try (RowCursor rows = snapshot.deleteFiles(tableId)) {
            rows.forEachRemaining(row -> deleteFiles.computeIfAbsent(row.getLong("data_file_id"), id -> new ArrayList<>()).add(row));
        }
        Map<Long, TreeMap<Long, Long>> inlinedDeletes = InlinedFileDeletes.entriesAt(snapshot.reader(), tableId, snapshot.id());

        Map<Long, ColumnAccumulator> columns = new LinkedHashMap<>();
        for (TableColumn column : schema.columns()) {
            if (column.type() instanceof DuckLakeType.Primitive || column.type() instanceof DuckLakeType.Decimal) {
                columns.put(column.columnId(), new ColumnAccumulator(column));
            }
        }
        long fileRows = 0;
        long deletedRows = 0;
        boolean exactRows = true;
        boolean anyRowRemoved = false;
        // Partition values are read only to prune by a filter.
        RowCursor partitionCursor = normalized.isAll() ? null : snapshot.filePartitionValues(tableId);
        try (RowCursor files = snapshot.dataFiles(tableId);
                RowCursor statsCursor = snapshot.fileColumnStats(tableId);
                RowCursor ignored = partitionCursor) {
            PeekingIterator<Row> stats = Iterators.peekingIterator(statsCursor);
            PeekingIterator<Row> partitionValues = partitionCursor == null ? null : Iterators.peekingIterator(partitionCursor);
            while (files.hasNext()) {
                Row file = files.next();
                long fileId = file.getLong("data_file_id");
                Map<Long, Row> fileStats = new HashMap<>();
                for (Row row : RowsOfDataFile.take(stats, fileId)) {
                    fileStats.put(row.getLong("column_id"), row);
                }
                if (partitionValues != null) {
                    if (!pruning.mayMatch(file, fileStats, FilePartitionValues.of(RowsOfDataFile.take(partitionValues, fileId)))) {
                        continue;
                    }
                }
                long records = file.getLong("record_count");
                fileRows += records;
                Long partialMax = file.getLong("partial_max");
                if (partialMax != null && partialMax > snapshot.id()) {
                    exactRows = false;
                    anyRowRemoved = true;
                }
                List<Row> deletes = deleteFiles.getOrDefault(fileId, List.of());
                if (deletes.size() > 1) {
                    exactRows = false;
                }
                for (Row delete : deletes) {
                    anyRowRemoved = true;
                    Long deleteCount = delete.getLong("delete_count");
                    if (deleteCount == null || !deleteCountExactAtSnapshot(file, delete)) {
                        exactRows = false;
                    }
                    else {
                        deletedRows += deleteCount;
                    }
                }
                TreeMap<Long, Long> fileInlinedDeletes = inlinedDeletes.get(fileId);
                if (fileInlinedDeletes != null && !fileInlinedDeletes.isEmpty()) {
                    anyRowRemoved = true;
                    deletedRows += fileInlinedDeletes.size();
                }
                for (ColumnAccumulator column : columns.values()) {
                    column.add(fileStats.get(column.column.columnId()), records);
                }
            }
        }
        OptionalLong rowCount = exactRows && inlined.count().isPresent()
                ? OptionalLong.of(fileRows - deletedRows + inlined.count().getAsLong())
                : OptionalLong.empty();
        Map<Long, ColumnStatistics> result = new LinkedHashMap<>();
        if (!inlined.present()) {
            for (ColumnAccumulator column : columns.values()) {
                result.put(column.column.columnId(), column.result(fileRows, rowCount, anyRowRemoved));
            }
        }
        return new TableStatistics(rowCount, result);
    }

    /**
     * Whether every position of a visible delete file was deleted by S. A file that records per-position snapshots
     * says how far they reach ({@code partial_max}); one that does not was written in one snapshot, its begin, unless it
     * belongs to a flush or merge output (DuckLake leaves {@code partial_max} NULL on the delete files a flush of
     * inlined inserts writes, though they carry per-position snapshots): those are exact only at the newest snapshot.
     */
    private boolean deleteCountExactAtSnapshot(Row dataFile, Row deleteFile)
    {
        Long partialMax = deleteFile.getLong("partial_max");
        if (partialMax != null) {
            return partialMax <= snapshot.id();
        }
        return dataFile.getLong("partial_max") == null || snapshot.id() >= snapshot.viewHeadSnapshotId();
    }

    private record InlinedRows(boolean present, OptionalLong count) {}

    /**
     * The inlined rows live at S, from the chunk locators ({@code row_id_end} in the key, {@code row_id_start} in the
     * value, the chunk's begin snapshot in the key): their count is exact when no inlined row was deleted (a row
     * tombstone) by S, since a deleted or updated row's versions can only be told apart by reading the chunks.
     */
    private InlinedRows inlinedRows()
    {
        long rows = 0;
        byte[] locators = InlineKeys.prefix(InlineKeys.CHUNK_LOCATOR, tableId);
        try (KeyValueCursor cursor = snapshot.reader().scan(locators, KeyWriter.prefixEnd(locators), 1024)) {
            while (cursor.hasNext()) {
                KeyValue entry = cursor.next();
                if (InlineKeys.component(entry.key(), 3) <= snapshot.id()) {
                    rows += InlineKeys.component(entry.key(), 1) - InlineKeys.longOf(entry.value()) + 1;
                }
            }
        }
        if (rows == 0) {
            return new InlinedRows(false, OptionalLong.of(0));
        }
        byte[] tombstones = InlineKeys.prefix(InlineKeys.ROW_TOMBSTONE, tableId);
        try (KeyValueCursor cursor = snapshot.reader().scan(tombstones, KeyWriter.prefixEnd(tombstones), 1024)) {
            while (cursor.hasNext()) {
                if (InlineKeys.longOf(cursor.next().value()) <= snapshot.id()) {
                    return new InlinedRows(true, OptionalLong.empty());
                }
            }
        }
        return new InlinedRows(true, OptionalLong.of(rows));
    }

    /** One column's statistics summed over the matched files. */
    private static final class ColumnAccumulator
    {
        private final TableColumn column;
        private boolean everyFileHasStats = true;
        private boolean boundsKnown;
        private Object min;
        private Object max;
        private boolean nullsKnown = true;
        private long nulls;
        private boolean valuesKnown = true;
        private long values;
        private boolean sizeKnown = true;
        private long size;

        ColumnAccumulator(TableColumn column)
        {
            this.column = column;
            this.boundsKnown = column.type().isOrderable();
        }

        void add(Row stats, long records)
        {
            if (stats == null) {
                everyFileHasStats = false;
                return;
            }
            Long nullCount = stats.getLong("null_count");
            Long valueCount = stats.getLong("value_count");
            Long columnSize = stats.getLong("column_size_bytes");
            nullsKnown &= nullCount != null;
            nulls += nullCount == null ? 0 : nullCount;
            valuesKnown &= valueCount != null;
            values += valueCount == null ? 0 : valueCount;
            sizeKnown &= columnSize != null;
            size += columnSize == null ? 0 : columnSize;
            if (!boundsKnown || valueCount != null && valueCount == 0) {
                return;
            }
            Optional<Object> low = DuckLakeValues.parseStat(column.type(), stats.getString("min_value"));
            Optional<Object> high = DuckLakeValues.parseStat(column.type(), stats.getString("max_value"));
            if (low.isEmpty() || high.isEmpty() || Boolean.TRUE.equals(stats.get("contains_nan"))) {
                boundsKnown = false;
                return;
            }
            Object fileMin = low.get();
            Object fileMax = high.get();
            if (column.type().is(PrimitiveKind.FLOAT64)) {
                // A float64 column retyped from float32 keeps the older files' float texts: cover both readings of them.
                fileMin = Math.min((Double) fileMin, (double) ((Double) fileMin).floatValue());
                fileMax = Math.max((Double) fileMax, (double) ((Double) fileMax).floatValue());
            }
            min = min == null || DuckLakeValues.compare(fileMin, min) < 0 ? fileMin : min;
            max = max == null || DuckLakeValues.compare(fileMax, max) > 0 ? fileMax : max;
        }

        ColumnStatistics result(long fileRows, OptionalLong rowCount, boolean anyRowRemoved)
        {
            if (!everyFileHasStats) {
                return ColumnStatistics.UNKNOWN;
            }
            boolean bounded = boundsKnown && min != null && max != null;
            OptionalDouble nullsFraction = OptionalDouble.empty();
            if (nullsKnown && nulls == 0 && fileRows > 0) {
                nullsFraction = OptionalDouble.of(0);
            }
            else if (valuesKnown && values == 0 && rowCount.orElse(1) > 0 && fileRows > 0) {
                nullsFraction = OptionalDouble.of(1);
            }
            else if (nullsKnown && !anyRowRemoved && rowCount.isPresent() && rowCount.getAsLong() > 0) {
                nullsFraction = OptionalDouble.of((double) nulls / rowCount.getAsLong());
            }
            OptionalLong dataSize = OptionalLong.empty();
            if (sizeKnown) {
                dataSize = rowCount.isPresent() && fileRows > 0
                        ? OptionalLong.of(Math.round((double) size * rowCount.getAsLong() / fileRows))
                        : OptionalLong.of(size);
            }
            return new ColumnStatistics(bounded ? Optional.of(min) : Optional.empty(), bounded ? Optional.of(max) : Optional.empty(), nullsFraction, dataSize);
        }
    }
}
