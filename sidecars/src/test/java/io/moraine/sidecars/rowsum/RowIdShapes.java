package io.moraine.sidecars.rowsum;

import java.util.Arrays;
import java.util.Random;

/** Row-id columns in file order, shaped like the files that carry embedded ids. */
final class RowIdShapes
{
    private RowIdShapes() {}

    static long[] dense(long start, int count)
    {
        long[] ids = new long[count];
        for (int i = 0; i < count; i++) {
            ids[i] = start + i;
        }
        return ids;
    }

    /** {@code count} ids, one in each run of {@code spread} consecutive ids: sparse, as an update rewrite's are. */
    static long[] sparse(int count, int spread, long seed)
    {
        Random random = new Random(seed);
        long[] ids = new long[count];
        for (int i = 0; i < count; i++) {
            ids[i] = (long) i * spread + random.nextInt(spread);
        }
        return ids;
    }

    /** Ids so far apart that every one has its own Roaring high word, so a sorted run is the smaller set. */
    static long[] scattered(int count)
    {
        long[] ids = new long[count];
        for (int i = 0; i < count; i++) {
            ids[i] = ((long) i << 33) + i;
        }
        return ids;
    }

    static long[] shuffled(long[] ids, long seed)
    {
        long[] copy = ids.clone();
        Random random = new Random(seed);
        for (int i = copy.length - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            long t = copy[i];
            copy[i] = copy[j];
            copy[j] = t;
        }
        return copy;
    }

    /**
     * A flushed inline file: some ids kept at several versions, written ordered by (row_id, snapshot) so an id's
     * versions sit at consecutive positions.
     */
    static long[] flushed(long[] distinctAscending, long seed)
    {
        Random random = new Random(seed);
        long[] out = new long[distinctAscending.length * 3];
        int n = 0;
        for (long id : distinctAscending) {
            int versions = random.nextInt(10) < 3 ? 2 + random.nextInt(2) : 1;
            for (int v = 0; v < versions; v++) {
                out[n++] = id;
            }
        }
        return Arrays.copyOf(out, n);
    }
}
