package io.moraine.inline;

import io.moraine.core.inline.InlineKeys;
import io.moraine.core.keyspace.KeyWriter;
import io.moraine.core.store.KeyValueCursor;
import io.moraine.core.store.KeyValueReader;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Inlined deletes of Parquet rows ({@code ducklake_inlined_delete_<t>}) as a per-data-file overlay of deleted
 * positions at a snapshot: an entry applies to every snapshot at or after its begin_snapshot (reference §3.2).
 */
public final class InlineFileDeletes
{
    private InlineFileDeletes() {}

    /** Data file id to its deleted positions (sorted) with the snapshot that deleted each, at {@code snapshotId}. */
    public static Map<Long, java.util.TreeMap<Long, Long>> entriesAt(KeyValueReader reader, long tableId, long snapshotId)
    {
        Map<Long, java.util.TreeMap<Long, Long>> entries = new HashMap<>();
        byte[] prefix = InlineKeys.prefix(InlineKeys.FILE_DELETE, tableId);
        try (KeyValueCursor cursor = reader.scan(prefix, KeyWriter.prefixEnd(prefix), 1024)) {
            while (cursor.hasNext()) {
                var entry = cursor.next();
                long begin = InlineKeys.longOf(entry.value());
                if (begin <= snapshotId) {
                    entries.computeIfAbsent(InlineKeys.component(entry.key(), 1), ignored -> new java.util.TreeMap<>())
                            .put(InlineKeys.component(entry.key(), 2), begin);
                }
            }
        }
        return entries;
    }

    /** Data file id to its sorted, distinct deleted positions at {@code snapshotId}. */
    public static Map<Long, long[]> positionsAt(KeyValueReader reader, long tableId, long snapshotId)
    {
        return positionsUnder(reader, InlineKeys.prefix(InlineKeys.FILE_DELETE, tableId), snapshotId);
    }

    /** One data file's sorted, distinct deleted positions at {@code snapshotId}, reading only that file's entries. */
    public static long[] positionsAt(KeyValueReader reader, long tableId, long dataFileId, long snapshotId)
    {
        return positionsUnder(reader, InlineKeys.fileDeletes(tableId, dataFileId), snapshotId).getOrDefault(dataFileId, new long[0]);
    }

    private static Map<Long, long[]> positionsUnder(KeyValueReader reader, byte[] prefix, long snapshotId)
    {
        Map<Long, long[]> positions = new HashMap<>();
        Map<Long, Integer> counts = new HashMap<>();
        try (KeyValueCursor cursor = reader.scan(prefix, KeyWriter.prefixEnd(prefix), 1024)) {
            while (cursor.hasNext()) {
                var entry = cursor.next();
                if (InlineKeys.longOf(entry.value()) > snapshotId) {
                    continue;
                }
                long file = InlineKeys.component(entry.key(), 1);
                long[] filePositions = positions.computeIfAbsent(file, ignored -> new long[16]);
                int count = counts.getOrDefault(file, 0);
                if (count == filePositions.length) {
                    filePositions = Arrays.copyOf(filePositions, count * 2);
                    positions.put(file, filePositions);
                }
                filePositions[count] = InlineKeys.component(entry.key(), 2);
                counts.put(file, count + 1);
            }
        }
        // Keys are ordered by (file, position), so each file's positions arrive sorted and distinct.
        positions.replaceAll((file, filePositions) -> Arrays.copyOf(filePositions, counts.get(file)));
        return positions;
    }
}
