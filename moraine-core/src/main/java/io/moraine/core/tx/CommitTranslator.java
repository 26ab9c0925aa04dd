package io.moraine.core.tx;

import io.moraine.core.row.Row;
import io.moraine.core.store.StoreFacts;
import io.moraine.core.row.TableKind;
import io.moraine.core.error.ConstraintException;
import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.error.UnsupportedFeatureException;
import io.moraine.core.keyspace.KeyBytes;
import io.moraine.core.keyspace.RowKeys;
import io.moraine.core.keyspace.RowValueCodec;
import io.moraine.core.keyspace.SnapshotTimeKeys;
import io.moraine.core.keyspace.Subspace;
import io.moraine.core.keyspace.SystemKeys;
import io.moraine.core.store.KeyValueReader;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Translates staged row operations into the key/value writes of one commit, reading the rows it needs through a
 * {@link PointReader} and keeping its own writes visible to later operations of the same commit.
 */
final class CommitTranslator
{
    /** The outcome: every key to put (non-null value) or delete (null value), and the new head if a snapshot was added. */
    record Plan(Map<ByteBuffer, byte[]> writes, OptionalLong newHead)
    {
        boolean isEmpty()
        {
            return writes.isEmpty();
        }
    }

    private final KeyValueReader reader;
    private final Map<ByteBuffer, byte[]> writes = new LinkedHashMap<>();
    private final FileChangeIndexer fileChanges = new FileChangeIndexer(this);
    private StoreFacts facts;
    private final StoreFacts originalFacts;
    private long newHead = Long.MIN_VALUE;
    // The newest snapshot a snapshot_changes row or an inlined chunk of this commit is for.
    private long newestSnapshotWritten = Long.MIN_VALUE;

    /** The store's head as the commit found it (empty for a new store). */
    private final OptionalLong storeHead;

    CommitTranslator(KeyValueReader reader, StoreFacts facts, OptionalLong storeHead)
    {
        this.reader = reader;
        this.facts = facts;
        this.originalFacts = facts;
        this.storeHead = storeHead;
    }

    Plan translate(List<StagedOperation> operations)
    {
        InlineTranslator inline = new InlineTranslator(this);
        java.util.Set<Long> tablesLosingRows = new java.util.LinkedHashSet<>();
        for (StagedOperation operation : operations) {
            noteFileTouched(operation);
            switch (operation) {
                case StagedOperation.Insert insert -> insert(insert.row());
                case StagedOperation.Delete delete -> {
                    delete(delete.kind(), delete.key());
                    if (delete.kind() == TableKind.TABLE && delete.key().get(0) instanceof Long tableId) {
                        tablesLosingRows.add(tableId);
                    }
                    if (delete.kind() == TableKind.DATA_FILE) {
                        // A pruned data file takes the inlined deletions against it along (RFC 0005).
                        inline.dropFileDeletes((Long) delete.key().get(0), (Long) delete.key().get(1));
                    }
                    dropTinyFileCopy(delete.kind(), delete.key());
                }
                case StagedOperation.EndRow end -> end(end.kind(), end.key(), end.endSnapshot());
                case StagedOperation.Update update -> update(update.kind(), update.key(), update.changes());
                case InlineOperation inlineOperation -> inline.apply(inlineOperation);
            }
        }
        for (long tableId : tablesLosingRows) {
            if (!holdsTableRow(tableId)) {
                // No snapshot can see the table any more (DuckLake's expiry deletes a dropped table's rows once none
                // does): every inline record of it goes in this commit, after whatever its operations did (RFC 0005).
                inline.dropTable(tableId);
            }
        }
        requireSnapshotsExist();
        fileChanges.finish(Math.max(storeHead.orElse(Long.MIN_VALUE), newHead));
        if (!facts.equals(originalFacts)) {
            writes.put(ByteBuffer.wrap(SystemKeys.STORE_FACTS), facts.encode());
        }
        if (newHead != Long.MIN_VALUE) {
            writes.put(ByteBuffer.wrap(SystemKeys.HEAD), SystemKeys.encodeHead(newHead));
        }
        return new Plan(writes, newHead == Long.MIN_VALUE ? OptionalLong.empty() : OptionalLong.of(newHead));
    }

