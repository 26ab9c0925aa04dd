package io.moraine.core.keyspace;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** Keys and values of the system subspace (docs/format.md, "System records"). */
public final class SystemKeys
{
    public static final byte[] FORMAT = key("format");
    public static final byte[] HEAD = key("head");
    public static final byte[] STORE_FACTS = key("store");

    private SystemKeys() {}

    /**
     * The key of a catalog kind's row stamp: a value every batch that changes a row of that kind replaces, so that
     * equal stamps mean equal rows (docs/format.md, "Row stamps").
     */
    public static byte[] rowStamp(io.moraine.core.catalog.TableKind kind)
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
