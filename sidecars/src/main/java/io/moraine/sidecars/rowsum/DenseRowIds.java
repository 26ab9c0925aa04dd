package io.moraine.sidecars.rowsum;

/** The ids {@code start .. start + count - 1}, every one of them. */
public record DenseRowIds(long start, long count)
        implements RowIdSet
{
    public DenseRowIds
    {
        if (start < 0 || count < 0 || start + count < start) {
            throw new IllegalArgumentException("dense row ids need start >= 0 and count >= 0 without overflow, got start "
                    + start + " count " + count);
        }
    }

    @Override
    public boolean contains(long rowId)
    {
        return rowId >= start && rowId - start < count;
    }

    @Override
    public long rank(long rowId)
    {
        if (rowId <= start) {
            return 0;
        }
        return Math.min(rowId - start, count);
    }

    @Override
    public long cardinality()
    {
        return count;
    }

    @Override
    public long[] toArray()
    {
        long[] ids = new long[Math.toIntExact(count)];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = start + i;
        }
        return ids;
    }
}