    /** Whether the store, as this commit leaves it, holds a ducklake_table row (current or history) of {@code tableId}. */
    private boolean holdsTableRow(long tableId)
    {
        for (Subspace subspace : List.of(Subspace.CURRENT, Subspace.HISTORY)) {
            byte[] prefix = RowKeys.prefix(subspace, TableKind.TABLE, tableId);
            if (!scanMerged(prefix, io.moraine.core.keyspace.KeyWriter.prefixEnd(prefix)).isEmpty()) {
                return true;
            }
        }
        return false;
    }

    /**
     * A pruned data or delete file takes its tiny-file copy along, in the same batch (docs/tiny-files.md); deleting an
     * absent key is free of reads, so no copy is looked up.
     */
    private void dropTinyFileCopy(TableKind kind, List<Object> key)
    {
        if ((kind == TableKind.DATA_FILE || kind == TableKind.DELETE_FILE) && key.get(0) instanceof Long tableId && key.get(1) instanceof Long fileId) {
            put(io.moraine.core.keyspace.TinyFileKeys.key(tableId, kind, fileId), null);
        }
    }

    /** Tells the file-change index which data and delete files an operation is about to change. */
    private void noteFileTouched(StagedOperation operation)
    {
        switch (operation) {
            case StagedOperation.Insert insert when FileChangeIndexer.isIndexed(insert.row().kind()) -> {
                Row row = insert.row();
                int[] keyColumns = row.kind().keyColumnIndexes();
                List<Object> cells = new java.util.ArrayList<>();
                for (int index : keyColumns) {
                    cells.add(row.get(index));
                }
                fileChanges.touching(row.kind(), cells);
            }
            case StagedOperation.Delete delete when FileChangeIndexer.isIndexed(delete.kind()) -> fileChanges.touching(delete.kind(), delete.key());
            case StagedOperation.EndRow end when FileChangeIndexer.isIndexed(end.kind()) -> fileChanges.touching(end.kind(), end.key());
            case StagedOperation.Update update when FileChangeIndexer.isIndexed(update.kind()) -> fileChanges.touching(update.kind(), update.key());
            default -> {}
        }
    }

    private void insert(Row row)
    {
        TableKind kind = row.kind();
        if (kind == TableKind.METADATA && StoreFacts.isFact(row)) {
            facts = facts.with(row.getString("key"), row.getString("value"));
            return;
        }
        Subspace target = row.isCurrent() ? Subspace.CURRENT : Subspace.HISTORY;
        row = row.withDuplicate(0); // an inserted row takes its key cells, or (where allowed) the next number after them
        boolean onlyThisCommitCanHoldIt = cannotExistInStore(row);
        for (Subspace subspace : subspacesOf(kind)) {
            byte[] existingKey = RowKeys.key(subspace, row);
            byte[] existing = onlyThisCommitCanHoldIt ? writes.get(ByteBuffer.wrap(existingKey)) : read(existingKey);
            if (existing != null && kind.allowsDuplicateKeys()) {
                row = row.withDuplicate(nextDuplicate(subspace, row));
            }
            else if (existing != null) {
                throw new ConstraintException("cannot insert " + row + ": a row with the same key "
                        + describeKey(kind, row) + " exists already in " + kind.tableName()
                        + (kind.primaryKey().isPresent() ? " (primary key " + kind.primaryKey().get() + ")" : "")
                        + ". Delete or end the existing row first, or use a new id.");
            }
        }
        checkPrimaryKeyIndex(row);
        put(RowKeys.key(target, row), RowValueCodec.encode(row));
        if (kind == TableKind.SNAPSHOT_CHANGES && row.get("snapshot_id") instanceof Long snapshotId) {
            writesForSnapshot(snapshotId);
        }
        if (kind == TableKind.SNAPSHOT) {
            newHead = Math.max(newHead, row.getLong("snapshot_id"));
            reindexSnapshotTime(Optional.empty(), Optional.of(row));
        }
    }

