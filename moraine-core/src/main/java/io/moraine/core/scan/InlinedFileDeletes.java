package io.moraine.core.scan;

import io.moraine.core.keyspace.InlineKeys;
import io.moraine.core.keyspace.KeyWriter;
import io.moraine.core.store.KeyValueCursor;
import io.moraine.core.store.KeyValueReader;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongPredicate;

/**
 * Inlined deletes of Parquet rows ({@code ducklake_inlined_delete_<t>}, stored under the inline subspace keyed by
 * table, data file and position, valued by the deleting snapshot): an entry applies to every snapshot at or after its
 * begin snapshot (reference §3.2).
 */
public final class InlinedFileDeletes
{
    private InlinedFileDeletes() {}

    /** Data file id to its deleted positions (sorted) with the snapshot that deleted each, at {@code snapshotId}. */
    public static Map<Long, TreeMap<Long, Long>> entriesAt(KeyValueReader reader, long tableId, long snapshotId)
    {
        Map<Long, TreeMap<Long, Long>> entries = new HashMap<>();
        try (Stream stream = new Stream(reader, tableId, snapshotId)) {
            while (stream.advance()) {
                entries.computeIfAbsent(stream.dataFileId(), ignored -> new TreeMap<>()).put(stream.position(), stream.deletedAt());
            }
        }
        return entries;
    }

    /**
     * Data file id to its deleted positions (sorted) with the snapshot that deleted each, for the entries whose deleting
     * snapshot is in {@code [fromSnapshot, toSnapshot]} (a change feed's inlined file deletes).
     */
    public static Map<Long, TreeMap<Long, Long>> entriesBetween(KeyValueReader reader, long tableId, long fromSnapshot, long toSnapshot)
    {
        Map<Long, TreeMap<Long, Long>> entries = new HashMap<>();
        try (Stream stream = new Stream(reader, tableId, begin -> fromSnapshot <= begin && begin <= toSnapshot)) {
            while (stream.advance()) {
                entries.computeIfAbsent(stream.dataFileId(), ignored -> new TreeMap<>()).put(stream.position(), stream.deletedAt());
            }
        }
        return entries;
    }

    /** Data file id to its sorted, distinct deleted positions at {@code snapshotId}. */
    public static Map<Long, long[]> positionsAt(KeyValueReader reader, long tableId, long snapshotId)
    {
        Map<Long, long[]> positions = new HashMap<>();
        entriesAt(reader, tableId, snapshotId).forEach((file, entries) -> positions.put(file, entries.keySet().stream().mapToLong(Long::longValue).toArray()));
        return positions;
    }

    /** The entries of one table visible at a snapshot, in key order: by data file id, then position. */
    static final class Stream
            implements AutoCloseable
    {
        private final KeyValueCursor cursor;
        private final LongPredicate selectsBegin;
        private long dataFileId;
        private long position;
        private long deletedAt;

        Stream(KeyValueReader reader, long tableId, long snapshotId)
        {
            this(reader, tableId, begin -> begin <= snapshotId);
        }

        /** The entries whose deleting snapshot {@code selectsBegin} accepts. */
        Stream(KeyValueReader reader, long tableId, LongPredicate selectsBegin)
        {
            byte[] prefix = InlineKeys.prefix(InlineKeys.FILE_DELETE, tableId);
            this.cursor = reader.scan(prefix, KeyWriter.prefixEnd(prefix), 1024);
            this.selectsBegin = selectsBegin;
        }

        /** Moves to the next visible entry; false at the end. */
        boolean advance()
        {
            while (cursor.hasNext()) {
                var entry = cursor.next();
                long begin = InlineKeys.longOf(entry.value());
                if (selectsBegin.test(begin)) {
                    dataFileId = InlineKeys.component(entry.key(), 1);
                    position = InlineKeys.component(entry.key(), 2);
                    deletedAt = begin;
                    return true;
                }
            }
            return false;
        }

        long dataFileId()
        {
            return dataFileId;
        }

        long position()
        {
            return position;
        }

        long deletedAt()
        {
            return deletedAt;
        }

        @Override
        public void close()
        {
            cursor.close();
        }
    }
}
