package io.moraine.core.tiny;

import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.keyspace.Subspace;
import io.moraine.core.store.KeyValue;
import io.moraine.core.store.KeyValueCursor;
import io.moraine.core.store.KeyValueReader;

/**
 * How many tiny-file copies a store holds and what they cost: their count, the files' bytes they hold, the bytes their
 * keys and values take, and the catalog's logical size (every key and value, as one full scan of the store reads them,
 * before SlateDB's compression and its compaction and write-ahead-log overheads).
 *
 * @param copyBytes the copied files' bytes
 * @param copyEntryBytes keys and values of the copies (headers included)
 * @param catalogBytes keys and values of the whole store, copies included
 */
public record TinyFileStatus(long thresholdBytes, long copies, long copyBytes, long copyEntryBytes, long catalogBytes)
{
    public static TinyFileStatus of(MoraineCatalog catalog)
    {
        KeyValueReader reader = catalog.store().latest();
        long copies = 0;
        long copyBytes = 0;
        long copyEntryBytes = 0;
        long catalogBytes = 0;
        try (KeyValueCursor cursor = reader.scan(new byte[] {0}, new byte[] {(byte) 0xFF}, 256)) {
            while (cursor.hasNext()) {
                KeyValue entry = cursor.next();
                long entryBytes = entry.key().length + (long) entry.value().length;
                catalogBytes += entryBytes;
                if (entry.key()[0] == Subspace.TINY_FILES.tag()) {
                    copies++;
                    copyEntryBytes += entryBytes;
                    copyBytes += Math.max(0, entry.value().length - io.moraine.core.keyspace.TinyFileKeys.HEADER_BYTES);
                }
            }
        }
        return new TinyFileStatus(catalog.tinyFileThresholdBytes(), copies, copyBytes, copyEntryBytes, catalogBytes);
    }

    /** The copies' share of the catalog's logical size, 0 to 1. */
    public double share()
    {
        return catalogBytes == 0 ? 0 : (double) copyEntryBytes / catalogBytes;
    }
}