    /**
     * The duplicate number for one more row with {@code row}'s key cells (whose first row exists): one past the
     * highest number stored or written by this commit, so rows with the same key cells are stored, and read back, in
     * the order they were inserted (as a DuckDB-file catalog returns them).
     */
    private long nextDuplicate(Subspace subspace, Row row)
    {
        byte[] first = RowKeys.key(subspace, row.withDuplicate(0));
        byte[] last = takenKeys(first, io.moraine.core.keyspace.KeyWriter.prefixEnd(first), true).last();
        return RowKeys.duplicateNumber(last, row.withDuplicate(0)).orElseThrow(() -> new io.moraine.core.error.CorruptionException("corrupt "
                + row.kind().tableName() + " key " + hex(last) + ": neither a row's key cells nor those followed by a duplicate number")) + 1;
    }

    /** Keeps the snapshot-time index in step with a ducklake_snapshot row that is inserted, changed or deleted. */
    private void reindexSnapshotTime(Optional<Row> before, Optional<Row> after)
    {
        before.flatMap(SnapshotTimeKeys::of).ifPresent(key -> put(key, null));
        after.flatMap(SnapshotTimeKeys::of).ifPresent(key -> put(key, SnapshotTimeKeys.VALUE));
    }

    /**
     * A snapshot or snapshot_changes row for a snapshot newer than the store's head: every commit that inserts
     * snapshot rows moves the head to the newest of them, and no commit writes rows for a snapshot beyond its own head
     * ({@link #requireSnapshotsExist}), so no such row can be in the store (only in this commit's own writes), and
     * looking for one there would be a wasted read.
     */
    private boolean cannotExistInStore(Row row)
    {
        boolean keyedBySnapshot = row.kind() == TableKind.SNAPSHOT || row.kind() == TableKind.SNAPSHOT_CHANGES;
        return keyedBySnapshot && row.get("snapshot_id") instanceof Long snapshotId && isNewerThanStoreHead(snapshotId);
    }

    /** Whether {@code snapshotId} is beyond the head the commit found: nothing of that snapshot is in the store yet. */
    boolean isNewerThanStoreHead(long snapshotId)
    {
        return storeHead.isPresent() && snapshotId > storeHead.getAsLong();
    }

    /** Notes that this commit writes rows (snapshot changes, inlined chunks) of {@code snapshotId}. */
    void writesForSnapshot(long snapshotId)
    {
        newestSnapshotWritten = Math.max(newestSnapshotWritten, snapshotId);
    }

    /**
     * Refuses rows for a snapshot that neither exists nor is created by this commit. DuckLake writes a snapshot's
     * changes and inlined rows in the commit that creates it; the rule also keeps "nothing of a snapshot beyond the
     * head is stored" true, which lets commits skip looking for such rows.
     */
    private void requireSnapshotsExist()
    {
        if (newestSnapshotWritten == Long.MIN_VALUE) {
            return;
        }
        long landsAt = Math.max(storeHead.orElse(Long.MIN_VALUE), newHead);
        if (newestSnapshotWritten > landsAt) {
            throw new InvalidArgumentException("this commit writes snapshot changes or inlined rows for snapshot " + newestSnapshotWritten
                    + ", but the catalog's head is " + (storeHead.isPresent() ? storeHead.getAsLong() : "not set (no snapshot yet)") + " and the commit "
                    + (newHead == Long.MIN_VALUE ? "creates no snapshot" : "creates snapshots up to " + newHead)
                    + "; insert the ducklake_snapshot row for " + newestSnapshotWritten + " in the same commit. Nothing was written.");
        }
    }

    private void checkPrimaryKeyIndex(Row row)
    {
        Optional<String> primaryKey = indexedPrimaryKey(row.kind());
        if (primaryKey.isEmpty()) {
            return;
        }
        Long id = row.getLong(primaryKey.get());
        if (id == null) {
            throw new ConstraintException("cannot insert " + row + ": primary key " + primaryKey.get() + " is NULL");
        }
        byte[] indexKey = RowKeys.primaryKeyIndex(row.kind(), id);
        byte[] existing = read(indexKey);
        if (existing != null) {
            throw new ConstraintException("cannot insert " + row + ": " + row.kind().tableName() + " already has a row with "
                    + primaryKey.get() + " = " + id + " (in table_id " + ByteBuffer.wrap(existing).getLong()
                    + "). Allocate a new id from next_file_id.");
        }
        put(indexKey, ByteBuffer.allocate(8).putLong(row.getLong("table_id") == null ? -1 : row.getLong("table_id")).array());
    }

