package io.moraine.core.write;

import io.moraine.core.write.files.FileColumnStatistics;

import io.moraine.core.keyspace.InlineKeys;
import io.moraine.core.keyspace.KeyWriter;
import io.moraine.core.row.Row;
import io.moraine.core.scan.InlinedFileDeletes;
import io.moraine.core.store.KeyValueCursor;
import io.moraine.core.tx.StagedTransaction;
import io.moraine.core.types.TableColumn;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A table's statistics after a rewrite of its deletes, as DuckLake's {@code RecomputeGlobalStatsAfterRewrite} sets
 * them: when the files left after the rewrite hold no deleted row (their rows add up to the table's live file rows
 * before it), {@code record_count}, {@code file_size_bytes} and every leaf column's bounds are recomputed exactly from
 * those files' statistics ({@code next_row_id} kept); otherwise nothing changes. DuckLake also folds in the table's
 * live inlined rows when every top-level column is a plain scalar; the core leaves a table with inlined rows as it was
 * (DuckLake does so too when a column is nested).
 */
final class RewriteStats
{
    private RewriteStats() {}

    static void recompute(CommitAttempt attempt, StagedTransaction tx, TableDraft table, List<CompactedFiles> rewrites)
    {
        long tableId = table.tableId;
        Optional<Row> statsRow = attempt.base.tableStats(tableId);
        if (statsRow.isEmpty() || hasInlinedRows(attempt, tableId)) {
            return;
        }
        Set<Long> removed = new HashSet<>();
        rewrites.forEach(rewrite -> rewrite.sources().forEach(source -> removed.add(source.dataFileId())));
        Map<Long, Long> deleteCounts = new HashMap<>();
        try (var rows = attempt.base.deleteFiles(tableId)) {
            while (rows.hasNext()) {
                Row delete = rows.next();
                deleteCounts.merge(delete.getLong("data_file_id"), delete.getLong("delete_count"), Long::sum);
            }
        }
        Map<Long, long[]> inlinedDeletes = InlinedFileDeletes.positionsAt(attempt.base.reader(), tableId, attempt.base.id());
        long gross = 0;
        long net = 0;
        long sizeBytes = 0;
        Set<Long> kept = new HashSet<>();
        try (var rows = attempt.base.dataFiles(tableId)) {
            while (rows.hasNext()) {
                Row file = rows.next();
                long id = file.getLong("data_file_id");
                long count = file.getLong("record_count");
                net += count - deleteCounts.getOrDefault(id, 0L) - inlinedDeletes.getOrDefault(id, new long[0]).length;
                if (!removed.contains(id)) {
                    kept.add(id);
                    gross += count;
                    sizeBytes += file.getLong("file_size_bytes");
                }
            }
        }
        for (CompactedFiles rewrite : rewrites) {
            if (rewrite.output() != null) {
                gross += rewrite.output().recordCount();
                sizeBytes += rewrite.output().fileSizeBytes();
            }
        }
        if (gross != net) {
            return;
        }
        Map<Long, TableColumn> leaves = new LinkedHashMap<>();
        ColumnTree.of(table.columns).forEach(column -> addLeaves(column, leaves));
        Map<Long, TableStatsUpdate.ColumnStatsMerge> merged = new HashMap<>();
        try (var rows = attempt.base.fileColumnStats(tableId)) {
            while (rows.hasNext()) {
                Row stats = rows.next();
                if (kept.contains(stats.getLong("data_file_id"))) {
                    merge(merged, leaves, stats.getLong("column_id"), stats.getLong("value_count"), stats.getLong("null_count"), stats.getString("min_value"),
                            stats.getString("max_value"), (Boolean) stats.get("contains_nan"));
                }
            }
        }
        for (CompactedFiles rewrite : rewrites) {
            if (rewrite.output() != null) {
                for (FileColumnStatistics column : rewrite.output().columnStatistics()) {
                    merge(merged, leaves, column.columnId(), column.valueCount(), column.nullCount(), column.minValue(), column.maxValue(), column.containsNan());
                }
            }
        }
        tx.update(statsRow.get(), Map.of("record_count", gross, "file_size_bytes", sizeBytes));
        for (Row columnRow : attempt.base.tableColumnStats(tableId)) {
            long columnId = columnRow.getLong("column_id");
            if (!leaves.containsKey(columnId)) {
                continue;
            }
            TableStatsUpdate.ColumnStatsMerge column = merged.get(columnId);
            Map<String, Object> changes = new HashMap<>();
            changes.put("contains_null", column == null ? null : column.containsNull);
            changes.put("contains_nan", column == null ? null : column.containsNan);
            changes.put("min_value", column == null ? null : column.min);
            changes.put("max_value", column == null ? null : column.max);
            tx.update(columnRow, changes);
        }
    }

    private static void merge(Map<Long, TableStatsUpdate.ColumnStatsMerge> merged, Map<Long, TableColumn> leaves, long columnId, Long valueCount,
            Long nullCount, String min, String max, Boolean containsNan)
    {
        TableColumn leaf = leaves.get(columnId);
        if (leaf == null) {
            return;
        }
        merged.computeIfAbsent(columnId, id -> TableStatsUpdate.ColumnStatsMerge.from(leaf.type(), Optional.empty(), true))
                .add(nullCount == null || nullCount > 0, containsNan, min, max, valueCount == null || valueCount > 0);
    }

    private static void addLeaves(TableColumn column, Map<Long, TableColumn> leaves)
    {
        if (column.children().isEmpty()) {
            leaves.put(column.columnId(), column);
        }
        column.children().forEach(child -> addLeaves(child, leaves));
    }

    /** Whether any inlined row chunk of the table is visible at the attempt's base. */
    private static boolean hasInlinedRows(CommitAttempt attempt, long tableId)
    {
        byte[] locators = InlineKeys.prefix(InlineKeys.CHUNK_LOCATOR, tableId);
        try (KeyValueCursor cursor = attempt.base.reader().scan(locators, KeyWriter.prefixEnd(locators), 16)) {
            while (cursor.hasNext()) {
                if (InlineKeys.component(cursor.next().key(), 3) <= attempt.base.id()) {
                    return true;
                }
            }
        }
        return false;
    }
}
