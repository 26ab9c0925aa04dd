package io.moraine.core.store;

import io.moraine.core.keyspace.KeyBytes;
import io.moraine.core.keyspace.Subspace;

import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * The writer's system records (the few small keys of the system subspace: the head, the row stamps, the store facts)
 * as of its newest applied batch. Every batch goes through the one writer, so it can keep them in memory and let a
 * snapshot view answer their point reads without asking SlateDB: a DuckLake commit reads the head and several row
 * stamps through its view. Callers hold the store's apply gate, so that the records match the batches applied.
 */
final class AppliedSystemRecords
{
    // A store's system subspace holds a few dozen keys; past this many something else is there, and nothing is kept.
    private static final int MAX_RECORDS = 1_000;

    // Replaced, never changed, by each batch (a view keeps the map it was given); null while not kept.
    private Map<ByteBuffer, byte[]> records;

    static boolean isSystemKey(ByteBuffer key)
    {
        return key.remaining() > 0 && key.get(key.position()) == Subspace.SYSTEM.tag();
    }

    /** The records as of the newest applied batch; null if they are not kept. */
    Map<ByteBuffer, byte[]> current()
    {
        return records;
    }

    /** Reads the records from {@code newest}, the writer's state with every batch applied so far, and keeps them from now on. */
    void load(KeyValueReader newest)
    {
        Map<ByteBuffer, byte[]> loaded = new HashMap<>();
        try (KeyValueCursor cursor = newest.scan(Subspace.SYSTEM.start(), Subspace.SYSTEM.end(), MAX_RECORDS + 1)) {
            while (cursor.hasNext() && loaded.size() <= MAX_RECORDS) {
                KeyValue entry = cursor.next();
                loaded.put(ByteBuffer.wrap(entry.key()), entry.value());
            }
        }
        records = loaded.size() > MAX_RECORDS ? null : Map.copyOf(loaded);
    }

    /** A batch was applied: its writes to system keys (a null value deletes) replace the kept records. */
    void applied(Map<ByteBuffer, byte[]> writes)
    {
        if (records == null) {
            return;
        }
        Map<ByteBuffer, byte[]> next = null;
        for (Map.Entry<ByteBuffer, byte[]> write : writes.entrySet()) {
            if (!isSystemKey(write.getKey())) {
                continue;
            }
            if (next == null) {
                next = new HashMap<>(records);
            }
            ByteBuffer copy = ByteBuffer.wrap(KeyBytes.toArray(write.getKey()));
            if (write.getValue() == null) {
                next.remove(copy);
            }
            else {
                next.put(copy, write.getValue().clone());
            }
        }
        if (next != null) {
            records = Collections.unmodifiableMap(next);
        }
    }

    /** A batch failed with its outcome unknown (SlateDB may apply it still): from now on the records are read from SlateDB. */
    void forget()
    {
        records = null;
    }
}
