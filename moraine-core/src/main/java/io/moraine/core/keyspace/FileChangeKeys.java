package io.moraine.core.keyspace;

import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.error.CorruptionException;

import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Keys of the file-change index ({@code 0x06}, docs/format.md): where a change feed over {@code [a, b]} finds the data
 * and delete files of a table that hold changes in the range without reading the table's other files. Three families
 * under {@code [0x06][int64(table_id)]}:
 * <ul>
 * <li>{@link #EVENT} {@code int64(snapshot) kind:u8 int64(file_id)}: a file's begin_snapshot, and a data file's
 * end_snapshot. Value: {@code int64_be(data_file_id)} (the file's own id for a data file), then, at a file's begin
 * entry, {@code int64_be(content_end)} when the file spans snapshots.</li>
 * <li>{@link #SPAN} {@code int64(content_end) int64(begin_snapshot) kind:u8 int64(file_id)}: a file holding rows or
 * deletions of several snapshots (flush and merge outputs, backdated cumulative delete files), from its begin_snapshot
 * through content_end. Value: {@code int64_be(data_file_id)}.</li>
 * <li>{@link #DELETE_FILES} {@code int64(data_file_id) int64(delete_file_id)}: the delete files of a data file. Value
 * empty.</li>
 * </ul>
 * Every integer is in the order-preserving int64 encoding, so each family of a table is one range in snapshot (or data
 * file) order.
 */
public final class FileChangeKeys
{
    public static final byte EVENT = 0x01;
    public static final byte SPAN = 0x02;
    public static final byte DELETE_FILES = 0x03;

    private static final byte[] EMPTY = new byte[0];

    private FileChangeKeys() {}

    /**
     * The index entries of a data or delete file row (key to value), given where its content ends (its greatest
     * snapshot with an inserted or deleted row; {@link #contentEnd}). Empty for a row without table_id, begin_snapshot
     * or data_file_id, which no change feed can select.
     */
    public static Map<ByteBuffer, byte[]> entries(Row file, long contentEnd)
    {
        Map<ByteBuffer, byte[]> entries = new LinkedHashMap<>();
        Long tableId = file.getLong("table_id");
        Long begin = file.getLong("begin_snapshot");
        Long dataFileId = file.getLong("data_file_id");
        TableKind kind = requireFileKind(file);
        if (tableId == null || begin == null || dataFileId == null) {
            return entries;
        }
        long fileId = fileId(file);
        boolean spans = contentEnd > begin;
        entries.put(ByteBuffer.wrap(event(tableId, begin, kind, fileId)), spans ? longs(dataFileId, contentEnd) : longs(dataFileId));
        if (spans) {
            entries.put(ByteBuffer.wrap(span(tableId, contentEnd, begin, kind, fileId)), longs(dataFileId));
        }
        Long end = file.getLong("end_snapshot");
        if (kind == TableKind.DATA_FILE && end != null && end != (long) begin) {
            entries.put(ByteBuffer.wrap(event(tableId, end, kind, fileId)), longs(dataFileId));
        }
        if (kind == TableKind.DELETE_FILE) {
            entries.put(ByteBuffer.wrap(deleteFileOf(tableId, dataFileId, fileId)), EMPTY);
        }
        return entries;
    }

    /**
     * The last snapshot whose inserts or deletes a file can hold, for a file written by a commit that lands at
     * {@code writtenAt}: a data file's {@code partial_max} (else its begin_snapshot); a delete file's {@code partial_max};
     * a delete file without one holds deletions of its begin snapshot only, except the delete files DuckLake writes when it
     * flushes inlined rows (on a data file with partial_max, backdated to the earliest deletion) — those record each
     * position's snapshot but no partial_max, and end at the commit that wrote them at the latest.
     */
    public static long contentEnd(Row file, long writtenAt, boolean dataFileIsPartial)
    {
        long begin = file.getLong("begin_snapshot");
        Long partialMax = file.getLong("partial_max");
        if (partialMax != null) {
            return Math.max(begin, partialMax);
        }
        if (requireFileKind(file) == TableKind.DELETE_FILE && dataFileIsPartial && begin < writtenAt) {
            return writtenAt;
        }
        return begin;
    }

    /** The content end recorded in a file's begin entry value ({@link #entries}), if the file spans snapshots. */
    public static OptionalLong recordedContentEnd(byte[] beginEntryValue)
    {
        return beginEntryValue != null && beginEntryValue.length == 16 ? OptionalLong.of(ByteBuffer.wrap(beginEntryValue, 8, 8).getLong()) : OptionalLong.empty();
    }

    /** The begin entry of a file row: where its recorded content end is read back when the row changes. */
    public static byte[] beginEvent(Row file)
    {
        return event(file.getLong("table_id"), file.getLong("begin_snapshot"), requireFileKind(file), fileId(file));
    }

    public static byte[] event(long tableId, long snapshot, TableKind kind, long fileId)
    {
        return family(tableId, EVENT).int64(snapshot).tag(kind.tag()).int64(fileId).toBytes();
    }

    public static byte[] span(long tableId, long contentEnd, long begin, TableKind kind, long fileId)
    {
        return family(tableId, SPAN).int64(contentEnd).int64(begin).tag(kind.tag()).int64(fileId).toBytes();
    }

    public static byte[] deleteFileOf(long tableId, long dataFileId, long deleteFileId)
    {
        return family(tableId, DELETE_FILES).int64(dataFileId).int64(deleteFileId).toBytes();
    }

    /** The first key of a family's entries whose first component is {@code first} or more. */
    public static byte[] atOrAfter(long tableId, byte family, long first)
    {
        return family(tableId, family).int64(first).toBytes();
    }

    /** The first key after a family's entries whose first component is {@code last} or less. */
    public static byte[] after(long tableId, byte family, long last)
    {
        return last == Long.MAX_VALUE ? familyEnd(tableId, family) : atOrAfter(tableId, family, last + 1);
    }

    /** The first key after every entry of a family of the table. */
    public static byte[] familyEnd(long tableId, byte family)
    {
        return KeyWriter.prefixEnd(family(tableId, family).toBytes());
    }

    /** The first key of every entry of the table. */
    public static byte[] tablePrefix(long tableId)
    {
        return new KeyWriter().tag(Subspace.FILE_CHANGES.tag()).int64(tableId).toBytes();
    }

    /** An entry's file, read back from an {@link #EVENT} or {@link #SPAN} key. */
    public record FileRef(TableKind kind, long fileId) {}

    public static FileRef fileOf(byte[] key)
    {
        int length = key.length;
        int expected = switch (length > 9 ? key[9] : -1) {
            case EVENT -> 1 + 8 + 1 + 8 + 1 + 8;
            case SPAN -> 1 + 8 + 1 + 8 + 8 + 1 + 8;
            default -> -1;
        };
        if (key[0] != Subspace.FILE_CHANGES.tag() || length != expected) {
            throw corrupt(key, "an event or span key of the file-change index");
        }
        TableKind kind = TableKind.fromTag(key[length - 9]).filter(k -> k == TableKind.DATA_FILE || k == TableKind.DELETE_FILE)
                .orElseThrow(() -> corrupt(key, "a data-file or delete-file tag"));
        return new FileRef(kind, int64At(key, length - 8));
    }

    /** A span key's begin snapshot. */
    public static long spanBegin(byte[] key)
    {
        return int64At(key, 1 + 8 + 1 + 8);
    }

    /** The delete file id of a {@link #DELETE_FILES} key. */
    public static long deleteFileIdOf(byte[] key)
    {
        if (key.length != 1 + 8 + 1 + 8 + 8 || key[9] != DELETE_FILES) {
            throw corrupt(key, "a delete-files key of the file-change index");
        }
        return int64At(key, key.length - 8);
    }

    /** The data file an {@link #EVENT} or {@link #SPAN} entry is about, from its value. */
    public static long dataFileIdOf(byte[] key, byte[] value)
    {
        if (value == null || (value.length != 8 && value.length != 16)) {
            throw corrupt(key, "a value of 8 or 16 bytes");
        }
        return ByteBuffer.wrap(value, 0, 8).getLong();
    }

    private static KeyWriter family(long tableId, byte family)
    {
        return new KeyWriter().tag(Subspace.FILE_CHANGES.tag()).int64(tableId).tag(family);
    }

    private static TableKind requireFileKind(Row file)
    {
        if (file.kind() != TableKind.DATA_FILE && file.kind() != TableKind.DELETE_FILE) {
            throw new IllegalArgumentException("not a ducklake_data_file or ducklake_delete_file row: " + file);
        }
        return file.kind();
    }

    /** The id of a ducklake_data_file or ducklake_delete_file row. */
    public static long fileId(Row file)
    {
        return file.getLong(file.kind() == TableKind.DATA_FILE ? "data_file_id" : "delete_file_id");
    }

    private static byte[] longs(long... values)
    {
        ByteBuffer buffer = ByteBuffer.allocate(8 * values.length);
        for (long value : values) {
            buffer.putLong(value);
        }
        return buffer.array();
    }

    private static long int64At(byte[] key, int offset)
    {
        return ByteBuffer.wrap(key, offset, 8).getLong() ^ Long.MIN_VALUE;
    }

    private static CorruptionException corrupt(byte[] key, String expected)
    {
        return new CorruptionException("corrupt file-change index key " + HexFormat.of().formatHex(key) + ": expected " + expected
                + ". Restore the store from a checkpoint or backup.");
    }
}
