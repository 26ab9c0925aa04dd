package io.moraine.core.inline.read;

import io.moraine.core.inline.ChunkId;
import io.moraine.core.inline.InlineArrow;
import io.moraine.core.keyspace.InlineKeys;
import io.moraine.core.keyspace.KeyWriter;
import io.moraine.core.store.KeyValue;
import io.moraine.core.store.KeyValueCursor;
import io.moraine.core.store.KeyValueReader;
import io.moraine.core.store.PendingReads;
import org.apache.arrow.vector.types.pojo.Schema;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.OptionalLong;
import java.util.TreeSet;

/**
 * What a scan needs to select inlined rows without reading any chunk body: the table's schemas per version, its chunk
 * locators (row spans) and its deletion events. Loaded once per scan from one view of the store.
 */
final class InlineDirectory
{
    /** One live chunk: its identity and the inclusive row-id span it holds. */
    record Chunk(ChunkId id, long rowIdStart, long rowIdEnd)
    {
        int rowCount()
        {
            return (int) (rowIdEnd - rowIdStart + 1);
        }
    }

    private final KeyValueReader reader;
    private final long tableId;
    private ChunkBodyCache cache;
    private final Map<Long, Schema> schemas = new HashMap<>();
    private final List<Chunk> chunks = new ArrayList<>();
    private final Map<Long, NavigableSet<Long>> deletionEvents = new HashMap<>();

    private InlineDirectory(KeyValueReader reader, long tableId)
    {
        this.reader = reader;
        this.tableId = tableId;
    }

    static InlineDirectory load(KeyValueReader reader, long tableId, boolean withDeletionEvents)
    {
        InlineDirectory directory = new InlineDirectory(reader, tableId);
        directory.loadChunks();
        if (withDeletionEvents) {
            directory.loadDeletionEvents();
        }
        return directory;
    }

    private void loadChunks()
    {
        scan(InlineKeys.CHUNK_LOCATOR, entry -> {
            long rowIdEnd = InlineKeys.component(entry.key(), 1);
            chunks.add(new Chunk(InlineKeys.chunkOfLocator(entry.key()), InlineKeys.longOf(entry.value()), rowIdEnd));
        });
        chunks.sort(Comparator.comparingLong((Chunk chunk) -> chunk.id().schemaVersion())
                .thenComparingLong(Chunk::rowIdStart)
                .thenComparingLong(chunk -> chunk.id().beginSnapshot())
                .thenComparingLong(chunk -> chunk.id().chunkSeq()));
    }

    private void loadDeletionEvents()
    {
        scan(InlineKeys.ROW_TOMBSTONE, entry -> deletionEvents
                .computeIfAbsent(InlineKeys.component(entry.key(), 1), ignored -> new TreeSet<>())
                .add(InlineKeys.component(entry.key(), 2)));
    }

    private void scan(byte kind, java.util.function.Consumer<KeyValue> consumer)
    {
        byte[] prefix = InlineKeys.prefix(kind, tableId);
        try (KeyValueCursor cursor = reader.scan(prefix, KeyWriter.prefixEnd(prefix), 1024)) {
            cursor.forEachRemaining(consumer);
        }
    }

    InlineDirectory withCache(ChunkBodyCache cache)
    {
        this.cache = cache;
        return this;
    }

    List<Chunk> chunks()
    {
        return chunks;
    }

    /** Whether any row of the table has a deletion event (when none does, every version is live). */
    boolean hasDeletionEvents()
    {
        return !deletionEvents.isEmpty();
    }

    /** A version's end: the earliest deletion event of its row strictly after the version began. */
    OptionalLong endOf(long rowId, long beginSnapshot)
    {
        if (deletionEvents.isEmpty()) {
            return OptionalLong.empty();
        }
        NavigableSet<Long> events = deletionEvents.get(rowId);
        Long end = events == null ? null : events.higher(beginSnapshot);
        return end == null ? OptionalLong.empty() : OptionalLong.of(end);
    }

