package io.moraine.core.inline;

/**
 * An order-independent fingerprint of a multiset of row ids: their count, sum and sum of mixed hashes. A flush states
 * the row ids it wrote; the commit compares them with the row ids of the chunks it drains (RFC 0005: a flush whose
 * registered row ids differ from the drained chunks is corruption). Two multisets that differ collide only by chance
 * (about 2^-64 for the hash sum alone).
 */
public final class RowIdMultiset
{
    private long count;
    private long sum;
    private long hashSum;

    public RowIdMultiset add(long rowId)
    {
        count++;
        sum += rowId;
        hashSum += mix(rowId);
        return this;
    }

    /** Adds every row id of {@code [start, end]}. */
    public RowIdMultiset addRange(long start, long end)
    {
        for (long rowId = start; rowId <= end; rowId++) {
            add(rowId);
        }
        return this;
    }

    public long count()
    {
        return count;
    }

    public boolean sameAs(RowIdMultiset other)
    {
        return count == other.count && sum == other.sum && hashSum == other.hashSum;
    }

    @Override
    public String toString()
    {
        return count + " row ids (sum " + sum + ")";
    }

    /** SplitMix64's finalizer: spreads neighbouring ids over all 64 bits. */
    private static long mix(long value)
    {
        long z = value + 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
