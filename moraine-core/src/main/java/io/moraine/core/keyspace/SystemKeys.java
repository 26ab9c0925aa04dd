package io.moraine.core.keyspace;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** Keys and values of the system subspace (docs/format.md, "System records"). */
public final class SystemKeys
{
    public static final byte[] FORMAT = key("format");
    public static final byte[] HEAD = key("head");
    public static final byte[] STORE_FACTS = key("store");
    /** The store's tiny-file threshold: {@code int64_be} bytes; absent means {@link #DEFAULT_TINY_FILE_THRESHOLD_BYTES}. */
    public static final byte[] TINY_FILE_THRESHOLD = key("tiny_file_threshold_bytes");
    public static final long DEFAULT_TINY_FILE_THRESHOLD_BYTES = 4096;

    private SystemKeys() {}

    /**
     * The key of a catalog kind's row stamp: a value every batch that changes a row of that kind replaces, so that
     * equal stamps mean equal rows (docs/format.md, "Row stamps").
     */
    public static byte[] rowStamp(io.moraine.core.row.TableKind kind)
    {
        return new KeyWriter().tag(Subspace.SYSTEM.tag()).string("stamp").tag(kind.tag()).toBytes();
    }

    private static byte[] key(String name)
    {
        return new KeyWriter().tag(Subspace.SYSTEM.tag()).string(name).toBytes();
    }

    public static byte[] encodeHead(long snapshotId)
    {
        return ByteBuffer.allocate(8).putLong(snapshotId).array();
    }

    public static long decodeHead(byte[] value)
    {
        if (value.length != 8) {
            throw new io.moraine.core.error.CorruptionException("corrupt head record: expected 8 bytes, found " + value.length
                    + ". Restore the store from a checkpoint or backup.");
        }
        return ByteBuffer.wrap(value).getLong();
    }

    /** The tiny-file threshold a {@link #TINY_FILE_THRESHOLD} value (or its absence, null) says; 0 means off. */
    public static long decodeTinyFileThreshold(byte[] value)
    {
        if (value == null) {
            return DEFAULT_TINY_FILE_THRESHOLD_BYTES;
        }
        if (value.length != 8 || ByteBuffer.wrap(value).getLong() < 0) {
            throw new io.moraine.core.error.CorruptionException("corrupt tiny_file_threshold_bytes record: expected a non-negative int64, found "
                    + value.length + " bytes. Set it again with bin/moraine tiny-files configure --threshold-bytes N.");
        }
        return ByteBuffer.wrap(value).getLong();
    }

    public static byte[] encodeTinyFileThreshold(long bytes)
    {
        return ByteBuffer.allocate(8).putLong(bytes).array();
    }

    /** The format version at the start of a format record. */
    public static int decodeFormatVersion(byte[] value)
    {
        if (value.length < 4) {
            throw new io.moraine.core.error.CorruptionException("corrupt format record: expected at least 4 bytes, found " + value.length
                    + ". Restore the store from a checkpoint or backup.");
        }
        return ByteBuffer.wrap(value).getInt();
    }

    public static byte[] encodeFormat(int formatVersion, String writer)
    {
        byte[] name = writer.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(4 + name.length).putInt(formatVersion).put(name).array();
    }
}
