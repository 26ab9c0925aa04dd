package io.moraine.sidecars.rowsum;

import io.moraine.sidecars.rowsum.RowSummaryFormatException.Kind;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * The {@code .rowsum} byte layout (docs/rowsum.md): a header naming the data file, the set (a tag byte and its
 * payload), then the order (nothing when ascending). Little-endian throughout.
 */
public final class RowSummaryFormat
{
    public static final int VERSION = 1;
    static final byte[] MAGIC = {'M', 'R', 'S', 'M'};
    /** Header bytes before the path; enough to learn how long the header and the set are. */
    public static final int FIXED_HEADER_LENGTH = 68;
    static final int MAX_PATH_LENGTH = 1 << 16;

    public static final byte SET_RANGE = 1;
    public static final byte SET_ROARING64 = 2;
    public static final byte SET_SORTED_U64 = 3;

    public static final byte ORDER_PERMUTED = 1;
    public static final byte ORDER_REPEATED = 2;
    static final int PERMUTED_PREFIX = 16;
    static final int REPEATED_PREFIX = 24;
    /** The longest order prefix: a reader fetches it with the set, so single entries need no further lookup. */
    public static final int MAX_ORDER_PREFIX = REPEATED_PREFIX;

    private RowSummaryFormat() {}

    public static byte[] encode(DataFileIdentity file, RowSummary summary)
    {
        byte[] set = encodeSet(summary.set());
        byte[] order = encodeOrder(summary);
        byte[] path = file.path().getBytes(UTF_8);
        if (path.length > MAX_PATH_LENGTH) {
            throw new IllegalArgumentException("a row summary's path is at most " + MAX_PATH_LENGTH + " bytes, got " + path.length);
        }
        int headerLength = FIXED_HEADER_LENGTH + path.length + 4;
        ByteBuffer out = ByteBuffer.allocate(Math.addExact(headerLength, Math.addExact(set.length, order.length))).order(ByteOrder.LITTLE_ENDIAN);
        out.put(MAGIC)
                .putInt(VERSION)
                .putLong(file.tableId())
                .putLong(file.dataFileId())
                .putLong(file.fileSize())
                .putLong(summary.rowCount())
                .putLong(set.length)
                .putLong(order.length)
                .putInt(crc32c(set, 0, set.length))
                .putInt(crc32c(order, 0, order.length))
                .putInt(path.length)
                .put(path);
        out.putInt(crc32c(out.array(), 0, headerLength - 4));
        out.put(set).put(order);
        return out.array();
    }

    static byte[] encodeSet(RowIdSet set)
    {
        return switch (set) {
            case DenseRowIds dense -> ByteBuffer.allocate(17).order(ByteOrder.LITTLE_ENDIAN)
                    .put(SET_RANGE).putLong(dense.start()).putLong(dense.count()).array();
            case SortedRowIds sorted -> {
                long[] ids = sorted.toArray();
                ByteBuffer out = ByteBuffer.allocate(1 + 8 * ids.length).order(ByteOrder.LITTLE_ENDIAN).put(SET_SORTED_U64);
                out.asLongBuffer().put(ids);
                yield out.array();
            }
            case RoaringRowIds roaring -> {
                ByteBuffer out = ByteBuffer.allocate(1 + roaring.serializedSize()).order(ByteOrder.LITTLE_ENDIAN).put(SET_ROARING64);
                roaring.serialize(out);
                yield out.array();
            }
        };
    }

