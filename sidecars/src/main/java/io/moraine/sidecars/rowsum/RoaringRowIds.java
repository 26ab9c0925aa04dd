package io.moraine.sidecars.rowsum;

import org.roaringbitmap.RoaringBitmap;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Ids in a 64-bit Roaring set: one 32-bit {@link RoaringBitmap} of low words per high word, as CRoaring's and
 * roaring-rs's treemaps (and Java's {@code Roaring64NavigableMap}) hold them. Rank is the cardinality before the high
 * word plus the low bitmap's own rank. Serialized as the portable 64-bit format, decoded with RoaringBitmap's
 * bulk {@code ByteBuffer} path.
 */
public final class RoaringRowIds
        implements RowIdSet
{
    private final int[] highs;
    private final RoaringBitmap[] lows;
    /** {@code before[i]}: the ids under high words before {@code highs[i]}; one entry more than {@code highs}. */
    private final long[] before;

    private RoaringRowIds(int[] highs, RoaringBitmap[] lows)
    {
        this.highs = highs;
        this.lows = lows;
        this.before = new long[highs.length + 1];
        for (int i = 0; i < highs.length; i++) {
            if (highs[i] < 0 || (i > 0 && highs[i] <= highs[i - 1]) || lows[i].isEmpty()) {
                throw new IllegalArgumentException("a 64-bit Roaring set needs non-empty bitmaps under strictly ascending, non-negative "
                        + "high words; bitmap " + i + " has high word " + highs[i]);
            }
            before[i + 1] = before[i] + lows[i].getLongCardinality();
        }
    }

    /** {@code sortedIds} strictly ascending and non-negative. */
    public static RoaringRowIds of(long[] sortedIds)
    {
        int groups = 0;
        for (int i = 0; i < sortedIds.length; i++) {
            if (sortedIds[i] < 0 || (i > 0 && sortedIds[i] <= sortedIds[i - 1])) {
                throw new IllegalArgumentException("row ids must be non-negative and strictly ascending; index " + i + " holds " + sortedIds[i]);
            }
            if (i == 0 || high(sortedIds[i]) != high(sortedIds[i - 1])) {
                groups++;
            }
        }
        int[] highs = new int[groups];
        RoaringBitmap[] lows = new RoaringBitmap[groups];
        int[] low = new int[sortedIds.length];
        for (int i = 0; i < sortedIds.length; i++) {
            low[i] = (int) sortedIds[i];
        }
        int group = 0;
        for (int start = 0; start < sortedIds.length; group++) {
            int end = start;
            while (end < sortedIds.length && high(sortedIds[end]) == high(sortedIds[start])) {
                end++;
            }
            highs[group] = high(sortedIds[start]);
            lows[group] = new RoaringBitmap();
            lows[group].addN(low, start, end - start);
            lows[group].runOptimize();
            start = end;
        }
        return new RoaringRowIds(highs, lows);
    }

    private static int high(long id)
    {
        return (int) (id >>> 32);
    }

    @Override
    public boolean contains(long rowId)
    {
        if (rowId < 0) {
            return false;
        }
        int index = Arrays.binarySearch(highs, high(rowId));
        return index >= 0 && lows[index].contains((int) rowId);
    }

    @Override
    public long rank(long rowId)
    {
        if (rowId <= 0) {
            return 0;
        }
        long last = rowId - 1;
        int index = Arrays.binarySearch(highs, high(last));
        if (index < 0) {
            return before[-index - 1];
        }
        // rankLong counts the values <= its (unsigned) argument
        return before[index] + lows[index].rankLong((int) last);
    }

    @Override
    public long cardinality()
    {
        return before[highs.length];
    }

    @Override
    public long[] toArray()
    {
        long[] ids = new long[Math.toIntExact(cardinality())];
        int next = 0;
        for (int i = 0; i < highs.length; i++) {
            long high = (long) highs[i] << 32;
            for (int low : lows[i].toArray()) {
                ids[next++] = high | Integer.toUnsignedLong(low);
            }
        }
        return ids;
    }

    /** Bytes of the portable 64-bit serialization. */
    public int serializedSize()
    {
        long size = 8;
        for (RoaringBitmap low : lows) {
            size += 4 + low.serializedSizeInBytes();
        }
        return Math.toIntExact(size);
    }

    /** The portable 64-bit serialization: a u64 count, then per bitmap its u32 high word and the 32-bit portable form. */
    public void serialize(ByteBuffer out)
    {
        ByteBuffer little = out.order(ByteOrder.LITTLE_ENDIAN);
        little.putLong(highs.length);
        for (int i = 0; i < highs.length; i++) {
            little.putInt(highs[i]);
            ByteBuffer slice = little.slice().order(ByteOrder.LITTLE_ENDIAN);
            lows[i].serialize(slice);
            little.position(little.position() + slice.position());
        }
    }

    /** Reads the portable 64-bit serialization from {@code in}'s position, leaving it after the last bitmap. */
    public static RoaringRowIds deserialize(ByteBuffer in)
            throws IOException
    {
        ByteBuffer little = in.order(ByteOrder.LITTLE_ENDIAN);
        long count = little.getLong();
        // every bitmap takes at least a high word and a cookie
        if (count < 0 || count > little.remaining() / 8) {
            throw new IOException("a 64-bit Roaring set of " + count + " bitmaps in " + little.remaining() + " bytes");
        }
        int[] highs = new int[(int) count];
        RoaringBitmap[] lows = new RoaringBitmap[(int) count];
        for (int i = 0; i < count; i++) {
            highs[i] = little.getInt();
            requirePlausibleContainerCount(little);
            lows[i] = new RoaringBitmap();
            lows[i].deserialize(little.slice().order(ByteOrder.LITTLE_ENDIAN));
            little.position(little.position() + lows[i].serializedSizeInBytes());
        }
        try {
            return new RoaringRowIds(highs, lows);
        }
        catch (IllegalArgumentException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    /** A damaged container count must not make RoaringBitmap allocate for billions of containers. */
    private static void requirePlausibleContainerCount(ByteBuffer in)
            throws IOException
    {
        if (in.remaining() < 4) {
            throw new IOException("a 32-bit Roaring bitmap needs a cookie, " + in.remaining() + " bytes left");
        }
        int cookie = in.getInt(in.position());
        long containers;
        if ((cookie & 0xFFFF) == 12347) {
            containers = (cookie >>> 16) + 1L;
        }
        else if (cookie == 12346 && in.remaining() >= 8) {
            containers = Integer.toUnsignedLong(in.getInt(in.position() + 4));
        }
        else {
            throw new IOException("not a portable 32-bit Roaring bitmap (cookie " + cookie + ")");
        }
        // each container takes at least a 4-byte key/cardinality entry
        if (containers > 65_536 || containers * 4 > in.remaining()) {
            throw new IOException("a 32-bit Roaring bitmap of " + containers + " containers in " + in.remaining() + " bytes");
        }
    }

    @Override
    public boolean equals(Object other)
    {
        return other instanceof RoaringRowIds that && Arrays.equals(highs, that.highs) && Arrays.equals(lows, that.lows);
    }

    @Override
    public int hashCode()
    {
        return 31 * Arrays.hashCode(highs) + Arrays.hashCode(lows);
    }

    @Override
    public String toString()
    {
        return "RoaringRowIds[" + cardinality() + " ids in " + highs.length + " bitmaps]";
    }
}
