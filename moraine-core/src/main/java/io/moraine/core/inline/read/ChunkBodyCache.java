package io.moraine.core.inline.read;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A bounded, least-recently-used cache of inline chunk bodies. Chunks are immutable (a chunk is only ever written
 * once and deleted, never rewritten under its key), so a cached body never goes stale: a drained chunk simply stops
 * being asked for. Share one cache per store across scans; thread-safe.
 */
public final class ChunkBodyCache
{
    private final long capacityBytes;
    private final LinkedHashMap<ByteBuffer, byte[]> entries = new LinkedHashMap<>(256, 0.75f, true);
    private long sizeBytes;
    private long hits;
    private long misses;

    public ChunkBodyCache(long capacityBytes)
    {
        this.capacityBytes = capacityBytes;
    }

    synchronized byte[] get(byte[] key)
    {
        byte[] body = entries.get(ByteBuffer.wrap(key));
        if (body == null) {
            misses++;
        }
        else {
            hits++;
        }
        return body;
    }

    synchronized void put(byte[] key, byte[] body)
    {
        if (body.length > capacityBytes) {
            return;
        }
        byte[] previous = entries.put(ByteBuffer.wrap(key.clone()), body);
        sizeBytes += body.length - (previous == null ? 0 : previous.length);
        var iterator = entries.entrySet().iterator();
        while (sizeBytes > capacityBytes && iterator.hasNext()) {
            Map.Entry<ByteBuffer, byte[]> eldest = iterator.next();
            sizeBytes -= eldest.getValue().length;
            iterator.remove();
        }
    }

    public synchronized long hits()
    {
        return hits;
    }

    public synchronized long misses()
    {
        return misses;
    }

    public synchronized long sizeBytes()
    {
        return sizeBytes;
    }
}
