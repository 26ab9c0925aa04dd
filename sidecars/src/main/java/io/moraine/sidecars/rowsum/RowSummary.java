package io.moraine.sidecars.rowsum;


import java.util.Arrays;
import java.util.BitSet;

import static java.util.Objects.requireNonNull;

/**
 * A data file's row summary: the set of row ids it holds and where each sits. Describes the file physically — deleted
 * rows included — so it is correct for as long as the file exists.
 */
public record RowSummary(long rowCount, RowIdSet set, RowOrder order)
{
    public RowSummary
    {
        requireNonNull(set, "set");
        requireNonNull(order, "order");
        if (rowCount < 0 || rowCount > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("row count must be in 0.." + Integer.MAX_VALUE + ", got " + rowCount);
        }
        validate(rowCount, set, order);
    }

    /** Derives the summary from a file's row-id column in file order (position {@code p} holds {@code ids[p]}). */
    public static RowSummary fromFileOrder(long[] idsInFileOrder)
    {
        int n = idsInFileOrder.length;
        if (isStrictlyAscending(idsInFileOrder)) {
            return new RowSummary(n, setOf(idsInFileOrder), new RowOrder.Ascending());
        }
        long[] distinct = sortedDistinct(idsInFileOrder);
        int k = distinct.length;
        RowIdSet set = setOf(distinct);
        if (k == n) {
            int[] positions = new int[n];
            for (int p = 0; p < n; p++) {
                positions[Arrays.binarySearch(distinct, idsInFileOrder[p])] = p;
            }
            return new RowSummary(n, set, new RowOrder.Permuted(positions));
        }
        int[] ranks = new int[n];
        int[] offsets = new int[k + 1];
        for (int p = 0; p < n; p++) {
            ranks[p] = Arrays.binarySearch(distinct, idsInFileOrder[p]);
            offsets[ranks[p] + 1]++;
        }
        for (int r = 0; r < k; r++) {
            offsets[r + 1] += offsets[r];
        }
        int[] next = Arrays.copyOf(offsets, k);
        int[] positions = new int[n];
        for (int p = 0; p < n; p++) {
            positions[next[ranks[p]]++] = p;
        }
        return new RowSummary(n, set, new RowOrder.Repeated(offsets, positions));
    }

    /** The set alone, from a row-id column in file order: all a membership lookup needs. */
    public static RowIdSet setOfFileOrder(long[] idsInFileOrder)
    {
        return setOf(sortedDistinct(idsInFileOrder));
    }

    private static long[] sortedDistinct(long[] ids)
    {
        long[] sorted = ids.clone();
        Arrays.sort(sorted);
        int k = 0;
        for (int i = 0; i < sorted.length; i++) {
            if (i == 0 || sorted[i] != sorted[k - 1]) {
                sorted[k++] = sorted[i];
            }
        }
        return k == sorted.length ? sorted : Arrays.copyOf(sorted, k);
    }

    /** The set encoding a writer picks for strictly ascending ids: a dense range when there are no gaps, else the smaller. */
    public static RowIdSet setOf(long[] sortedDistinctIds)
    {
        int k = sortedDistinctIds.length;
        if (k == 0) {
            return new DenseRowIds(0, 0);
        }
        if (sortedDistinctIds[k - 1] - sortedDistinctIds[0] == k - 1 && sortedDistinctIds[0] >= 0) {
            return new DenseRowIds(sortedDistinctIds[0], k);
        }
        RoaringRowIds roaring = RoaringRowIds.of(sortedDistinctIds);
        long roaringBytes = roaring.serializedSize();
        return roaringBytes <= 8L * k ? roaring : new SortedRowIds(sortedDistinctIds);
    }

    /** The positions holding {@code rowId}, ascending; empty when the file does not hold it. */
    public int[] positionsOf(long rowId)
    {
        if (!set.contains(rowId)) {
            return new int[0];
        }
        int rank = Math.toIntExact(set.rank(rowId));
        return switch (order) {
            case RowOrder.Ascending ignored -> new int[] {rank};
            case RowOrder.Permuted permuted -> new int[] {permuted.positions()[rank]};
            case RowOrder.Repeated repeated -> Arrays.copyOfRange(repeated.positions(), repeated.offsets()[rank], repeated.offsets()[rank + 1]);
        };
    }

    private static boolean isStrictlyAscending(long[] ids)
    {
        for (int i = 1; i < ids.length; i++) {
            if (ids[i] <= ids[i - 1]) {
                return false;
            }
        }
        return true;
    }

    private static void validate(long rowCount, RowIdSet set, RowOrder order)
    {
        long cardinality = set.cardinality();
        switch (order) {
            case RowOrder.Ascending ignored -> require(cardinality == rowCount,
                    "an ascending summary holds one id per row: " + cardinality + " ids for " + rowCount + " rows");
            case RowOrder.Permuted permuted -> {
                require(cardinality == rowCount && permuted.positions().length == rowCount,
                        "a permuted summary holds one id and one position per row: " + cardinality + " ids, "
                                + permuted.positions().length + " positions, " + rowCount + " rows");
                requireEachPositionOnce(rowCount, permuted.positions());
            }
            case RowOrder.Repeated repeated -> {
                int[] offsets = repeated.offsets();
                require(offsets.length == cardinality + 1 && repeated.positions().length == rowCount,
                        "a repeated summary needs one offset per id plus one and one position per row: " + offsets.length
                                + " offsets, " + cardinality + " ids, " + repeated.positions().length + " positions, " + rowCount + " rows");
                require(offsets[0] == 0 && offsets[offsets.length - 1] == rowCount,
                        "repeated offsets must run from 0 to the row count " + rowCount);
                for (int r = 0; r < cardinality; r++) {
                    if (offsets[r + 1] <= offsets[r]) {
                        throw new IllegalArgumentException("every id of a repeated summary has a position; rank " + r + " has none");
                    }
                    if (offsets[r + 1] > rowCount) {
                        throw new IllegalArgumentException("repeated offset " + offsets[r + 1] + " at rank " + (r + 1) + " is past the row count " + rowCount);
                    }
                    for (int i = offsets[r] + 1; i < offsets[r + 1]; i++) {
                        if (repeated.positions()[i] <= repeated.positions()[i - 1]) {
                            throw new IllegalArgumentException("the positions of one id ascend; rank " + r + " does not");
                        }
                    }
                }
                requireEachPositionOnce(rowCount, repeated.positions());
            }
        }
    }

    private static void requireEachPositionOnce(long rowCount, int[] positions)
    {
        BitSet seen = new BitSet(Math.toIntExact(rowCount));
        // checked before any message is built: this runs per row
        for (int position : positions) {
            if (position < 0 || position >= rowCount) {
                throw new IllegalArgumentException("position " + position + " is outside 0.." + (rowCount - 1));
            }
            if (seen.get(position)) {
                throw new IllegalArgumentException("position " + position + " appears twice");
            }
            seen.set(position);
        }
    }

    private static void require(boolean condition, String message)
    {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }

}
