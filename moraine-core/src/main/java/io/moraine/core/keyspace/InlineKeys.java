package io.moraine.core.keyspace;

import io.moraine.core.inline.ChunkId;

import java.nio.ByteBuffer;

/**
 * Keys of the inline subspace (RFC 0005; docs/format.md, "Inline subspace"):
 * {@code [0x03][kind][int64 table_id][...]}, so every inline record of one table and kind is one contiguous range.
 */
public final class InlineKeys
{
    /** Arrow IPC schema per (table, schema version), or a same-as-version reference. */
    public static final byte SCHEMA = 1;
    /** An insert chunk: (table, schema version, begin_snapshot, chunk_seq). */
    public static final byte INSERT = 2;
    /** A deletion event of an inlined row: (table, row_id, end_snapshot). */
    public static final byte ROW_TOMBSTONE = 3;
    /** An inlined delete of a Parquet row: (table, data_file_id, position). */
    public static final byte FILE_DELETE = 4;
    /** Marks that ducklake_inlined_delete_&lt;table&gt; exists: (table). */
    public static final byte FILE_DELETE_TABLE = 5;
    /** Marks that a schema version was deregistered by a flush: (table, schema version). */
    public static final byte SCHEMA_DROPPED = 6;
    /** A chunk's locator: (table, row_id_end inclusive, schema version, begin_snapshot, chunk_seq). */
    public static final byte CHUNK_LOCATOR = 7;

    private InlineKeys() {}

    /** The prefix of every record of one kind, across tables. */
    public static byte[] kindPrefix(byte kind)
    {
        return writer(kind).toBytes();
    }

    public static byte[] prefix(byte kind, long tableId)
    {
        return writer(kind).int64(tableId).toBytes();
    }

    public static byte[] schema(long tableId, long schemaVersion)
    {
        return writer(SCHEMA).int64(tableId).int64(schemaVersion).toBytes();
    }

    public static byte[] insert(ChunkId chunk)
    {
        return writer(INSERT).int64(chunk.tableId()).int64(chunk.schemaVersion()).int64(chunk.beginSnapshot()).int64(chunk.chunkSeq()).toBytes();
    }

    public static byte[] locator(ChunkId chunk, long rowIdEnd)
    {
        return writer(CHUNK_LOCATOR).int64(chunk.tableId()).int64(rowIdEnd).int64(chunk.schemaVersion())
                .int64(chunk.beginSnapshot()).int64(chunk.chunkSeq()).toBytes();
    }

    public static byte[] rowTombstone(long tableId, long rowId, long endSnapshot)
    {
        return writer(ROW_TOMBSTONE).int64(tableId).int64(rowId).int64(endSnapshot).toBytes();
    }

    public static byte[] fileDelete(long tableId, long dataFileId, long position)
    {
        return writer(FILE_DELETE).int64(tableId).int64(dataFileId).int64(position).toBytes();
    }

    /** The prefix of one data file's inlined deletes. */
    public static byte[] fileDeletes(long tableId, long dataFileId)
    {
        return writer(FILE_DELETE).int64(tableId).int64(dataFileId).toBytes();
    }

    public static byte[] fileDeleteTable(long tableId)
    {
        return writer(FILE_DELETE_TABLE).int64(tableId).toBytes();
    }

    public static byte[] schemaDropped(long tableId, long schemaVersion)
    {
        return writer(SCHEMA_DROPPED).int64(tableId).int64(schemaVersion).toBytes();
    }

    /** Reads the {@code index}-th int64 component after the kind byte (0 = table id). */
    public static long component(byte[] key, int index)
    {
        return ByteBuffer.wrap(key, 2 + 8 * index, 8).getLong() ^ Long.MIN_VALUE;
    }

    public static byte kind(byte[] key)
    {
        return key[1];
    }

    /** The chunk a locator key names. */
    public static ChunkId chunkOfLocator(byte[] locatorKey)
    {
        return new ChunkId(component(locatorKey, 0), component(locatorKey, 2), component(locatorKey, 3), component(locatorKey, 4));
    }

    /** The chunk an insert key names. */
    public static ChunkId chunkOfInsert(byte[] insertKey)
    {
        return new ChunkId(component(insertKey, 0), component(insertKey, 1), component(insertKey, 2), component(insertKey, 3));
    }

    public static byte[] longValue(long value)
    {
        return ByteBuffer.allocate(8).putLong(value).array();
    }

    public static long longOf(byte[] value)
    {
        return ByteBuffer.wrap(value).getLong();
    }

    private static KeyWriter writer(byte kind)
    {
        return new KeyWriter().tag(Subspace.INLINE.tag()).tag(kind);
    }
}
