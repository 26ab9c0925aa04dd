package io.moraine.sidecars.rowsum;

import java.io.IOException;
import java.util.Optional;

/**
 * An opened sidecar whose header matched its data file and whose set decoded. Positions are read on demand: a few
 * bytes per id at computed offsets, or the whole order for a full summary. Any failure there is "absent" too — an
 * empty result, counted — and the caller derives from the data file.
 */
public final class RowSummarySidecar
{
    private final DataFileIdentity file;
    private final RowSummaryHeader header;
    private final RowIdSet set;
    private final Optional<OrderLayout> layout;
    private final RangeReader reader;
    private final RowSummaryReader owner;

    RowSummarySidecar(DataFileIdentity file, RowSummaryHeader header, RowIdSet set, Optional<OrderLayout> layout, RangeReader reader, RowSummaryReader owner)
    {
        this.file = file;
        this.header = header;
        this.set = set;
        this.layout = layout;
        this.reader = reader;
        this.owner = owner;
    }

    public RowSummaryHeader header()
    {
        return header;
    }

    /** Membership: all a lookup needs. */
    public RowIdSet set()
    {
        return set;
    }

    /**
     * The positions holding {@code rowId}, ascending, reading only the order entries that name them; an empty array
     * when the file does not hold it, an empty Optional when the order cannot be read.
     */
    public Optional<int[]> positionsOf(long rowId)
    {
        if (!set.contains(rowId)) {
            return Optional.of(new int[0]);
        }
        long rank = set.rank(rowId);
        if (layout.isEmpty()) {
            return Optional.of(new int[] {Math.toIntExact(rank)});
        }
        OrderLayout order = layout.get();
        try {
            if (order.tag() == RowSummaryFormat.ORDER_PERMUTED) {
                return Optional.of(entries(order.positionsStart(), rank, 1, order.positionWidth()));
            }
            int[] bounds = entries(order.offsetsStart(), rank, 2, order.offsetWidth());
            RowSummaryFormat.requireCorrupt(bounds[0] < bounds[1] && bounds[1] <= order.rowCount(), "offsets " + bounds[0] + ".." + bounds[1] + " at rank " + rank);
            int[] positions = entries(order.positionsStart(), bounds[0], bounds[1] - bounds[0], order.positionWidth());
            for (int i = 1; i < positions.length; i++) {
                RowSummaryFormat.requireCorrupt(positions[i] > positions[i - 1], "the positions of rank " + rank + " do not ascend");
            }
            return Optional.of(positions);
        }
        catch (RowSummaryFormatException e) {
            owner.rejected(file, e);
            return Optional.empty();
        }
        catch (IOException e) {
            owner.readError(file, e);
            return Optional.empty();
        }
    }

    /** The whole summary, set and order, with the order's checksum and consistency verified. */
    public Optional<RowSummary> loadSummary()
    {
        try {
            byte[] order = header.orderLength() == 0 ? new byte[0] : readOrder(0, Math.toIntExact(header.orderLength()));
            return Optional.of(RowSummaryFormat.decodeSummary(header, set, order));
        }
        catch (RowSummaryFormatException e) {
            owner.rejected(file, e);
            return Optional.empty();
        }
        catch (IOException e) {
            owner.readError(file, e);
            return Optional.empty();
        }
    }

    /** {@code count} consecutive entries from {@code first} of the region at {@code regionStart}: one ranged read. */
    private int[] entries(long regionStart, long first, int count, int width)
            throws IOException, RowSummaryFormatException
    {
        int[] values = new int[count];
        if (width == 0) {
            return values;
        }
        long firstBit = first * width;
        long lastBit = (first + count) * width;
        long startByte = firstBit >>> 3;
        int length = Math.toIntExact(Math.ceilDiv(lastBit, 8L) - startByte);
        byte[] bytes = readOrder(regionStart + startByte, length);
        for (int i = 0; i < count; i++) {
            long value = PackedInts.getAtBit(bytes, (firstBit & 7) + (long) i * width, width);
            RowSummaryFormat.requireCorrupt(value <= header.rowCount(), "order entry " + value + " beyond " + header.rowCount() + " rows");
            values[i] = (int) value;
        }
        return values;
    }

    private byte[] readOrder(long offsetInOrder, int length)
            throws IOException, RowSummaryFormatException
    {
        owner.metrics().orderRead();
        byte[] bytes = reader.read(header.orderOffset() + offsetInOrder, length);
        if (bytes.length < length) {
            throw new RowSummaryFormatException(RowSummaryFormatException.Kind.SHORT_READ,
                    "the order needs " + length + " bytes at " + offsetInOrder + ", " + bytes.length + " read");
        }
        return bytes;
    }
}
