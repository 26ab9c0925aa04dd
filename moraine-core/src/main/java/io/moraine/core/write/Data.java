package io.moraine.core.write;

import io.moraine.core.catalog.NameMapEntry;
import io.moraine.core.write.files.DataFileTarget;
import io.moraine.core.write.files.WrittenDataFile;
import io.moraine.core.write.files.FileColumnStatistics;

import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.tx.StagedTransaction;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The data rows of a commit, as DuckLake's {@code GetNewDataFiles} writes them: per table, new data files take file
 * ids from {@code next_file_id} and row ids from the table's {@code next_row_id} (files first, then inlined rows);
 * {@code ducklake_table_stats} counts every row written (deletes never subtract) and the table's column statistics
 * merge each file's; inlined rows go into the table's newest inlined-data table, and a table that got only inlined
 * rows still takes a file id, so that DuckDB's stats cache sees the change.
 */
final class Data
{
    /** DuckLake's default {@code data_inlining_row_limit}. */
    static final long DEFAULT_INLINING_ROW_LIMIT = 10;

    private final CommitAttempt attempt;

    Data(CommitAttempt attempt)
    {
        this.attempt = attempt;
    }

    /** The table's resolved {@code data_inlining_row_limit}: the table's option, else its schema's, else the lake's, else 10. */
    long inliningLimit(TableDraft table)
    {
        long tableId = table.created ? -1 : table.tableId;
        long schemaId = table.schemaId;
        return attempt.base.option("data_inlining_row_limit", schemaId, tableId).map(value -> {
            try {
                return Long.parseLong(value.strip());
            }
            catch (NumberFormatException e) {
                throw new InvalidArgumentException("option data_inlining_row_limit is '" + value + "', not a number of rows; set it to a whole number "
                        + "(0 turns inlining off)");
            }
        }).orElse(DEFAULT_INLINING_ROW_LIMIT);
    }

    /**
     * Stages the data of {@code tables}; returns the commit's schema version, one higher than {@code schemaVersion} when
     * a table's inlined rows needed an inlined-data table it did not have.
     */
    long stage(StagedTransaction tx, ChangesMade changes, List<TableDraft> tables, CommitAttempt.Counters counters, long schemaVersion, TableRows rows)
    {
        long finalSchemaVersion = schemaVersion;
        Map<Long, TableDraft> byId = new TreeMap<>();
        tables.stream().filter(TableDraft::hasData).forEach(table -> byId.put(table.tableId, table));
        // DuckLake allocates the commit's new name mappings before any data file.
        NameMappings mappings = new NameMappings(attempt);
        Map<WrittenDataFile, Long> mappingIds = new java.util.IdentityHashMap<>();
        for (TableDraft table : byId.values()) {
            for (WrittenDataFile file : table.dataFiles) {
                List<NameMapEntry> entries = table.nameMaps.get(file);
                if (entries != null) {
                    mappingIds.put(file, mappings.mappingId(tx, table.tableId, entries, counters));
                }
            }
        }
        for (TableDraft table : byId.values()) {
            TableStatsUpdate stats = TableStatsUpdate.read(attempt, table);
            String tablePath = attempt.tablePath(table);
            for (WrittenDataFile file : table.dataFiles) {
                long fileId = counters.nextFileId++;
                long rowIdStart = stats.nextRowId;
                Long partitionId = currentPartitionId(table).orElse(null);
                if ((partitionId == null) != file.partitionValues().isEmpty()) {
                    throw new InvalidArgumentException("data file " + file.path() + " of " + table.qualifiedName() + " has "
                            + file.partitionValues().size() + " partition values, but the table is " + (partitionId == null ? "not partitioned" : "partitioned")
                            + "; write the file as the table's DataFileTarget says");
                }
                boolean relative = file.path().startsWith(tablePath);
                String path = relative ? file.path().substring(tablePath.length()) : file.path();
                tx.insert(Row.of(TableKind.DATA_FILE, fileId, table.tableId, attempt.snapshotId, null, null, path, relative, "parquet",
                        file.recordCount(), file.fileSizeBytes(), file.footerSize(), rowIdStart, partitionId, null, mappingIds.get(file), null));
                for (FileColumnStatistics column : file.columnStatistics()) {
                    tx.insert(Row.of(TableKind.FILE_COLUMN_STATS, fileId, table.tableId, column.columnId(), column.columnSizeBytes(), column.valueCount(),
                            column.nullCount(), column.minValue(), column.maxValue(), column.containsNan(), column.extraStats()));
                }
                List<Long> keyIndexes = table.partitionKeyIndexes.get(file);
                for (int key = 0; key < file.partitionValues().size(); key++) {
                    long keyIndex = keyIndexes == null ? key : keyIndexes.get(key);
                    tx.insert(Row.of(TableKind.FILE_PARTITION_VALUE, fileId, table.tableId, keyIndex, file.partitionValues().get(key)));
                }
                stats.addFile(file, entries(table, file) != null, table.keyTypedStatistics.getOrDefault(file, java.util.Set.of()));
            }
            if (!table.dataFiles.isEmpty()) {
                changes.add("inserted_into_table", table.tableId);
            }
            if (!table.inlined.isEmpty() || !table.inlinedWithRowIds.isEmpty()) {
                if (table.dataFiles.isEmpty()) {
                    counters.nextFileId++;
                }
                long version;
                if (table.inlinedVersion != null) {
                    version = table.inlinedVersion;
                }
                else {
                    Optional<Long> newest = attempt.base.inlinedDataTables(table.tableId).stream().map(row -> row.getLong("schema_version")).max(Long::compare);
                    if (newest.isPresent()) {
                        version = newest.get();
                    }
                    else {
                        finalSchemaVersion++;
                        version = finalSchemaVersion;
                        tx.registerInlinedTable(table.tableId, version, InlinedArrowSchema.of(table));
                    }
                    table.inlinedVersion = version;
                }
                for (InlinedBatch batch : table.inlined) {
                    long rowIdStart = stats.nextRowId;
                    tx.insertInlined(table.tableId, version, attempt.snapshotId, rowIdStart, batch.rows());
                    stats.addInlined(batch.rows().getRowCount(), InlinedStatistics.of(batch.rows(), ColumnTree.of(table.columns)));
                }
                for (InlinedRowsWithIds kept : table.inlinedWithRowIds) {
                    TableDeletes.insertKeepingRowIds(tx, table.tableId, version, attempt.snapshotId, kept);
                    long nextRowId = stats.nextRowId;
                    stats.addInlined(kept.rows().getRowCount(), InlinedStatistics.of(kept.rows(), ColumnTree.of(table.columns)));
                    stats.nextRowId = nextRowId; // kept row ids are not new: only record_count grows
                }
                changes.add("inlined_insert", table.tableId);
            }
            stats.stage(tx);
        }
        return finalSchemaVersion;
    }

    private static List<NameMapEntry> entries(TableDraft table, WrittenDataFile file)
    {
        return table.nameMaps.get(file);
    }

    private Optional<Long> currentPartitionId(TableDraft table)
    {
        if (table.newPartitioning.isPresent()) {
            return table.newPartitioning.get().isEmpty() ? Optional.empty() : Optional.of(table.partitionId);
        }
        if (table.created) {
            return Optional.empty();
        }
        return attempt.base.partitionInfo(table.tableId).map(info -> info.getLong("partition_id"))
                .filter(id -> !attempt.base.partitionColumns(table.tableId, id).isEmpty());
    }
}
