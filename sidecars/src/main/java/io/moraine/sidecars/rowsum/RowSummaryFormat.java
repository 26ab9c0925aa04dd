package io.moraine.sidecars.rowsum;

import io.moraine.sidecars.rowsum.RowSummaryFormatException.Kind;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * The {@code .rowsum} byte layout (docs/rowsum.md): a header naming the data file, the set (a tag byte and its
 * payload), then the order (nothing when ascending). Little-endian throughout.
 */
public final class RowSummaryFormat
{
    public static final int VERSION = 1;
    /** version, table_id, data_file_id and the path's length: what a reader needs to know how long the header is. */
    public static final int HEADER_PREFIX_LENGTH = 24;
    /** Header bytes besides the path. */
    static final int HEADER_FIXED_LENGTH = 56;
    static final int MAX_PATH_LENGTH = 1 << 16;

    public static final byte SET_RANGE = 1;
    public static final byte SET_ROARING64 = 2;
    public static final byte SET_SORTED_U64 = 3;

    /** Kinds of order; not stored: an order half is permuted when the set holds {@code row_count} ids, else repeated. */
    public static final byte ORDER_PERMUTED = 1;
    public static final byte ORDER_REPEATED = 2;
    /** A repeated order's physical row count, before its offsets. */
    static final int REPEATED_PREFIX = 8;
    /** The longest order prefix: a reader fetches it with the set, so single entries need no further lookup. */
    public static final int MAX_ORDER_PREFIX = REPEATED_PREFIX;

    private RowSummaryFormat() {}

    /** The header's length for a path of {@code pathBytes} UTF-8 bytes. */
    public static int headerLength(int pathBytes)
    {
        return HEADER_FIXED_LENGTH + pathBytes;
    }

    public static byte[] encode(DataFileIdentity file, RowSummary summary)
    {
        byte[] set = encodeSet(summary.set());
        byte[] order = encodeOrder(summary);
        byte[] path = file.path().getBytes(UTF_8);
        if (path.length > MAX_PATH_LENGTH) {
            throw new IllegalArgumentException("a row summary's path is at most " + MAX_PATH_LENGTH + " bytes, got " + path.length);
        }
        int headerLength = headerLength(path.length);
        ByteBuffer out = ByteBuffer.allocate(Math.addExact(headerLength, Math.addExact(set.length, order.length))).order(ByteOrder.LITTLE_ENDIAN);
        out.putInt(VERSION)
                .putLong(file.tableId())
                .putLong(file.dataFileId())
                .putInt(path.length)
                .put(path)
                .putLong(file.fileSize())
                .putLong(summary.rowCount())
                .putLong(set.length)
                .putLong(order.length);
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
                byte[] out = new byte[Math.toIntExact(PackedInts.bytesFor(rowCount, positionWidth))];
                pack(out, 0, permuted.positions(), positionWidth);
                yield out;
            }
            case RowOrder.Repeated repeated -> {
                int offsetWidth = PackedInts.widthFor(rowCount + 1);
                int distinct = repeated.offsets().length - 1;
                long offsetBytes = PackedInts.bytesFor(distinct + 1L, offsetWidth);
                byte[] out = new byte[Math.toIntExact(REPEATED_PREFIX + offsetBytes + PackedInts.bytesFor(rowCount, positionWidth))];
                ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).putLong(0, rowCount);
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
     * The header's length, path included, from its first {@link #HEADER_PREFIX_LENGTH} bytes; checks the version
     * first, so a file that is not a version-1 sidecar is refused as such.
     */
    public static int headerLength(byte[] prefix, int available)
            throws RowSummaryFormatException
    {
        ByteBuffer in = headerPrefix(prefix, available);
        int pathLength = in.getInt(20);
        if (pathLength < 1 || pathLength > MAX_PATH_LENGTH) {
            throw new RowSummaryFormatException(Kind.CORRUPT, "implausible path length " + pathLength);
        }
        return headerLength(pathLength);
    }

    public static RowSummaryHeader decodeHeader(byte[] bytes, int available)
            throws RowSummaryFormatException
    {
        int headerLength = headerLength(bytes, available);
        if (available < headerLength) {
            throw new RowSummaryFormatException(Kind.SHORT_READ, "the header needs " + headerLength + " bytes, " + available + " read");
        }
        ByteBuffer in = ByteBuffer.wrap(bytes, 0, available).order(ByteOrder.LITTLE_ENDIAN);
        int pathLength = headerLength - HEADER_FIXED_LENGTH;
        int tail = HEADER_PREFIX_LENGTH + pathLength;
        RowSummaryHeader header = new RowSummaryHeader(
                in.getInt(0),
                in.getLong(4),
                in.getLong(12),
                new String(bytes, HEADER_PREFIX_LENGTH, pathLength, UTF_8),
                in.getLong(tail),
                in.getLong(tail + 8),
                in.getLong(tail + 16),
                in.getLong(tail + 24),
                headerLength);
        if (header.fileSize() < 0 || header.rowCount() < 0 || header.rowCount() > Integer.MAX_VALUE || header.setLength() < 1 || header.setLength() > Integer.MAX_VALUE / 2
                || header.orderLength() < 0 || header.orderLength() > Integer.MAX_VALUE / 2) {
            throw new RowSummaryFormatException(Kind.CORRUPT, "implausible header " + header);
        }
        return header;
    }

