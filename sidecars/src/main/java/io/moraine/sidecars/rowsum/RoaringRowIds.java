package io.moraine.sidecars.rowsum;

import org.roaringbitmap.longlong.Roaring64NavigableMap;

/**
 * Ids in a 64-bit Roaring bitmap: one 32-bit RoaringBitmap per high word, the structure whose portable serialization
 * is the sidecar's ROARING64 payload. Rank comes from per-container cardinalities.
 */
public final class RoaringRowIds
        implements RowIdSet
{
    private final Roaring64NavigableMap bitmap;

    /** The bitmap is kept, not copied: the caller hands it over. It must hold non-negative ids only. */
    public RoaringRowIds(Roaring64NavigableMap bitmap)
    {
        if (!bitmap.isEmpty() && bitmap.getReverseLongIterator().next() < 0) {
            throw new IllegalArgumentException("row ids are non-negative; the bitmap holds " + bitmap.getReverseLongIterator().next());
        }
        this.bitmap = bitmap;
    }

    public static RoaringRowIds of(long[] sortedIds)
    {
        Roaring64NavigableMap bitmap = new Roaring64NavigableMap();
        bitmap.add(sortedIds);
        bitmap.runOptimize();
        return new RoaringRowIds(bitmap);
    }

    Roaring64NavigableMap bitmap()
    {
        return bitmap;
    }

    @Override
    public boolean contains(long rowId)
    {
        return rowId >= 0 && bitmap.contains(rowId);
    }

    @Override
    public long rank(long rowId)
    {
        if (rowId <= 0) {
            return 0;
        }
        // rankLong counts ids <= its argument
        return bitmap.rankLong(rowId - 1);
    }

    @Override
    public long cardinality()
    {
        return bitmap.getLongCardinality();
    }

    @Override
    public long[] toArray()
    {
        return bitmap.toArray();
    }

    @Override
    public boolean equals(Object other)
    {
        return other instanceof RoaringRowIds that && bitmap.equals(that.bitmap);
    }

    @Override
    public int hashCode()
    {
        return bitmap.hashCode();
    }

    @Override
    public String toString()
    {
        return "RoaringRowIds[" + cardinality() + " ids]";
    }
}
