package io.moraine.core.tx;

import io.moraine.core.row.Row;
import io.moraine.core.row.SnapshotChanges;
import io.moraine.core.row.TableKind;
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
 * It refuses (a conflict, saying why) when the commit changes structure, touches kinds a data-only commit does
 * not, or when a commit since its read snapshot dropped or altered a table it writes, or deleted from a table it
 * deletes from (DuckLake's own conflict rules for concurrent deletes).
 */
final class DataOnlyRebase
{
    private static final Set<TableKind> DATA_KINDS = Set.of(TableKind.SNAPSHOT, TableKind.SNAPSHOT_CHANGES,
            TableKind.DATA_FILE, TableKind.DELETE_FILE, TableKind.FILE_COLUMN_STATS, TableKind.FILE_VARIANT_STATS,
            TableKind.FILE_PARTITION_VALUE, TableKind.FILES_SCHEDULED_FOR_DELETION, TableKind.TABLE_STATS,
            TableKind.TABLE_COLUMN_STATS);

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

    /** The rebased operations, or why the commit cannot be rebased (a conflict). */
    record Outcome(Optional<List<StagedOperation>> operations, String refusal)
    {
        static Outcome refused(String reason)
        {
            return new Outcome(Optional.empty(), reason);
        }
    }

    static Outcome rebase(KeyValueReader reader, long baseId, long headId, List<StagedOperation> operations)
    {
        Optional<StagedOperation> structural = operations.stream().filter(operation -> !isDataOperation(operation)).findFirst();
        if (structural.isPresent()) {
            return Outcome.refused("it " + describe(structural.get()) + ", which changes more than data (only commits that add files, "
                    + "deletes, inlined rows and statistics are rebased)");
        }
        List<Row> snapshots = insertedRows(operations, TableKind.SNAPSHOT);
        if (snapshots.size() != 1) {
            return Outcome.refused("it adds " + snapshots.size() + " snapshots, not one");
        }
        List<SnapshotChanges.Change> structureChanges = insertedRows(operations, TableKind.SNAPSHOT_CHANGES).stream()
                .flatMap(row -> SnapshotChanges.parse(row.getString("changes_made")).stream())
                .filter(SnapshotChanges.Change::changesStructure)
                .toList();
        if (!structureChanges.isEmpty()) {
            return Outcome.refused("its changes " + structureChanges.stream().map(change -> change.type() + ":" + change.value()).toList()
                    + " alter the catalog's structure");
        }
        Optional<Row> base = snapshotRow(reader, baseId);
        Optional<Row> head = snapshotRow(reader, headId);
        if (base.isEmpty() || head.isEmpty()) {
            return Outcome.refused("snapshot " + (base.isEmpty() ? baseId : headId) + " has no row (expired)");
        }
        DataOnlyRebase rebase = new DataOnlyRebase(reader, base.get(), head.get(), snapshots.getFirst().getLong("snapshot_id"));
        Optional<String> conflict = rebase.conflictWithCommitsSince(baseId, headId, operations);
        if (conflict.isPresent()) {
            return Outcome.refused(conflict.get());
        }
        return rebase.rewrite(operations);
    }

    private static String describe(StagedOperation operation)
    {
        return switch (operation) {
            case StagedOperation.RowOperation row -> "writes " + row.kind().tableName() + " rows";
            case InlineOperation inline -> "stages " + inline.getClass().getSimpleName() + " on the inlined data of table " + inline.tableId();
        };
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

    /**
     * Why a commit since the read snapshot conflicts with this one, by DuckLake's rules ({@link ChangeConflicts}) applied
     * to the changes each side recorded, if one does.
     */
    private Optional<String> conflictWithCommitsSince(long baseId, long headId, List<StagedOperation> operations)
    {
        List<SnapshotChanges.Change> mine = insertedRows(operations, TableKind.SNAPSHOT_CHANGES).stream()
                .flatMap(row -> SnapshotChanges.parse(row.getString("changes_made")).stream())
                .toList();
        for (long snapshotId = baseId + 1; snapshotId <= headId; snapshotId++) {
            Row changes = currentRow(reader, TableKind.SNAPSHOT_CHANGES, snapshotId).orElse(null);
            if (changes == null) {
                continue;
            }
            List<SnapshotChanges.Change> theirs = SnapshotChanges.parse(changes.getString("changes_made"));
            Optional<String> conflict = ChangeConflicts.check(mine, snapshotId, theirs, schemaId -> Optional.empty());
            if (conflict.isPresent()) {
                return conflict;
            }
        }
        return Optional.empty();
    }

    private Outcome rewrite(List<StagedOperation> operations)
    {
        List<StagedOperation> rebased = new ArrayList<>(operations.size());
        for (StagedOperation operation : operations) {
            if (operation instanceof StagedOperation.Update update && update.kind() == TableKind.TABLE_STATS) {
                Optional<StagedOperation> stats = rebaseTableStats(update);
                if (stats.isEmpty()) {
                    return Outcome.refused("its update of table " + keyCell(TableKind.TABLE_STATS, update.key(), "table_id")
                            + "'s ducklake_table_stats has no read image, or the table has no stats row at the head, so it cannot be re-applied as deltas");
                }
                rebased.add(stats.get());
            }
            if (operation instanceof StagedOperation.Update update && update.kind() == TableKind.TABLE_COLUMN_STATS) {
                ColumnStatsMerge.Merged merged = ColumnStatsMerge.onto(reader, update);
                if (merged.refusal() != null) {
                    return Outcome.refused(merged.refusal());
                }
                rebased.add(merged.update());
            }
            if (operation instanceof StagedOperation.Insert insert && isTableStats(insert.row().kind())) {
                Row row = insert.row();
                Object[] key = row.kind() == TableKind.TABLE_STATS ? new Object[] {row.getLong("table_id")}
                        : new Object[] {row.getLong("table_id"), row.getLong("column_id")};
                if (currentRow(reader, row.kind(), key).isPresent()) {
                    return Outcome.refused("it creates table " + row.getLong("table_id") + "'s " + row.kind().tableName()
                            + " row, which a commit since its read snapshot created too");
                }
            }
        }
        for (StagedOperation operation : operations) {
            StagedOperation next = switch (operation) {
                case StagedOperation.Insert insert -> new StagedOperation.Insert(rebaseRow(insert.row()));
                case StagedOperation.Delete delete -> new StagedOperation.Delete(delete.kind(), rebaseKey(delete.kind(), delete.key()));
                case StagedOperation.EndRow end -> new StagedOperation.EndRow(end.kind(), rebaseKey(end.kind(), end.key()), snapshot(end.endSnapshot()));
                case StagedOperation.Update update when isTableStats(update.kind()) -> null;
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
            if (operation instanceof InlineOperation.InsertChunk chunk && next == null) {
                return Outcome.refused("it inlines rows into table " + chunk.tableId() + " without updating the table's stats, so their row ids cannot be rebased");
            }
            if (next != null) {
                rebased.add(next);
            }
        }
        return new Outcome(Optional.of(rebased), null);
    }

    private static boolean isTableStats(TableKind kind)
    {
        return kind == TableKind.TABLE_STATS || kind == TableKind.TABLE_COLUMN_STATS;
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

    static Optional<Row> currentRow(KeyValueReader reader, TableKind kind, Object... key)
    {
        byte[] rowKey = RowKeys.key(Subspace.CURRENT, kind, key);
        byte[] value = reader.get(rowKey);
        return value == null ? Optional.empty() : Optional.of(RowValueCodec.decode(kind, rowKey, value));
    }
}
