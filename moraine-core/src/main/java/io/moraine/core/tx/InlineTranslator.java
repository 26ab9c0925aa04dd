package io.moraine.core.tx;

import io.moraine.core.error.NotFoundException;
import io.moraine.core.inline.ChunkId;
import io.moraine.core.inline.InlineArrow;
import io.moraine.core.keyspace.InlineKeys;
import io.moraine.core.keyspace.KeyWriter;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.OptionalLong;

/**
 * Translates {@link InlineOperation}s into inline-subspace records within one commit (RFC 0005, "Extension surface").
 * Reads go through the commit's merged view, so operations see what earlier operations of the same commit wrote.
 */
final class InlineTranslator
{
    private static final byte[] EMPTY = new byte[0];

    private final CommitTranslator commit;
    /** Per table, the widest chunk (in rows) known: a chunk holding row r ends at or before r + width - 1. */
    private final Map<Long, Long> widestChunk = new HashMap<>();

    InlineTranslator(CommitTranslator commit)
    {
        this.commit = commit;
    }

    void apply(InlineOperation operation)
    {
        switch (operation) {
            case InlineOperation.RegisterSchema register -> register(register);
            case InlineOperation.InsertChunk chunk -> insert(chunk);
            case InlineOperation.EndRows end -> endRows(end);
            case InlineOperation.DeleteFileRows deletes -> deleteFileRows(deletes);
            case InlineOperation.RemoveFileRowDeletes removals -> removeFileRowDeletes(removals);
            case InlineOperation.Drain drain -> drain(drain);
            case InlineOperation.Deregister deregister -> deregister(deregister);
            case InlineOperation.DropFileDeleteTable drop -> dropFileDeleteTable(drop.tableId());
            case InlineOperation.DropTable drop -> dropTable(drop.tableId());
            case InlineOperation.ExpireVersions expire -> expire(expire);
        }
    }

    private void register(InlineOperation.RegisterSchema register)
    {
        commit.put(InlineKeys.schema(register.tableId(), register.schemaVersion()), InlineArrow.encodeSchema(register.schema()));
        commit.put(InlineKeys.schemaDropped(register.tableId(), register.schemaVersion()), null);
    }

    private void insert(InlineOperation.InsertChunk chunk)
    {
        if (chunk.rowCount() == 0) {
            return;
        }
        byte[] schemaKey = InlineKeys.schema(chunk.tableId(), chunk.schemaVersion());
        if (commit.read(schemaKey) == null) {
            throw new NotFoundException("cannot inline rows into ducklake_inlined_data_" + chunk.tableId() + "_" + chunk.schemaVersion()
                    + ": no inline schema record (key " + HexFormat.of().formatHex(schemaKey) + "); create (register) the "
                    + "inlined table before inserting into it");
        }
        byte[] versionPrefix = new KeyWriter().tag(io.moraine.core.keyspace.Subspace.INLINE.tag()).tag(InlineKeys.INSERT)
                .int64(chunk.tableId()).int64(chunk.schemaVersion()).int64(chunk.beginSnapshot()).toBytes();
        // One past the highest sequence taken (not the count: an expiry may have removed a lower one; nor reusing one
        // this commit freed). Chunks of a snapshot beyond the head the commit found can only be in this commit's own
        // writes: the store is not read for them.
        commit.writesForSnapshot(chunk.beginSnapshot());
        long sequence = commit.takenKeys(versionPrefix, KeyWriter.prefixEnd(versionPrefix), !commit.isNewerThanStoreHead(chunk.beginSnapshot())).stream()
                .mapToLong(key -> InlineKeys.component(key, 3) + 1)
                .max()
                .orElse(0);
        ChunkId id = new ChunkId(chunk.tableId(), chunk.schemaVersion(), chunk.beginSnapshot(), sequence);
        long rowIdEnd = chunk.rowIdStart() + chunk.rowCount() - 1;
        commit.put(InlineKeys.insert(id), chunk.body());
        commit.put(InlineKeys.locator(id, rowIdEnd), InlineKeys.longValue(chunk.rowIdStart()));
        // Only widen a width already measured: one not yet measured is measured from every locator, this one included.
        // (Seeding it with this chunk's width would hide the wider chunks already in the store.)
        widestChunk.computeIfPresent(chunk.tableId(), (table, widest) -> Math.max(widest, chunk.rowCount()));
    }

