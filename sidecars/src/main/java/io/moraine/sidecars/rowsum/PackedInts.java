package io.moraine.sidecars.rowsum;

/**
 * Fixed-width unsigned integers packed LSB-first into a byte stream: entry {@code i} occupies stream bits
 * {@code [i*w, (i+1)*w)}, stream bit {@code b} being bit {@code b % 8} (value 1 << (b % 8)) of byte {@code b / 8}, and
 * an entry's low bit comes first. Entry {@code i} is therefore found by arithmetic alone, with no index.
 */
public final class PackedInts
{
    private PackedInts() {}

    /** ceil(log2(count)): the width that holds every value in {@code 0 .. count - 1}; 0 when count <= 1. */
    public static int widthFor(long count)
    {
        if (count < 0) {
            throw new IllegalArgumentException("count must be non-negative, got " + count);
        }
        return count <= 1 ? 0 : 64 - Long.numberOfLeadingZeros(count - 1);
    }

    public static long bytesFor(long entries, int width)
    {
        return Math.ceilDiv(Math.multiplyExact(entries, (long) width), 8L);
    }

    /** The first byte and byte count holding entry {@code index}: what a ranged read of one entry fetches. */
    public static long firstByte(long index, int width)
    {
        return Math.multiplyExact(index, (long) width) >>> 3;
    }

    public static int bytesSpanned(long index, int width)
    {
        if (width == 0) {
            return 0;
        }
        long bit = Math.multiplyExact(index, (long) width);
        return (int) (((bit & 7) + width + 7) >>> 3);
    }

    /** Writes entry {@code index} into zeroed bits; refuses a value the width cannot hold rather than truncating it. */
    public static void put(byte[] buffer, int base, long index, int width, long value)
    {
        if (value < 0 || (width < 64 && (value >>> width) != 0)) {
            throw new IllegalArgumentException("value " + value + " does not fit in " + width + " bits");
        }
        long bit = (long) base * 8 + index * width;
        int remaining = width;
        while (remaining > 0) {
            int byteIndex = (int) (bit >>> 3);
            int bitOffset = (int) (bit & 7);
            int take = Math.min(8 - bitOffset, remaining);
            buffer[byteIndex] |= (byte) ((value & ((1 << take) - 1)) << bitOffset);
            value >>>= take;
            remaining -= take;
            bit += take;
        }
    }

    public static long get(byte[] buffer, int base, long index, int width)
    {
        return getAtBit(buffer, (long) base * 8 + index * width, width);
    }

    /**
     * Entries {@code 0 .. values.length - 1} of the region at {@code base}: whole-order decoding, eight bytes per entry
     * read at once where the buffer allows.
     */
    public static void unpack(byte[] buffer, int base, int width, int[] values)
    {
        if (width > 32) {
            throw new IllegalArgumentException("int entries are at most 32 bits wide, got " + width);
        }
        if (width == 0) {
            java.util.Arrays.fill(values, 0);
            return;
        }
        long mask = (1L << width) - 1;
        long bit = (long) base * 8;
        int i = 0;
        // a 64-bit window holds any entry of up to 57 bits at any bit offset
        for (; i < values.length && (bit >>> 3) + 8 <= buffer.length; i++, bit += width) {
            values[i] = (int) (((long) LONG_LE.get(buffer, (int) (bit >>> 3)) >>> (bit & 7)) & mask);
        }
        for (; i < values.length; i++, bit += width) {
            values[i] = (int) getAtBit(buffer, bit, width);
        }
    }

    private static final java.lang.invoke.VarHandle LONG_LE =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);

    /** The {@code width}-bit value starting at stream bit {@code bit} of {@code buffer}. */
    public static long getAtBit(byte[] buffer, long bit, int width)
    {
        long value = 0;
        int shift = 0;
        int remaining = width;
        while (remaining > 0) {
            int byteIndex = (int) (bit >>> 3);
            int bitOffset = (int) (bit & 7);
            int take = Math.min(8 - bitOffset, remaining);
            long bits = ((buffer[byteIndex] & 0xFF) >>> bitOffset) & ((1 << take) - 1);
            value |= bits << shift;
            shift += take;
            remaining -= take;
            bit += take;
        }
        return value;
    }
}