    private static ByteBuffer headerPrefix(byte[] bytes, int available)
            throws RowSummaryFormatException
    {
        if (available < 4) {
            throw new RowSummaryFormatException(Kind.SHORT_READ, "a row summary starts with its 4-byte version, " + available + " read");
        }
        ByteBuffer in = ByteBuffer.wrap(bytes, 0, available).order(ByteOrder.LITTLE_ENDIAN);
        int version = in.getInt(0);
        if (version != VERSION) {
            throw new RowSummaryFormatException(Kind.UNKNOWN_VERSION, "row summary format version " + version + ", this reader knows " + VERSION);
        }
        if (available < HEADER_PREFIX_LENGTH) {
            throw new RowSummaryFormatException(Kind.SHORT_READ, "the header's first " + HEADER_PREFIX_LENGTH + " bytes are needed, " + available + " read");
        }
        return in;
    }

    /** The set half at {@code offset} of {@code bytes}, checked against the header's length and row count. */
    public static RowIdSet decodeSet(RowSummaryHeader header, byte[] bytes, int offset)
            throws RowSummaryFormatException
    {
        int length = Math.toIntExact(header.setLength());
        if (bytes.length - offset < length) {
            throw new RowSummaryFormatException(Kind.SHORT_READ, "the set needs " + length + " bytes, " + (bytes.length - offset) + " read");
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

    /**
     * Where an order's entries lie, checked against the header and the set: permuted when the set holds every row's id
     * once, repeated when it holds fewer; {@code prefix} from {@code offset} holds at least the order's first
     * {@code min(order_length, 8)} bytes.
     */
    public static OrderLayout decodeOrderLayout(RowSummaryHeader header, RowIdSet set, byte[] prefix, int offset)
            throws RowSummaryFormatException
    {
        long rowCount = header.rowCount();
        long distinct = set.cardinality();
        int positionWidth = PackedInts.widthFor(rowCount);
        long positionBytes = PackedInts.bytesFor(rowCount, positionWidth);
        OrderLayout layout;
        if (distinct == rowCount) {
            layout = new OrderLayout(ORDER_PERMUTED, rowCount, distinct, positionWidth, 0, 0, 0, positionBytes);
        }
        else {
            requireCorrupt(prefix.length - offset >= REPEATED_PREFIX, "the repeated order's row count is missing");
            long physical = ByteBuffer.wrap(prefix).order(ByteOrder.LITTLE_ENDIAN).getLong(offset);
            requireCorrupt(physical == rowCount, "the repeated order counts " + physical + " rows, the header " + rowCount);
            int offsetWidth = PackedInts.widthFor(rowCount + 1);
            long offsetBytes = PackedInts.bytesFor(distinct + 1, offsetWidth);
            layout = new OrderLayout(ORDER_REPEATED, rowCount, distinct, positionWidth, offsetWidth, REPEATED_PREFIX, REPEATED_PREFIX + offsetBytes,
                    REPEATED_PREFIX + offsetBytes + positionBytes);
        }
        requireCorrupt(layout.length() == header.orderLength(), "the order is " + header.orderLength() + " bytes, its layout " + layout.length());
        return layout;
    }

    /** The whole order half and the set: the full summary, checked to be consistent (a permutation, ascending runs). */
    public static RowSummary decodeSummary(RowSummaryHeader header, RowIdSet set, byte[] order)
            throws RowSummaryFormatException
    {
        if (header.orderLength() == 0) {
            return summary(header.rowCount(), set, new RowOrder.Ascending());
        }
        requireCorrupt(order.length == header.orderLength(), "the order needs " + header.orderLength() + " bytes, got " + order.length);
        OrderLayout layout = decodeOrderLayout(header, set, order, 0);
        int rowCount = Math.toIntExact(header.rowCount());
        int[] positions = unpack(order, Math.toIntExact(layout.positionsStart()), rowCount, layout.positionWidth());
        requirePaddingZero(order, layout.positionsStart(), rowCount, layout.positionWidth());
        if (layout.tag() == ORDER_PERMUTED) {
            return summary(rowCount, set, new RowOrder.Permuted(positions));
        }
        int[] offsets = unpack(order, Math.toIntExact(layout.offsetsStart()), Math.toIntExact(set.cardinality() + 1), layout.offsetWidth());
        requirePaddingZero(order, layout.offsetsStart(), set.cardinality() + 1, layout.offsetWidth());
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

    /** The unused high bits of a packed region's last byte are 0. */
    private static void requirePaddingZero(byte[] bytes, long regionStart, long count, int width)
            throws RowSummaryFormatException
    {
        long bits = count * width;
        int used = (int) (bits & 7);
        if (used != 0) {
            int last = bytes[Math.toIntExact(regionStart + (bits >>> 3))] & 0xFF;
            requireCorrupt((last >>> used) == 0, "padding bits of a packed region are set");
        }
    }

    static void requireCorrupt(boolean condition, String message)
            throws RowSummaryFormatException
    {
        if (!condition) {
            throw new RowSummaryFormatException(Kind.CORRUPT, message);
        }
    }
}
