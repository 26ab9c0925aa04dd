package io.moraine.core.write;

import io.moraine.core.write.files.WrittenDataFile;
import io.moraine.core.write.files.FileColumnStatistics;

import io.moraine.core.error.CommitConflictException;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.scan.InlinedFileDeletes;
import io.moraine.core.tx.StagedTransaction;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Stages a commit's compactions as DuckLake's {@code GetCompactionChanges} with {@code WriteMergeAdjacent} /
 * {@code WriteDeleteRewrites} writes them: the output takes a file id from {@code next_file_id}, with its statistics
 * and the first source's partition values. A merge deletes every row of each source (data file, statistics, delete
 * files, partition values) and schedules the source for deletion; a rewrite ends each source and its current delete
 * file at the commit's snapshot, where the output begins, and the table's statistics are recomputed when it is left
 * without deletes ({@link RewriteStats}); a merge leaves them as they were. A source that is no longer
 * a current file of the table at the attempt's base is a conflict.
 */
final class Compactions
{
    private Compactions() {}

    static void stage(CommitAttempt attempt, StagedTransaction tx, ChangesMade changes, List<TableDraft> tables, CommitAttempt.Counters counters)
    {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        for (TableDraft table : tables) {
            for (CompactedFiles compaction : table.compactions) {
                stage(attempt, tx, table, compaction, counters, now);
                changes.add(compaction.kind().change, table.tableId);
            }
            List<CompactedFiles> rewrites = table.compactions.stream().filter(compaction -> compaction.kind() == CompactedFiles.Kind.REWRITE_DELETES).toList();
            if (!rewrites.isEmpty()) {
                RewriteStats.recompute(attempt, tx, table, rewrites);
            }
        }
    }

    private static void stage(CommitAttempt attempt, StagedTransaction tx, TableDraft table, CompactedFiles compaction, CommitAttempt.Counters counters,
            Instant now)
    {
        long tableId = table.tableId;
        Row first = current(attempt, table, compaction.sources().getFirst().dataFileId());
        if (compaction.output() != null) {
            WrittenDataFile file = compaction.output();
            long fileId = counters.nextFileId++;
            String tablePath = attempt.tablePath(table);
            boolean relative = file.path().startsWith(tablePath);
            String path = relative ? file.path().substring(tablePath.length()) : file.path();
            long begin = compaction.kind() == CompactedFiles.Kind.MERGE_ADJACENT ? compaction.beginSnapshot() : attempt.snapshotId;
            tx.insert(Row.of(TableKind.DATA_FILE, fileId, tableId, begin, null, null, path, relative, "parquet", file.recordCount(),
                    file.fileSizeBytes(), file.footerSize(), compaction.rowIdStart(), first.get("partition_id"), null, null, compaction.partialMax()));
            for (FileColumnStatistics column : file.columnStatistics()) {
                tx.insert(Row.of(TableKind.FILE_COLUMN_STATS, fileId, tableId, column.columnId(), column.columnSizeBytes(), column.valueCount(),
                        column.nullCount(), column.minValue(), column.maxValue(), column.containsNan(), column.extraStats()));
            }
            try (var values = attempt.base.everyVersion(TableKind.FILE_PARTITION_VALUE, tableId, first.getLong("data_file_id"))) {
                while (values.hasNext()) {
                    Row value = values.next();
                    tx.insert(Row.of(TableKind.FILE_PARTITION_VALUE, fileId, tableId, value.getLong("partition_key_index"), value.get("partition_value")));
                }
            }
        }
        Map<Long, Long> currentDeleteFiles = new HashMap<>();
        try (var rows = attempt.base.deleteFiles(tableId)) {
            while (rows.hasNext()) {
                Row delete = rows.next();
                currentDeleteFiles.put(delete.getLong("data_file_id"), delete.getLong("delete_file_id"));
            }
        }
        Map<Long, long[]> inlinedDeletes = InlinedFileDeletes.positionsAt(attempt.base.reader(), tableId, attempt.base.id());
        for (CompactedFiles.Source source : compaction.sources()) {
            Row row = current(attempt, table, source.dataFileId());
            // Stricter than DuckLake 1.5.5, which lets a compaction land over an inlined file delete (losing it).
            if (!Objects.equals(currentDeleteFiles.get(source.dataFileId()), source.deleteFileId())
                    || inlinedDeletes.getOrDefault(source.dataFileId(), new long[0]).length != source.inlinedDeletions()) {
                throw new CommitConflictException("Transaction conflict: rows of data file " + source.dataFileId() + " of " + table.qualifiedName()
                        + " were deleted by another commit since this compaction read it; nothing was committed. Run the compaction again");
            }
            if (compaction.kind() == CompactedFiles.Kind.MERGE_ADJACENT) {
                tx.delete(TableKind.DATA_FILE, row.keyCells().toArray());
                for (TableKind kind : List.of(TableKind.FILE_COLUMN_STATS, TableKind.FILE_VARIANT_STATS, TableKind.FILE_PARTITION_VALUE)) {
                    try (var rows = attempt.base.everyVersion(kind, tableId, source.dataFileId())) {
                        while (rows.hasNext()) {
                            tx.delete(kind, rows.next().keyCells().toArray());
                        }
                    }
                }
                try (var rows = attempt.base.everyVersion(TableKind.DELETE_FILE, tableId)) {
                    while (rows.hasNext()) {
                        Row delete = rows.next();
                        if (delete.getLong("data_file_id") == source.dataFileId()) {
                            tx.delete(TableKind.DELETE_FILE, delete.keyCells().toArray());
                        }
                    }
                }
                tx.insert(Row.of(TableKind.FILES_SCHEDULED_FOR_DELETION, source.dataFileId(), source.scheduledPath(), source.scheduledRelative(), now));
            }
            else {
                tx.endRow(TableKind.DATA_FILE, attempt.snapshotId, tableId, source.dataFileId());
                if (source.deleteFileId() != null) {
                    tx.endRow(TableKind.DELETE_FILE, attempt.snapshotId, tableId, source.deleteFileId());
                }
            }
        }
    }

    private static Row current(CommitAttempt attempt, TableDraft table, long dataFileId)
    {
        return attempt.base.dataFile(table.tableId, dataFileId).filter(row -> row.get("end_snapshot") == null)
                .orElseThrow(() -> new CommitConflictException("Transaction conflict: data file " + dataFileId + " of " + table.qualifiedName()
                        + " was compacted or removed by another commit since this compaction read it; nothing was committed. Run the compaction again"));
    }
}
