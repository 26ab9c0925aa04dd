package io.moraine.core.keyspace;

import io.moraine.core.row.TableKind;
import io.moraine.core.error.CorruptionException;

import java.nio.ByteBuffer;
import java.util.HexFormat;

/**
 * Keys and values of the tiny-file subspace ({@code 0x07}, docs/format.md "Tiny-file copies"): the whole bytes of a small
 * data or delete file, kept beside its catalog row so that readers need no object-store request for it.
 * <pre>
 * key   := 0x07  int64(table_id)  kind_tag:u8 (9 data file, 12 delete file)  int64(file_id)
 * value := format:u8 (= 1)  kind_tag:u8  file_size_bytes:int64_be  the file's bytes
 * </pre>
 * One table's copies are one range, and each kind's copies of it a file-id-ordered range inside it, so a scan planner
 * merges them with the table's data files (also in file-id order) and delete files without a read per file.
 */
public final class TinyFileKeys
{
    public static final byte VALUE_FORMAT = 1;
    public static final int HEADER_BYTES = 1 + 1 + 8;

    private TinyFileKeys() {}

    public static byte[] key(long tableId, TableKind kind, long fileId)
    {
        return new KeyWriter().tag(Subspace.TINY_FILES.tag()).int64(tableId).tag(requireFileKind(kind).tag()).int64(fileId).toBytes();
    }

    /** The first key of the table's copies (of both kinds). */
    public static byte[] tablePrefix(long tableId)
    {
        return new KeyWriter().tag(Subspace.TINY_FILES.tag()).int64(tableId).toBytes();
    }

    /** The first key of the table's copies of one kind; {@link KeyWriter#prefixEnd} of it ends them. */
    public static byte[] kindPrefix(long tableId, TableKind kind)
    {
        return new KeyWriter().tag(Subspace.TINY_FILES.tag()).int64(tableId).tag(requireFileKind(kind).tag()).toBytes();
    }

    /** A copy key's parts. */
    public record CopyId(long tableId, TableKind kind, long fileId) {}

    public static CopyId idOf(byte[] key)
    {
        if (key.length != 1 + 8 + 1 + 8 || key[0] != Subspace.TINY_FILES.tag()) {
            throw corrupt(key, "a key of 18 bytes in subspace 0x07");
        }
        TableKind kind = TableKind.fromTag(key[9]).filter(k -> k == TableKind.DATA_FILE || k == TableKind.DELETE_FILE)
                .orElseThrow(() -> corrupt(key, "a data-file (9) or delete-file (12) tag"));
        return new CopyId(int64At(key, 1), kind, int64At(key, 10));
    }

    public static byte[] encodeValue(TableKind kind, long fileSizeBytes, byte[] bytes)
    {
        return ByteBuffer.allocate(HEADER_BYTES + bytes.length).put(VALUE_FORMAT).put(requireFileKind(kind).tag()).putLong(fileSizeBytes).put(bytes).array();
    }

    /** The file_size_bytes a copy was taken for: a reader uses the copy only when it equals the row's. */
    public static long recordedSize(byte[] key, byte[] value)
    {
        checkValue(key, value);
        return ByteBuffer.wrap(value, 2, 8).getLong();
    }

    /** The file's bytes in a copy's value (a fresh array). */
    public static byte[] fileBytes(byte[] key, byte[] value)
    {
        checkValue(key, value);
        return java.util.Arrays.copyOfRange(value, HEADER_BYTES, value.length);
    }

    /** Whether a copy's value is whole: its header's size is the length of the bytes after it. */
    public static boolean isWhole(byte[] key, byte[] value)
    {
        return recordedSize(key, value) == value.length - HEADER_BYTES;
    }

    private static void checkValue(byte[] key, byte[] value)
    {
        if (value == null || value.length < HEADER_BYTES || value[0] != VALUE_FORMAT || value[1] != key[9]) {
            throw corrupt(key, "a value starting with format 1 and the key's kind tag");
        }
    }

    private static TableKind requireFileKind(TableKind kind)
    {
        if (kind != TableKind.DATA_FILE && kind != TableKind.DELETE_FILE) {
            throw new IllegalArgumentException("tiny-file copies are of data or delete files, not " + kind);
        }
        return kind;
    }

    private static long int64At(byte[] key, int offset)
    {
        return ByteBuffer.wrap(key, offset, 8).getLong() ^ Long.MIN_VALUE;
    }

    private static CorruptionException corrupt(byte[] key, String expected)
    {
        return new CorruptionException("corrupt tiny-file copy " + HexFormat.of().formatHex(key) + ": expected " + expected
                + ". bin/moraine tiny-files sweep removes it (readers ignore it meanwhile).");
    }
}