    private void delete(TableKind kind, List<Object> key)
    {
        checkKeyArity(kind, key);
        if (kind == TableKind.METADATA && key.get(1) == null && StoreFacts.KEYS.contains(key.get(0))) {
            throw new UnsupportedFeatureException("the global ducklake_metadata entry '" + key.get(0)
                    + "' is a fact of the store and cannot be deleted; change it with an update instead");
        }
        for (Subspace subspace : subspacesOf(kind)) {
            byte[] rowKey = RowKeys.key(subspace, kind, key.toArray());
            byte[] value = read(rowKey);
            if (value != null) {
                Row deleted = RowValueCodec.decode(kind, rowKey, value);
                removeFromPrimaryKeyIndex(deleted);
                if (kind == TableKind.SNAPSHOT) {
                    reindexSnapshotTime(Optional.of(deleted), Optional.empty());
                }
                put(rowKey, null);
            }
        }
    }

    private void removeFromPrimaryKeyIndex(Row row)
    {
        indexedPrimaryKey(row.kind()).ifPresent(column -> put(RowKeys.primaryKeyIndex(row.kind(), row.getLong(column)), null));
    }

    private void end(TableKind kind, List<Object> key, long endSnapshot)
    {
        checkKeyArity(kind, key);
        if (!kind.isVersioned()) {
            throw new InvalidArgumentException(kind.tableName() + " has no end_snapshot; only versioned tables can end a row");
        }
        byte[] currentKey = RowKeys.key(Subspace.CURRENT, kind, key.toArray());
        byte[] value = read(currentKey);
        if (value == null) {
            return;
        }
        Row ended = RowValueCodec.decode(kind, currentKey, value).with("end_snapshot", endSnapshot);
        put(currentKey, null);
        put(RowKeys.key(Subspace.HISTORY, ended), RowValueCodec.encode(ended));
    }

    private void update(TableKind kind, List<Object> key, Map<String, Object> changes)
    {
        checkKeyArity(kind, key);
        int[] keyColumns = kind.keyColumnIndexes();
        for (String column : changes.keySet()) {
            int index = kind.columnIndex(column);
            if (Arrays.stream(keyColumns).anyMatch(k -> k == index) || column.equals("end_snapshot")) {
                throw new InvalidArgumentException("cannot update " + kind.tableName() + "." + column + " in place: it is "
                        + (column.equals("end_snapshot") ? "the lifecycle column (end the row instead)" : "part of the row key (delete and re-insert the row instead)"));
            }
        }
        if (kind == TableKind.METADATA && key.get(1) == null && StoreFacts.KEYS.contains(key.get(0))) {
            Object value = changes.get("value");
            if (value != null) {
                facts = facts.with((String) key.get(0), (String) value);
            }
            return;
        }
        for (Subspace subspace : subspacesOf(kind)) {
            byte[] rowKey = RowKeys.key(subspace, kind, key.toArray());
            byte[] value = read(rowKey);
            if (value != null) {
                Row before = RowValueCodec.decode(kind, rowKey, value);
                Row after = before.with(changes);
                if (kind == TableKind.SNAPSHOT) {
                    reindexSnapshotTime(Optional.of(before), Optional.of(after));
                }
                put(rowKey, RowValueCodec.encode(after));
                return;
            }
        }
    }

    private static List<Subspace> subspacesOf(TableKind kind)
    {
        return kind.isVersioned() ? List.of(Subspace.CURRENT, Subspace.HISTORY) : List.of(Subspace.CURRENT);
    }

    private static Optional<String> indexedPrimaryKey(TableKind kind)
    {
        return kind == TableKind.DATA_FILE || kind == TableKind.DELETE_FILE ? kind.primaryKey() : Optional.empty();
    }

