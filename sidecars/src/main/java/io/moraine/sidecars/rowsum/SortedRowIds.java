package io.moraine.sidecars.rowsum;

import java.util.Arrays;

/** Strictly ascending ids, answered by binary search; the encoding a writer picks when it is smaller than Roaring. */
public final class SortedRowIds
        implements RowIdSet
{
    private final long[] ids;

    /** {@code ids} must be strictly ascending and non-negative; the array is kept, not copied. */
    public SortedRowIds(long[] ids)
    {
        for (int i = 0; i < ids.length; i++) {
            if (ids[i] < 0 || (i > 0 && ids[i] <= ids[i - 1])) {
                throw new IllegalArgumentException("sorted row ids must be non-negative and strictly ascending; index "
                        + i + " holds " + ids[i]);
            }
        }
        this.ids = ids;
    }

    @Override
    public boolean contains(long rowId)
    {
        return Arrays.binarySearch(ids, rowId) >= 0;
    }

    @Override
    public long rank(long rowId)
    {
        int found = Arrays.binarySearch(ids, rowId);
        return found >= 0 ? found : -found - 1;
    }

    @Override
    public long cardinality()
    {
        return ids.length;
    }

    @Override
    public long[] toArray()
    {
        return ids.clone();
    }

    @Override
    public boolean equals(Object other)
    {
        return other instanceof SortedRowIds that && Arrays.equals(ids, that.ids);
    }

    @Override
    public int hashCode()
    {
        return Arrays.hashCode(ids);
    }

    @Override
    public String toString()
    {
        return "SortedRowIds[" + ids.length + " ids]";
    }
}