    private void endRows(InlineOperation.EndRows end)
    {
        for (long rowId : end.rowIds()) {
            byte[] key = InlineKeys.rowTombstone(end.tableId(), rowId, end.endSnapshot());
            if (coveringChunks(end.tableId(), rowId).isEmpty()) {
                throw new NotFoundException("cannot end inlined row " + rowId + " of table " + end.tableId() + " at snapshot "
                        + end.endSnapshot() + " (tombstone key " + HexFormat.of().formatHex(key) + "): no inlined chunk holds "
                        + "that row id. Nothing was written.");
            }
            commit.put(key, InlineKeys.longValue(end.endSnapshot()));
        }
    }

    /**
     * Every chunk (live in this commit's view) whose row range holds {@code rowId}. Ranges may overlap (an UPDATE
     * re-inlines a row another chunk still covers), so all are collected: locators are keyed by range end, and a chunk
     * holding the row ends at or before rowId + W - 1 for the table's widest chunk W.
     */
    List<ChunkId> coveringChunks(long tableId, long rowId)
    {
        long width = widestChunk(tableId);
        byte[] start = locatorEndKey(tableId, rowId);
        byte[] end = locatorEndKey(tableId, rowId + width);
        List<ChunkId> chunks = new ArrayList<>();
        for (Map.Entry<byte[], byte[]> locator : commit.scanMerged(start, end).entrySet()) {
            if (InlineKeys.longOf(locator.getValue()) <= rowId) {
                chunks.add(InlineKeys.chunkOfLocator(locator.getKey()));
            }
        }
        return chunks;
    }

    private long widestChunk(long tableId)
    {
        return widestChunk.computeIfAbsent(tableId, id -> {
            long widest = 1;
            for (Map.Entry<byte[], byte[]> locator : locators(id).entrySet()) {
                long rowEnd = InlineKeys.component(locator.getKey(), 1);
                widest = Math.max(widest, rowEnd - InlineKeys.longOf(locator.getValue()) + 1);
            }
            return widest;
        });
    }

    private static byte[] locatorEndKey(long tableId, long rowIdEnd)
    {
        return new KeyWriter().tag(io.moraine.core.keyspace.Subspace.INLINE.tag()).tag(InlineKeys.CHUNK_LOCATOR)
                .int64(tableId).int64(rowIdEnd).toBytes();
    }

    private NavigableMap<byte[], byte[]> locators(long tableId)
    {
        byte[] prefix = InlineKeys.prefix(InlineKeys.CHUNK_LOCATOR, tableId);
        return commit.scanMerged(prefix, KeyWriter.prefixEnd(prefix));
    }

    private void deleteFileRows(InlineOperation.DeleteFileRows deletes)
    {
        for (long position : deletes.positions()) {
            commit.put(InlineKeys.fileDelete(deletes.tableId(), deletes.dataFileId(), position), InlineKeys.longValue(deletes.beginSnapshot()));
        }
        commit.put(InlineKeys.fileDeleteTable(deletes.tableId()), EMPTY);
    }

    private void removeFileRowDeletes(InlineOperation.RemoveFileRowDeletes removals)
    {
        for (long position : removals.positions()) {
            byte[] key = InlineKeys.fileDelete(removals.tableId(), removals.dataFileId(), position);
            if (commit.read(key) == null) {
                throw new NotFoundException("ducklake_inlined_delete_" + removals.tableId() + " has no row (file_id "
                        + removals.dataFileId() + ", row_id " + position + ") to delete (key " + HexFormat.of().formatHex(key)
                        + "). Nothing was written.");
            }
            commit.put(key, null);
        }
        commit.put(InlineKeys.fileDeleteTable(removals.tableId()), EMPTY);
    }

    /** A hard-deleted (pruned) data file takes every inlined deletion against it along. */
    void dropFileDeletes(long tableId, long dataFileId)
    {
        byte[] prefix = new KeyWriter().tag(io.moraine.core.keyspace.Subspace.INLINE.tag()).tag(InlineKeys.FILE_DELETE)
                .int64(tableId).int64(dataFileId).toBytes();
        commit.scanMerged(prefix, KeyWriter.prefixEnd(prefix)).keySet().forEach(key -> commit.put(key, null));
    }

