package io.moraine.sidecars.rowsum;

/**
 * The row ids a data file holds, each once. {@link #rank} is what indexes a summary's order: the id of rank {@code r}
 * sits at {@code order[r]} (or at rank itself when the order is ascending).
 */
public sealed interface RowIdSet
        permits DenseRowIds, RoaringRowIds, SortedRowIds
{
    boolean contains(long rowId);

    /** The number of ids in the set strictly smaller than {@code rowId}; for a member, its index in ascending order. */
    long rank(long rowId);

    long cardinality();

    /** The ids in ascending order. */
    long[] toArray();
}
