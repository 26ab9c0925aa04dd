package io.moraine.core.tx;

import io.moraine.core.store.KeyValueCursor;
import io.moraine.core.store.KeyValueReader;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The committer's memory of small values it read or wrote, so that the records every commit touches (the head, the
 * store facts, a table's stats, an inline schema, the snapshots a rebase compares) cost no store round trip. It is
 * coherent because the committer is the store's only writer: SlateDB fences any other, and every batch the committer
 * applies passes through {@link #applied}. Absent keys are remembered too. Scans are not cached. Least recently used
 * entries are dropped beyond {@link #MAX_ENTRIES}; values larger than {@link #MAX_VALUE_BYTES} are not kept.
 */
final class CommitterReadCache
{
    static final int MAX_ENTRIES = 16_384;
    static final int MAX_VALUE_BYTES = 4096;

    private final Map<ByteBuffer, Optional<byte[]>> values = new LinkedHashMap<>(1024, 0.75f, true)
    {
        @Override
        protected boolean removeEldestEntry(Map.Entry<ByteBuffer, Optional<byte[]>> eldest)
        {
            return size() > MAX_ENTRIES;
        }
    };

    /** {@code store} read through this cache; only for use under the commit lock. */
    KeyValueReader over(KeyValueReader store)
    {
        return new KeyValueReader()
        {
            @Override
            public byte[] get(byte[] key)
            {
                ByteBuffer wrapped = ByteBuffer.wrap(key);
                Optional<byte[]> cached = values.get(wrapped);
                if (cached != null) {
                    return cached.orElse(null);
                }
                byte[] value = store.get(key);
                remember(wrapped, value);
                return value;
            }

            @Override
            public KeyValueCursor scan(byte[] start, byte[] end, int pageSize)
            {
                return store.scan(start, end, pageSize);
            }

            @Override
            public KeyValueCursor scanDescending(byte[] start, byte[] end, int pageSize)
            {
                return store.scanDescending(start, end, pageSize);
            }
        };
    }

    /** Records a batch the store has applied (a null value is a delete). */
    void applied(Map<ByteBuffer, byte[]> writes)
    {
        writes.forEach(this::remember);
    }

    /** Forgets everything, for when the store's state is no longer known (a failed write). */
    void clear()
    {
        values.clear();
    }

    private void remember(ByteBuffer key, byte[] value)
    {
        if (value != null && value.length > MAX_VALUE_BYTES) {
            values.remove(key);
            return;
        }
        values.put(key, Optional.ofNullable(value));
    }
}
