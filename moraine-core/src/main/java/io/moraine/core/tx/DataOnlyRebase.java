package io.moraine.core.tx;

import io.moraine.core.catalog.Row;
import io.moraine.core.catalog.SnapshotChanges;
import io.moraine.core.catalog.TableKind;
import io.moraine.core.keyspace.RowKeys;
import io.moraine.core.keyspace.RowValueCodec;
import io.moraine.core.keyspace.Subspace;
import io.moraine.core.store.KeyValueReader;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Re-drives a data-only commit that lost the race for the head (RFC 0006, "Server-side commit"). A data-only commit
 * adds one snapshot that creates, drops and alters nothing; its head-derived values can be rebased exactly:
 * <ul>
 *   <li>its snapshot id becomes head + 1, and every begin/end_snapshot it authored follows;</li>
 *   <li>schema_version and next_catalog_id are taken from the head; next_file_id and every file id it allocated are
 *       shifted by how far the head's next_file_id moved;</li>
 *   <li>table stats are re-applied as deltas onto the head's values (which needs the row the transaction read), and
 *       row ids it allocated are shifted by how far the table's next_row_id moved.</li>
 * </ul>
 * It refuses (returns empty: a conflict) when the commit changes structure, touches kinds a data-only commit does
 * not, or when a commit since its read snapshot dropped or altered a table it writes, or deleted from a table it
 * deletes from (DuckLake's own conflict rules for concurrent deletes).
 */
final class DataOnlyRebase
{
    private static final Set<TableKind> DATA_KINDS = Set.of(TableKind.SNAPSHOT, TableKind.SNAPSHOT_CHANGES,
            TableKind.DATA_FILE, TableKind.DELETE_FILE, TableKind.FILE_COLUMN_STATS, TableKind.FILE_VARIANT_STATS,
            TableKind.FILE_PARTITION_VALUE, TableKind.FILES_SCHEDULED_FOR_DELETION, TableKind.TABLE_STATS,
            TableKind.TABLE_COLUMN_STATS);
    private static final Set<String> DELETING_CHANGES = Set.of("deleted_from_table", "merge_adjacent", "rewrite_delete",
            "inline_flush", "flushed_inlined", "inlined_delete", "compacted_table");

    private final KeyValueReader reader;
    private final Row base;
    private final Row head;
    private final long oldSnapshotId;
    private final long newSnapshotId;
    private final long fileDelta;
    private final Map<Long, long[]> tableStatsDeltas = new HashMap<>();
    private final Map<Long, Long> readNextRowIds = new HashMap<>();

    private DataOnlyRebase(KeyValueReader reader, Row base, Row head, long oldSnapshotId)
    {
        this.reader = reader;
        this.base = base;
        this.head = head;
        this.oldSnapshotId = oldSnapshotId;
        this.newSnapshotId = head.getLong("snapshot_id") + 1;
        this.fileDelta = head.getLong("next_file_id") - base.getLong("next_file_id");
    }

    static Optional<List<StagedOperation>> rebase(KeyValueReader reader, long baseId, long headId, List<StagedOperation> operations)
    {
        if (!operations.stream().allMatch(DataOnlyRebase::isDataOperation)) {
            return Optional.empty();
        }
        List<Row> snapshots = insertedRows(operations, TableKind.SNAPSHOT);
        if (snapshots.size() != 1) {
            return Optional.empty();
        }
        boolean changesStructure = insertedRows(operations, TableKind.SNAPSHOT_CHANGES).stream()
                .flatMap(row -> SnapshotChanges.parse(row.getString("changes_made")).stream())
                .anyMatch(SnapshotChanges.Change::changesStructure);
        Optional<Row> base = snapshotRow(reader, baseId);
        Optional<Row> head = snapshotRow(reader, headId);
        if (changesStructure || base.isEmpty() || head.isEmpty()) {
            return Optional.empty();
        }
        DataOnlyRebase rebase = new DataOnlyRebase(reader, base.get(), head.get(), snapshots.getFirst().getLong("snapshot_id"));
        if (rebase.conflictsWithCommitsSince(baseId, headId, operations)) {
            return Optional.empty();
        }
        return rebase.rewrite(operations);
    }

    private static boolean isDataOperation(StagedOperation operation)
    {
        return switch (operation) {
            case StagedOperation.RowOperation row -> DATA_KINDS.contains(row.kind());
            case InlineOperation.InsertChunk ignored -> true;
            case InlineOperation.EndRows ignored -> true;
            case InlineOperation.DeleteFileRows ignored -> true;
            case InlineOperation ignored -> false;
        };
    }

    private boolean conflictsWithCommitsSince(long baseId, long headId, List<StagedOperation> operations)
    {
        Set<Long> written = new HashSet<>();
        Set<Long> deletedFrom = new HashSet<>();
        Set<Long> statsTables = new HashSet<>();
        for (StagedOperation operation : operations) {
            Long tableId = tableIdOf(operation);
            if (tableId == null) {
                continue;
            }
            written.add(tableId);
            if (operation instanceof StagedOperation.EndRow || operation instanceof StagedOperation.Delete
                    || operation instanceof InlineOperation.EndRows || operation instanceof InlineOperation.DeleteFileRows) {
                deletedFrom.add(tableId);
            }
            if (operation instanceof StagedOperation.RowOperation row && row.kind() == TableKind.TABLE_COLUMN_STATS) {
                statsTables.add(tableId);
            }
        }
        for (long snapshotId = baseId + 1; snapshotId <= headId; snapshotId++) {
            Row changes = currentRow(reader, TableKind.SNAPSHOT_CHANGES, snapshotId).orElse(null);
            if (changes == null) {
                continue;
            }
            for (SnapshotChanges.Change change : SnapshotChanges.parse(changes.getString("changes_made"))) {
                if (change.id().isEmpty()) {
                    continue;
                }
                long id = change.id().getAsLong();
                boolean tableChanged = change.type().equals("dropped_table") || change.type().equals("altered_table");
                if ((tableChanged && written.contains(id))
                        || (DELETING_CHANGES.contains(change.type()) && deletedFrom.contains(id))
                        || statsTables.contains(id)) {
                    return true;
                }
            }
        }
        return false;
    }

    private Optional<List<StagedOperation>> rewrite(List<StagedOperation> operations)
    {
        List<StagedOperation> rebased = new ArrayList<>(operations.size());
        for (StagedOperation operation : operations) {
            if (operation instanceof StagedOperation.Update update && update.kind() == TableKind.TABLE_STATS) {
                Optional<StagedOperation> stats = rebaseTableStats(update);
                if (stats.isEmpty()) {
                    return Optional.empty();
                }
                rebased.add(stats.get());
            }
        }
        for (StagedOperation operation : operations) {
            StagedOperation next = switch (operation) {
                case StagedOperation.Insert insert -> new StagedOperation.Insert(rebaseRow(insert.row()));
                case StagedOperation.Delete delete -> new StagedOperation.Delete(delete.kind(), rebaseKey(delete.kind(), delete.key()));
                case StagedOperation.EndRow end -> new StagedOperation.EndRow(end.kind(), rebaseKey(end.kind(), end.key()), snapshot(end.endSnapshot()));
                case StagedOperation.Update update when update.kind() == TableKind.TABLE_STATS -> null;
                case StagedOperation.Update update -> new StagedOperation.Update(update.kind(), rebaseKey(update.kind(), update.key()),
                        update.changes(), update.readImage());
                case InlineOperation.InsertChunk chunk -> {
                    if (!readNextRowIds.containsKey(chunk.tableId())) {
                        yield null; // row ids of inlined rows can only be rebased alongside the table's stats
                    }
                    long rowIdStart = chunk.rowIdStart() >= readNextRowIds.get(chunk.tableId())
                            ? chunk.rowIdStart() + tableStatsDeltas.get(chunk.tableId())[1]
                            : chunk.rowIdStart();
                    yield new InlineOperation.InsertChunk(chunk.tableId(), chunk.schemaVersion(), snapshot(chunk.beginSnapshot()), rowIdStart,
                            chunk.rowCount(), io.moraine.core.inline.InlineArrow.withRowIdStart(chunk.body(), rowIdStart));
                }
                case InlineOperation.EndRows end -> new InlineOperation.EndRows(end.tableId(), end.rowIds(), snapshot(end.endSnapshot()));
                case InlineOperation.DeleteFileRows deletes -> new InlineOperation.DeleteFileRows(deletes.tableId(), file(deletes.dataFileId()),
                        deletes.positions(), snapshot(deletes.beginSnapshot()));
                case InlineOperation other -> throw new IllegalStateException("not a data operation: " + other);
            };
            if (operation instanceof InlineOperation.InsertChunk && next == null) {
                return Optional.empty();
            }
            if (next != null) {
                rebased.add(next);
            }
        }
        return Optional.of(rebased);
    }

    private Optional<StagedOperation> rebaseTableStats(StagedOperation.Update update)
    {
        if (update.readImage().isEmpty()) {
            return Optional.empty();
        }
        Row read = update.readImage().get();
        long tableId = read.getLong("table_id");
        Optional<Row> current = currentRow(reader, TableKind.TABLE_STATS, tableId);
        if (current.isEmpty()) {
            return Optional.empty();
        }
        Map<String, Object> changes = new HashMap<>(update.changes());
        long[] deltas = new long[3];
        String[] counters = {"record_count", "next_row_id", "file_size_bytes"};
        for (int i = 0; i < counters.length; i++) {
            Long headValue = current.get().getLong(counters[i]);
            Long readValue = read.getLong(counters[i]);
            deltas[i] = headValue == null || readValue == null ? 0 : headValue - readValue;
            if (changes.get(counters[i]) instanceof Long authored) {
                changes.put(counters[i], authored + deltas[i]);
            }
        }
        tableStatsDeltas.put(tableId, deltas);
        readNextRowIds.put(tableId, read.getLong("next_row_id"));
        return Optional.of(new StagedOperation.Update(TableKind.TABLE_STATS, update.key(), changes, Optional.of(current.get())));
    }

    private Row rebaseRow(Row row)
    {
        Map<String, Object> changes = new HashMap<>();
        for (String column : List.of("begin_snapshot", "end_snapshot", "snapshot_id")) {
            if (row.kind().hasColumn(column) && row.get(column) instanceof Long value) {
                changes.put(column, snapshot(value));
            }
        }
        for (String column : List.of("data_file_id", "delete_file_id", "mapping_id")) {
            if (row.kind().hasColumn(column) && row.get(column) instanceof Long value) {
                changes.put(column, file(value));
            }
        }
        if (row.kind() == TableKind.SNAPSHOT) {
            changes.put("schema_version", head.get("schema_version"));
            changes.put("next_catalog_id", head.get("next_catalog_id"));
            changes.put("next_file_id", file(row.getLong("next_file_id")));
        }
        if (row.kind() == TableKind.DATA_FILE && row.get("row_id_start") instanceof Long rowIdStart) {
            Long readNext = readNextRowIds.get(row.getLong("table_id"));
            if (readNext != null && rowIdStart >= readNext) {
                changes.put("row_id_start", rowIdStart + tableStatsDeltas.get(row.getLong("table_id"))[1]);
            }
        }
        return row.with(changes);
    }

    private List<Object> rebaseKey(TableKind kind, List<Object> key)
    {
        int[] keyColumns = kind.keyColumnIndexes();
        List<Object> rebased = new ArrayList<>(key);
        for (int i = 0; i < keyColumns.length; i++) {
            String column = kind.columns().get(keyColumns[i]).name();
            if (key.get(i) instanceof Long value) {
                if (column.equals("data_file_id") || column.equals("delete_file_id")) {
                    rebased.set(i, file(value));
                }
                else if (column.equals("begin_snapshot")) {
                    rebased.set(i, snapshot(value));
                }
            }
        }
        return rebased;
    }

    private long snapshot(long value)
    {
        return value == oldSnapshotId ? newSnapshotId : value;
    }

    private long file(long value)
    {
        return value >= base.getLong("next_file_id") ? value + fileDelta : value;
    }

    private static Long tableIdOf(StagedOperation operation)
    {
        if (operation instanceof InlineOperation inline) {
            return inline.tableId();
        }
        TableKind kind = ((StagedOperation.RowOperation) operation).kind();
        if (!kind.hasColumn("table_id")) {
            return null;
        }
        return switch ((StagedOperation.RowOperation) operation) {
            case StagedOperation.Insert insert -> insert.row().getLong("table_id");
            case StagedOperation.Delete delete -> keyCell(kind, delete.key(), "table_id");
            case StagedOperation.EndRow end -> keyCell(kind, end.key(), "table_id");
            case StagedOperation.Update update -> keyCell(kind, update.key(), "table_id");
        };
    }

    private static Long keyCell(TableKind kind, List<Object> key, String column)
    {
        int[] keyColumns = kind.keyColumnIndexes();
        for (int i = 0; i < keyColumns.length; i++) {
            if (kind.columns().get(keyColumns[i]).name().equals(column)) {
                return (Long) key.get(i);
            }
        }
        return null;
    }

    private static List<Row> insertedRows(List<StagedOperation> operations, TableKind kind)
    {
        return operations.stream()
                .filter(operation -> operation instanceof StagedOperation.Insert insert && insert.row().kind() == kind)
                .map(operation -> ((StagedOperation.Insert) operation).row())
                .toList();
    }

    private static Optional<Row> snapshotRow(KeyValueReader reader, long snapshotId)
    {
        return currentRow(reader, TableKind.SNAPSHOT, snapshotId);
    }

    private static Optional<Row> currentRow(KeyValueReader reader, TableKind kind, Object... key)
    {
        byte[] rowKey = RowKeys.key(Subspace.CURRENT, kind, key);
        byte[] value = reader.get(rowKey);
        return value == null ? Optional.empty() : Optional.of(RowValueCodec.decode(kind, rowKey, value));
    }
}
