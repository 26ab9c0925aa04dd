package io.moraine.core.catalog;

import io.moraine.core.keyspace.SnapshotTimeKeys;
import io.moraine.core.keyspace.Subspace;
import io.moraine.core.keyspace.SystemKeys;
import io.moraine.core.store.SlateStore;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Brings a store written in an older format up to {@link MoraineCatalog#FORMAT_VERSION} when it is opened read-write,
 * as one durable batch: the upgrade either completes or leaves the store as it was. Readers of an older store serve
 * it as it is (see {@link SnapshotTimeLookup}).
 */
final class FormatUpgrade
{
    /** The first format version whose stores hold the snapshot-time index. */
    static final int SNAPSHOT_TIME_INDEX = 2;

    private FormatUpgrade() {}

    static void toCurrent(SlateStore store, int formatVersion)
    {
        Map<ByteBuffer, byte[]> writes = new LinkedHashMap<>();
        if (formatVersion < SNAPSHOT_TIME_INDEX) {
            indexSnapshotTimes(store, writes);
        }
        writes.put(ByteBuffer.wrap(SystemKeys.FORMAT), SystemKeys.encodeFormat(MoraineCatalog.FORMAT_VERSION, NewCatalog.CREATED_BY));
        store.write(writes);
    }

    private static void indexSnapshotTimes(SlateStore store, Map<ByteBuffer, byte[]> writes)
    {
        try (RowCursor snapshots = new RowCursor(store.latestIncludingPending(), TableKind.SNAPSHOT, List.of(Subspace.CURRENT), new Object[0],
                RowCursor.DEFAULT_PAGE_SIZE, row -> true, List.of())) {
            while (snapshots.hasNext()) {
                SnapshotTimeKeys.of(snapshots.next()).ifPresent(key -> writes.put(ByteBuffer.wrap(key), SnapshotTimeKeys.VALUE));
            }
        }
    }
}