    /** The user columns of a schema version, following a same-as-version reference one hop. */
    Schema schema(long schemaVersion)
    {
        return schemas.computeIfAbsent(schemaVersion, version -> {
            byte[] key = InlineKeys.schema(tableId, version);
            byte[] value = reader.get(key);
            if (value == null) {
                throw new io.moraine.core.error.CorruptionException("inline chunks of table " + tableId + " schema version " + version
                        + " have no schema record (key " + java.util.HexFormat.of().formatHex(key) + "); the store is damaged. "
                        + "Restore it from a checkpoint or backup.");
            }
            OptionalLong reference = InlineArrow.sameAsVersion(key, value);
            if (reference.isPresent()) {
                byte[] targetKey = InlineKeys.schema(tableId, reference.getAsLong());
                byte[] target = reader.get(targetKey);
                if (target == null || InlineArrow.sameAsVersion(targetKey, target).isPresent()) {
                    throw new io.moraine.core.error.CorruptionException("inline schema of table " + tableId + " version " + version
                            + " refers to version " + reference.getAsLong() + ", which carries no schema bytes (key "
                            + java.util.HexFormat.of().formatHex(targetKey) + "). Restore the store from a checkpoint or backup.");
                }
                return InlineArrow.decodeSchema(targetKey, target);
            }
            return InlineArrow.decodeSchema(key, value);
        });
    }

    /** The bodies of several chunks, read concurrently. */
    Map<ChunkId, byte[]> bodies(List<Chunk> chunks)
    {
        return startBodies(chunks).await();
    }

    /** Starts reading the bodies of several chunks (those not in the cache) and returns at once. */
    PendingBodies startBodies(List<Chunk> chunks)
    {
        Map<ChunkId, byte[]> cached = new HashMap<>();
        List<Chunk> missing = new ArrayList<>();
        for (Chunk chunk : chunks) {
            byte[] body = cache == null ? null : cache.get(cacheKey(chunk));
            if (body != null) {
                cached.put(chunk.id(), body);
            }
            else {
                missing.add(chunk);
            }
        }
        List<byte[]> keys = missing.stream().map(chunk -> InlineKeys.insert(chunk.id())).toList();
        return new PendingBodies(cached, missing, keys, reader.startGetAll(keys));
    }

    /**
     * A chunk body's cache key: its store key and row range. A chunk's sequence number can be used again once its
     * chunk is gone (an expiry removed it), but a chunk of one table, schema version and begin snapshot with the same
     * row range holds the same row versions, so a cached body is never served for different rows.
     */
    private static byte[] cacheKey(Chunk chunk)
    {
        byte[] storeKey = InlineKeys.insert(chunk.id());
        return java.nio.ByteBuffer.allocate(storeKey.length + 16).put(storeKey).putLong(chunk.rowIdStart()).putLong(chunk.rowIdEnd()).array();
    }

    /** Chunk bodies being read; {@link #await()} checks each and puts it in the cache. */
    final class PendingBodies
    {
        private final Map<ChunkId, byte[]> cached;
        private final List<Chunk> missing;
        private final List<byte[]> keys;
        private final PendingReads reads;

        private PendingBodies(Map<ChunkId, byte[]> cached, List<Chunk> missing, List<byte[]> keys, PendingReads reads)
        {
            this.cached = cached;
            this.missing = missing;
            this.keys = keys;
            this.reads = reads;
        }

        Map<ChunkId, byte[]> await()
        {
            Map<ChunkId, byte[]> bodies = new HashMap<>(cached);
            List<byte[]> values = reads.await();
            for (int i = 0; i < missing.size(); i++) {
                Chunk chunk = missing.get(i);
                byte[] body = requireBody(chunk.id(), keys.get(i), values.get(i));
                bodies.put(chunk.id(), body);
                if (cache != null) {
                    cache.put(cacheKey(chunk), body);
                }
            }
            return bodies;
        }

        void cancel()
        {
            reads.cancel();
        }
    }

    byte[] body(ChunkId chunk)
    {
        byte[] key = InlineKeys.insert(chunk);
        return requireBody(chunk, key, reader.get(key));
    }

    private static byte[] requireBody(ChunkId chunk, byte[] key, byte[] value)
    {
        if (value == null) {
            throw new io.moraine.core.error.CorruptionException("inline chunk locator names chunk " + chunk + " but its body is "
                    + "missing (key " + java.util.HexFormat.of().formatHex(key) + "). Restore the store from a checkpoint or backup.");
        }
        return value;
    }
}
