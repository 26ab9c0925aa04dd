package io.moraine.core.catalog;

import io.moraine.core.keyspace.FileChangeKeys;
import io.moraine.core.keyspace.SnapshotTimeKeys;
import io.moraine.core.keyspace.Subspace;
import io.moraine.core.keyspace.SystemKeys;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.store.RowStamps;
import io.moraine.core.store.SlateStore;

import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Brings a store written in an older format up to {@link MoraineCatalog#FORMAT_VERSION} when it is opened read-write,
 * as one durable batch: the upgrade either completes or leaves the store as it was. Readers of an older store serve
 * it as it is (see {@link SnapshotTimeLookup}, and the change feed's planning without the file-change index).
 */
final class FormatUpgrade
{
    /** The first format version whose stores hold the snapshot-time index. */
    static final int SNAPSHOT_TIME_INDEX = 2;
    /** The first format version whose stores hold the file-change index. */
    static final int FILE_CHANGE_INDEX = 3;
    /** The first format version whose stores hold row stamps. */
    static final int ROW_STAMPS = 4;

    private FormatUpgrade() {}

    static void toCurrent(SlateStore store, int formatVersion)
    {
        Map<ByteBuffer, byte[]> writes = new LinkedHashMap<>();
        if (formatVersion < SNAPSHOT_TIME_INDEX) {
            indexSnapshotTimes(store, writes);
        }
        if (formatVersion < FILE_CHANGE_INDEX) {
            indexFileChanges(store, writes);
        }
        if (formatVersion < ROW_STAMPS) {
            RowStamps.stamp(writes, java.util.EnumSet.allOf(TableKind.class));
        }
        writes.put(ByteBuffer.wrap(SystemKeys.FORMAT), SystemKeys.encodeFormat(MoraineCatalog.FORMAT_VERSION, NewCatalog.CREATED_BY));
        store.write(writes);
    }

    /**
     * An entry set for every data and delete file row, current and history, as commits would have written them; a
     * delete file that may record snapshots without a partial_max (on a flush output) spans to the store's head, the
     * latest commit that can have written it.
     */
    private static void indexFileChanges(SlateStore store, Map<ByteBuffer, byte[]> writes)
    {
        var reader = store.latestIncludingPending();
        byte[] headValue = reader.get(SystemKeys.HEAD);
        long head = headValue == null ? Long.MIN_VALUE : SystemKeys.decodeHead(headValue);
        Set<List<Long>> partialDataFiles = new HashSet<>();
        try (RowCursor files = everyRow(store, TableKind.DATA_FILE)) {
            while (files.hasNext()) {
                Row file = files.next();
                if (file.getLong("partial_max") != null) {
                    partialDataFiles.add(java.util.Arrays.asList(file.getLong("table_id"), file.getLong("data_file_id")));
                }
                if (file.getLong("begin_snapshot") != null) {
                    FileChangeKeys.entries(file, FileChangeKeys.contentEnd(file, head, false)).forEach(writes::put);
                }
            }
        }
        try (RowCursor files = everyRow(store, TableKind.DELETE_FILE)) {
            while (files.hasNext()) {
                Row file = files.next();
                if (file.getLong("begin_snapshot") != null) {
                    boolean onPartial = partialDataFiles.contains(java.util.Arrays.asList(file.getLong("table_id"), file.getLong("data_file_id")));
                    FileChangeKeys.entries(file, FileChangeKeys.contentEnd(file, head, onPartial)).forEach(writes::put);
                }
            }
        }
    }

    private static RowCursor everyRow(SlateStore store, TableKind kind)
    {
        return new RowCursor(store.latestIncludingPending(), kind, List.of(Subspace.CURRENT, Subspace.HISTORY), new Object[0], RowCursor.DEFAULT_PAGE_SIZE,
                row -> true, List.of());
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