    private static void checkKeyArity(TableKind kind, List<Object> key)
    {
        int[] keyColumns = kind.keyColumnIndexes();
        boolean withDuplicate = kind.allowsDuplicateKeys() && key.size() == keyColumns.length + 1;
        if (key.size() != keyColumns.length && !withDuplicate) {
            throw new InvalidArgumentException(kind.tableName() + " rows are addressed by " + keyColumns.length + " key cells "
                    + Arrays.stream(keyColumns).mapToObj(i -> kind.columns().get(i).name()).toList()
                    + (kind.allowsDuplicateKeys() ? " (and a duplicate number, Row.keyCells())" : "")
                    + " but " + key.size() + " were given: " + key);
        }
        if (withDuplicate && !(key.getLast() instanceof Long number && number > 0)) {
            throw new InvalidArgumentException(kind.tableName() + " row addressed by " + key + ": the cell after the key cells is a duplicate number, "
                    + "a BIGINT above 0 (Row.keyCells())");
        }
        for (int i = 0; i < keyColumns.length; i++) {
            var column = kind.columns().get(keyColumns[i]);
            Object cell = key.get(i) instanceof Integer integer ? integer.longValue() : key.get(i);
            column.type().check(kind.tableName(), column.name(), cell);
        }
    }

    private static String describeKey(TableKind kind, Row row)
    {
        return Arrays.stream(kind.keyColumnIndexes()).mapToObj(i -> kind.columns().get(i).name() + "=" + row.get(i)).toList().toString();
    }

    /**
     * The entries with {@code start <= key < end} as this commit sees them: the store's, overlaid with this commit's
     * own puts and deletes. Used for the inline subspace, whose per-table sets are small.
     */
    java.util.NavigableMap<byte[], byte[]> scanMerged(byte[] start, byte[] end)
    {
        java.util.TreeMap<byte[], byte[]> entries = new java.util.TreeMap<>(Arrays::compareUnsigned);
        try (var cursor = reader.scan(start, end, 1024)) {
            while (cursor.hasNext()) {
                var entry = cursor.next();
                entries.put(entry.key(), entry.value());
            }
        }
        return overlayOwnWrites(entries, start, end);
    }

    /**
     * The keys in {@code [start, end)} that are taken: held by the store (if {@code readStore}) or written by this
     * commit, deleted ones included, so that a number freed within this commit is not handed out again in it.
     */
    java.util.NavigableSet<byte[]> takenKeys(byte[] start, byte[] end, boolean readStore)
    {
        java.util.TreeSet<byte[]> keys = new java.util.TreeSet<>(Arrays::compareUnsigned);
        if (readStore) {
            try (var cursor = reader.scan(start, end, 1024)) {
                cursor.forEachRemaining(entry -> keys.add(entry.key()));
            }
        }
        for (ByteBuffer written : writes.keySet()) {
            byte[] key = KeyBytes.toArray(written);
            if (Arrays.compareUnsigned(key, start) >= 0 && Arrays.compareUnsigned(key, end) < 0) {
                keys.add(key);
            }
        }
        return keys;
    }

    private java.util.NavigableMap<byte[], byte[]> overlayOwnWrites(java.util.TreeMap<byte[], byte[]> entries, byte[] start, byte[] end)
    {
        for (Map.Entry<ByteBuffer, byte[]> write : writes.entrySet()) {
            byte[] key = KeyBytes.toArray(write.getKey());
            if (Arrays.compareUnsigned(key, start) >= 0 && Arrays.compareUnsigned(key, end) < 0) {
                if (write.getValue() == null) {
                    entries.remove(key);
                }
                else {
                    entries.put(key, write.getValue());
                }
            }
        }
        return entries;
    }


    /** The store's value of {@code key}, ignoring this commit's own writes. */
    byte[] readStored(byte[] key)
    {
        return reader.get(key);
    }

    byte[] read(byte[] key)
    {
        ByteBuffer wrapped = ByteBuffer.wrap(key);
        if (writes.containsKey(wrapped)) {
            return writes.get(wrapped);
        }
        return reader.get(key);
    }

    void put(byte[] key, byte[] value)
    {
        writes.put(ByteBuffer.wrap(key), value);
    }

    static String hex(byte[] key)
    {
        return HexFormat.of().formatHex(key);
    }
}