    private void drain(InlineOperation.Drain drain)
    {
        byte[] prefix = new KeyWriter().tag(io.moraine.core.keyspace.Subspace.INLINE.tag()).tag(InlineKeys.INSERT)
                .int64(drain.tableId()).int64(drain.schemaVersion()).toBytes();
        io.moraine.core.inline.RowIdMultiset drained = new io.moraine.core.inline.RowIdMultiset();
        for (Map.Entry<byte[], byte[]> chunk : commit.scanMerged(prefix, KeyWriter.prefixEnd(prefix)).entrySet()) {
            ChunkId id = InlineKeys.chunkOfInsert(chunk.getKey());
            if (id.beginSnapshot() > drain.flushSnapshot()) {
                continue;
            }
            long start = InlineArrow.rowIdStart(chunk.getKey(), chunk.getValue());
            long end = start + InlineArrow.rowCount(chunk.getKey(), chunk.getValue()) - 1;
            drained.addRange(start, end);
            commit.put(chunk.getKey(), null);
            commit.put(InlineKeys.locator(id, end), null);
        }
        if (drain.flushedRowIds().isPresent() && !drain.flushedRowIds().get().sameAs(drained)) {
            throw new io.moraine.core.error.CorruptionException("the flush of table " + drain.tableId() + " schema version " + drain.schemaVersion()
                    + " through snapshot " + drain.flushSnapshot() + " wrote " + drain.flushedRowIds().get() + " but its inlined chunks hold "
                    + drained + "; nothing was committed. The flushed files do not match the inlined rows: do not register them, "
                    + "and flush again from the current snapshot");
        }
        dropUnneededTombstones(drain.tableId());
    }

    /** A deletion event stays while a surviving chunk holds a version of its row that began before it. */
    private void dropUnneededTombstones(long tableId)
    {
        record Span(long start, long end, long begin) {}
        List<Span> surviving = new ArrayList<>();
        for (Map.Entry<byte[], byte[]> locator : locators(tableId).entrySet()) {
            ChunkId id = InlineKeys.chunkOfLocator(locator.getKey());
            surviving.add(new Span(InlineKeys.longOf(locator.getValue()), InlineKeys.component(locator.getKey(), 1), id.beginSnapshot()));
        }
        byte[] prefix = InlineKeys.prefix(InlineKeys.ROW_TOMBSTONE, tableId);
        for (byte[] key : commit.scanMerged(prefix, KeyWriter.prefixEnd(prefix)).keySet()) {
            long rowId = InlineKeys.component(key, 1);
            long endSnapshot = InlineKeys.component(key, 2);
            boolean needed = surviving.stream().anyMatch(span -> span.start() <= rowId && rowId <= span.end() && span.begin() < endSnapshot);
            if (!needed) {
                commit.put(key, null);
            }
        }
    }

    /**
     * Removes the named versions and rewrites each touched chunk into its surviving dense runs (same version, same
     * begin, fresh chunk sequence numbers); deletion events no surviving version needs go with them.
     */
    private void expire(InlineOperation.ExpireVersions expire)
    {
        long tableId = expire.tableId();
        java.util.Map<ChunkId, java.util.Set<Long>> removals = new java.util.LinkedHashMap<>();
        for (InlineOperation.RowVersion version : expire.versions()) {
            ChunkId owner = coveringChunks(tableId, version.rowId()).stream()
                    .filter(chunk -> chunk.schemaVersion() == expire.schemaVersion() && chunk.beginSnapshot() == version.beginSnapshot())
                    .findFirst()
                    .orElseThrow(() -> new NotFoundException("ducklake_inlined_data_" + tableId + "_" + expire.schemaVersion() + " has no row "
                            + "version (row_id " + version.rowId() + ", begin_snapshot " + version.beginSnapshot() + ") to delete. Nothing was written."));
            removals.computeIfAbsent(owner, ignored -> new java.util.HashSet<>()).add(version.rowId());
        }
        for (Map.Entry<ChunkId, java.util.Set<Long>> entry : removals.entrySet()) {
            rewriteWithout(entry.getKey(), entry.getValue());
        }
        dropUnneededTombstones(tableId);
    }