    static byte[] encodeOrder(RowSummary summary)
    {
        long rowCount = summary.rowCount();
        int positionWidth = PackedInts.widthFor(rowCount);
        return switch (summary.order()) {
            case RowOrder.Ascending ignored -> new byte[0];
            case RowOrder.Permuted permuted -> {
                byte[] out = new byte[Math.toIntExact(PERMUTED_PREFIX + PackedInts.bytesFor(rowCount, positionWidth))];
                out[0] = ORDER_PERMUTED;
                out[1] = (byte) positionWidth;
                ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).putLong(8, rowCount);
                pack(out, PERMUTED_PREFIX, permuted.positions(), positionWidth);
                yield out;
            }
            case RowOrder.Repeated repeated -> {
                int offsetWidth = PackedInts.widthFor(rowCount + 1);
                int distinct = repeated.offsets().length - 1;
                long offsetBytes = PackedInts.bytesFor(distinct + 1L, offsetWidth);
                byte[] out = new byte[Math.toIntExact(REPEATED_PREFIX + offsetBytes + PackedInts.bytesFor(rowCount, positionWidth))];
                out[0] = ORDER_REPEATED;
                out[1] = (byte) positionWidth;
                out[2] = (byte) offsetWidth;
                ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).putLong(8, rowCount).putLong(16, distinct);
                pack(out, REPEATED_PREFIX, repeated.offsets(), offsetWidth);
                pack(out, Math.toIntExact(REPEATED_PREFIX + offsetBytes), repeated.positions(), positionWidth);
                yield out;
            }
        };
    }

    private static void pack(byte[] out, int base, int[] values, int width)
    {
        for (int i = 0; i < values.length; i++) {
            PackedInts.put(out, base, i, width, values[i]);
        }
    }

    /**
     * From the first {@link #FIXED_HEADER_LENGTH} bytes: how many bytes from the start hold the header and the set, and
     * the order's prefix when there is one. What a reader must have fetched before {@link #decodeHeader}.
     */
    public static long bytesThroughOrderPrefix(byte[] prefix, int available)
            throws RowSummaryFormatException
    {
        ByteBuffer in = fixedHeader(prefix, available);
        long setLength = in.getLong(40);
        long orderLength = in.getLong(48);
        int pathLength = in.getInt(64);
        if (pathLength < 0 || pathLength > MAX_PATH_LENGTH || setLength < 1 || setLength > Integer.MAX_VALUE / 2
                || orderLength < 0 || orderLength > Integer.MAX_VALUE / 2) {
            throw new RowSummaryFormatException(Kind.CORRUPT, "implausible lengths: path " + pathLength + ", set " + setLength + ", order " + orderLength);
        }
        return FIXED_HEADER_LENGTH + pathLength + 4L + setLength + Math.min(orderLength, MAX_ORDER_PREFIX);
    }

    /** The header's length, path and checksum included, from the fixed header. */
    public static int headerLength(byte[] prefix, int available)
            throws RowSummaryFormatException
    {
        int pathLength = fixedHeader(prefix, available).getInt(64);
        if (pathLength < 0 || pathLength > MAX_PATH_LENGTH) {
            throw new RowSummaryFormatException(Kind.CORRUPT, "implausible path length " + pathLength);
        }
        return FIXED_HEADER_LENGTH + pathLength + 4;
    }

    public static RowSummaryHeader decodeHeader(byte[] bytes, int available)
            throws RowSummaryFormatException
    {
        ByteBuffer in = fixedHeader(bytes, available);
        int pathLength = in.getInt(64);
        if (pathLength < 0 || pathLength > MAX_PATH_LENGTH) {
            throw new RowSummaryFormatException(Kind.CORRUPT, "implausible path length " + pathLength);
        }
        int headerLength = FIXED_HEADER_LENGTH + pathLength + 4;
        if (available < headerLength) {
            throw new RowSummaryFormatException(Kind.SHORT_READ, "the header needs " + headerLength + " bytes, " + available + " read");
        }
        if (crc32c(bytes, 0, headerLength - 4) != in.getInt(headerLength - 4)) {
            throw new RowSummaryFormatException(Kind.CORRUPT, "header checksum mismatch");
        }
        RowSummaryHeader header = new RowSummaryHeader(
                in.getInt(4),
                in.getLong(8),
                in.getLong(16),
                new String(bytes, FIXED_HEADER_LENGTH, pathLength, UTF_8),
                in.getLong(24),
                in.getLong(32),
                in.getLong(40),
                in.getLong(48),
                in.getInt(56),
                in.getInt(60),
                headerLength);
        if (header.rowCount() < 0 || header.rowCount() > Integer.MAX_VALUE || header.setLength() < 1 || header.orderLength() < 0) {
            throw new RowSummaryFormatException(Kind.CORRUPT, "implausible header " + header);
        }
        return header;
    }

    private static ByteBuffer fixedHeader(byte[] bytes, int available)
            throws RowSummaryFormatException
    {
        if (available < 8) {
            throw new RowSummaryFormatException(Kind.SHORT_READ, "a row summary starts with 8 bytes of magic and version, " + available + " read");
        }
        for (int i = 0; i < MAGIC.length; i++) {
            if (bytes[i] != MAGIC[i]) {
                throw new RowSummaryFormatException(Kind.CORRUPT, "not a row summary (bad magic)");
            }
        }
        ByteBuffer in = ByteBuffer.wrap(bytes, 0, available).order(ByteOrder.LITTLE_ENDIAN);
        int version = in.getInt(4);
        if (version != VERSION) {
            throw new RowSummaryFormatException(Kind.UNKNOWN_VERSION, "row summary format version " + version + ", this reader knows " + VERSION);
        }
        if (available < FIXED_HEADER_LENGTH) {
            throw new RowSummaryFormatException(Kind.SHORT_READ, "the fixed header needs " + FIXED_HEADER_LENGTH + " bytes, " + available + " read");
        }
        return in;
    }

    /** The set half at {@code offset} of {@code bytes}, checked against the header's length, checksum and row count. */
    public static RowIdSet decodeSet(RowSummaryHeader header, byte[] bytes, int offset)
            throws RowSummaryFormatException
    {
        int length = Math.toIntExact(header.setLength());
        if (bytes.length - offset < length) {
            throw new RowSummaryFormatException(Kind.SHORT_READ, "the set needs " + length + " bytes, " + (bytes.length - offset) + " read");
        }
        if (crc32c(bytes, offset, length) != header.setCrc32c()) {
            throw new RowSummaryFormatException(Kind.CORRUPT, "set checksum mismatch");
        }
        RowIdSet set;
        try {
            set = switch (bytes[offset]) {
                case SET_RANGE -> {
                    requireCorrupt(length == 17, "a range set is 17 bytes, got " + length);
                    ByteBuffer in = ByteBuffer.wrap(bytes, offset, length).order(ByteOrder.LITTLE_ENDIAN);
                    yield new DenseRowIds(in.getLong(offset + 1), in.getLong(offset + 9));
                }
                case SET_SORTED_U64 -> {
                    requireCorrupt((length - 1) % 8 == 0, "a sorted set is a tag and whole u64s, got " + length + " bytes");
                    long[] ids = new long[(length - 1) / 8];
                    ByteBuffer.wrap(bytes, offset + 1, length - 1).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(ids);
                    yield new SortedRowIds(ids);
                }
                case SET_ROARING64 -> {
                    ByteBuffer in = ByteBuffer.wrap(bytes, offset + 1, length - 1).order(ByteOrder.LITTLE_ENDIAN);
                    RoaringRowIds roaring = RoaringRowIds.deserialize(in);
                    requireCorrupt(!in.hasRemaining(), in.remaining() + " bytes follow the Roaring payload");
                    yield roaring;
                }
                default -> throw new RowSummaryFormatException(Kind.CORRUPT, "unknown set tag " + bytes[offset]);
            };
        }
        catch (IOException | RuntimeException e) {
            throw new RowSummaryFormatException(Kind.CORRUPT, "undecodable set: " + e);
        }
        long cardinality = set.cardinality();
        boolean fits = header.orderLength() == 0 ? cardinality == header.rowCount() : cardinality <= header.rowCount();
        requireCorrupt(fits, "the set holds " + cardinality + " ids for " + header.rowCount() + " rows");
        return set;
    }

    /** Where an order's entries lie, from its prefix; checked against the header and the set. */
    public static OrderLayout decodeOrderLayout(RowSummaryHeader header, RowIdSet set, byte[] prefix, int offset)
            throws RowSummaryFormatException
    {
        long rowCount = header.rowCount();
        int positionWidth = PackedInts.widthFor(rowCount);
        requireCorrupt(prefix.length - offset >= 2, "the order prefix is missing");
        ByteBuffer in = ByteBuffer.wrap(prefix).order(ByteOrder.LITTLE_ENDIAN);
        OrderLayout layout = switch (prefix[offset]) {
            case ORDER_PERMUTED -> {
                requireCorrupt(prefix.length - offset >= PERMUTED_PREFIX, "the permuted order prefix is short");
                requireZero(prefix, offset + 2, offset + 8);
                requireCorrupt(in.getLong(offset + 8) == rowCount && set.cardinality() == rowCount, "permuted order count disagrees with the header");
                yield new OrderLayout(ORDER_PERMUTED, rowCount, set.cardinality(), prefix[offset + 1], 0, 0, PERMUTED_PREFIX,
                        PERMUTED_PREFIX + PackedInts.bytesFor(rowCount, positionWidth));
            }
            case ORDER_REPEATED -> {
                requireCorrupt(prefix.length - offset >= REPEATED_PREFIX, "the repeated order prefix is short");
                requireZero(prefix, offset + 3, offset + 8);
                requireCorrupt(in.getLong(offset + 8) == rowCount && in.getLong(offset + 16) == set.cardinality(),
                        "repeated order counts disagree with the header and the set");
                requireCorrupt(prefix[offset + 2] == PackedInts.widthFor(rowCount + 1), "offset width " + prefix[offset + 2]);
                long offsetBytes = PackedInts.bytesFor(set.cardinality() + 1, prefix[offset + 2]);
                yield new OrderLayout(ORDER_REPEATED, rowCount, set.cardinality(), prefix[offset + 1], prefix[offset + 2], REPEATED_PREFIX,
                        REPEATED_PREFIX + offsetBytes, REPEATED_PREFIX + offsetBytes + PackedInts.bytesFor(rowCount, positionWidth));
            }
            default -> throw new RowSummaryFormatException(Kind.CORRUPT, "unknown order tag " + prefix[offset]);
        };
        requireCorrupt(layout.positionWidth() == positionWidth, "position width " + layout.positionWidth() + ", " + rowCount + " rows need " + positionWidth);
        requireCorrupt(layout.length() == header.orderLength(), "the order is " + header.orderLength() + " bytes, its layout " + layout.length());
        return layout;
    }

    /** The whole order half (checksummed) and the set: the full summary. */
    public static RowSummary decodeSummary(RowSummaryHeader header, RowIdSet set, byte[] order)
            throws RowSummaryFormatException
    {
        if (header.orderLength() == 0) {
            return summary(header.rowCount(), set, new RowOrder.Ascending());
        }
        requireCorrupt(order.length == header.orderLength(), "the order needs " + header.orderLength() + " bytes, got " + order.length);
        requireCorrupt(crc32c(order, 0, order.length) == header.orderCrc32c(), "order checksum mismatch");
        OrderLayout layout = decodeOrderLayout(header, set, order, 0);
        int rowCount = Math.toIntExact(header.rowCount());
        int[] positions = unpack(order, Math.toIntExact(layout.positionsStart()), rowCount, layout.positionWidth());
        if (layout.tag() == ORDER_PERMUTED) {
            return summary(rowCount, set, new RowOrder.Permuted(positions));
        }
        int[] offsets = unpack(order, Math.toIntExact(layout.offsetsStart()), Math.toIntExact(set.cardinality() + 1), layout.offsetWidth());
        return summary(rowCount, set, new RowOrder.Repeated(offsets, positions));
    }

    private static RowSummary summary(long rowCount, RowIdSet set, RowOrder order)
            throws RowSummaryFormatException
    {
        try {
            return new RowSummary(rowCount, set, order);
        }
        catch (IllegalArgumentException e) {
            throw new RowSummaryFormatException(Kind.CORRUPT, "inconsistent order: " + e.getMessage());
        }
    }

    private static int[] unpack(byte[] bytes, int base, int count, int width)
    {
        int[] values = new int[count];
        PackedInts.unpack(bytes, base, width, values);
        return values;
    }

    private static void requireZero(byte[] bytes, int from, int to)
            throws RowSummaryFormatException
    {
        for (int i = from; i < to; i++) {
            requireCorrupt(bytes[i] == 0, "reserved order byte " + (i - from) + " is " + bytes[i]);
        }
    }

    static void requireCorrupt(boolean condition, String message)
            throws RowSummaryFormatException
    {
        if (!condition) {
            throw new RowSummaryFormatException(Kind.CORRUPT, message);
        }
    }

    static int crc32c(byte[] bytes, int offset, int length)
    {
        CRC32C crc = new CRC32C();
        crc.update(bytes, offset, length);
        return (int) crc.getValue();
    }
}