    private void rewriteWithout(ChunkId chunk, java.util.Set<Long> removedRowIds)
    {
        byte[] key = InlineKeys.insert(chunk);
        byte[] body = commit.read(key);
        long start = InlineArrow.rowIdStart(key, body);
        int count = InlineArrow.rowCount(key, body);
        commit.put(key, null);
        commit.put(InlineKeys.locator(chunk, start + count - 1), null);
        if (removedRowIds.size() == count) {
            return;
        }
        byte[] schemaKey = InlineKeys.schema(chunk.tableId(), chunk.schemaVersion());
        byte[] schemaValue = commit.read(schemaKey);
        OptionalLong reference = InlineArrow.sameAsVersion(schemaKey, schemaValue);
        if (reference.isPresent()) {
            schemaKey = InlineKeys.schema(chunk.tableId(), reference.getAsLong());
            schemaValue = commit.read(schemaKey);
        }
        var schema = InlineArrow.decodeSchema(schemaKey, schemaValue);
        try (var allocator = new org.apache.arrow.memory.RootAllocator();
                var rows = InlineArrow.decodeChunk(key, body, schema, allocator)) {
            int runStart = -1;
            for (int offset = 0; offset <= count; offset++) {
                boolean survives = offset < count && !removedRowIds.contains(start + offset);
                if (survives && runStart < 0) {
                    runStart = offset;
                }
                if (!survives && runStart >= 0) {
                    try (var run = rows.slice(runStart, offset - runStart)) {
                        insert(new InlineOperation.InsertChunk(chunk.tableId(), chunk.schemaVersion(), chunk.beginSnapshot(), start + runStart,
                                offset - runStart, InlineArrow.encodeChunk(start + runStart, run)));
                    }
                    runStart = -1;
                }
            }
        }
    }

    private void deregister(InlineOperation.Deregister deregister)
    {
        long tableId = deregister.tableId();
        commit.put(InlineKeys.schemaDropped(tableId, deregister.schemaVersion()), EMPTY);
        byte[] ownKey = InlineKeys.schema(tableId, deregister.schemaVersion());
        byte[] own = commit.read(ownKey);
        if (own == null || InlineArrow.sameAsVersion(ownKey, own).isPresent()) {
            return;
        }
        byte[] prefix = InlineKeys.prefix(InlineKeys.SCHEMA, tableId);
        NavigableMap<byte[], byte[]> schemas = commit.scanMerged(prefix, KeyWriter.prefixEnd(prefix));
        boolean referenced = schemas.entrySet().stream().anyMatch(entry -> {
            OptionalLong target = InlineArrow.sameAsVersion(entry.getKey(), entry.getValue());
            return target.isPresent() && target.getAsLong() == deregister.schemaVersion();
        });
        if (referenced) {
            return; // another version resolves through this one: keep its bytes
        }
        for (Map.Entry<byte[], byte[]> entry : schemas.entrySet()) {
            long version = InlineKeys.component(entry.getKey(), 1);
            if (version != deregister.schemaVersion() && Arrays.equals(entry.getValue(), own)) {
                // Identical bytes are stored once: collapse to a one-hop reference (RFC 0005).
                commit.put(ownKey, InlineArrow.encodeSameAsVersion(version));
                return;
            }
        }
    }

    private void dropFileDeleteTable(long tableId)
    {
        byte[] prefix = InlineKeys.prefix(InlineKeys.FILE_DELETE, tableId);
        commit.scanMerged(prefix, KeyWriter.prefixEnd(prefix)).keySet().forEach(key -> commit.put(key, null));
        commit.put(InlineKeys.fileDeleteTable(tableId), null);
    }

    /** Every inline record of {@code tableId}, whatever its kind. */
    void dropTable(long tableId)
    {
        for (byte kind = InlineKeys.SCHEMA; kind <= InlineKeys.CHUNK_LOCATOR; kind++) {
            byte[] prefix = InlineKeys.prefix(kind, tableId);
            commit.scanMerged(prefix, KeyWriter.prefixEnd(prefix)).keySet().forEach(key -> commit.put(key, null));
        }
    }
}
