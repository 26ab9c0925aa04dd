package io.moraine.sidecars.rowsum;

import java.util.Arrays;

/**
 * Where each id of a summary's set sits in the data file. Resident positions are {@code int}s (a Parquet file's row
 * count); the sidecar stores them bit-packed.
 */
public sealed interface RowOrder
{
    /** File order is id order: the id of rank {@code r} is at position {@code r}. Nothing is stored. */
    record Ascending()
            implements RowOrder {}

    /** Every id once; {@code positions[r]} is the position of the id of rank {@code r}. */
    record Permuted(int[] positions)
            implements RowOrder
    {
        @Override
        public boolean equals(Object other)
        {
            return other instanceof Permuted that && Arrays.equals(positions, that.positions);
        }

        @Override
        public int hashCode()
        {
            return Arrays.hashCode(positions);
        }

        @Override
        public String toString()
        {
            return "Permuted[" + positions.length + " positions]";
        }
    }

    /**
     * Some ids at several positions (a flushed file keeps a row id's historical versions): the id of rank {@code r} is
     * at {@code positions[offsets[r] .. offsets[r + 1])}, ascending. {@code offsets} has one entry more than the set.
     */
    record Repeated(int[] offsets, int[] positions)
            implements RowOrder
    {
        @Override
        public boolean equals(Object other)
        {
            return other instanceof Repeated that && Arrays.equals(offsets, that.offsets) && Arrays.equals(positions, that.positions);
        }

        @Override
        public int hashCode()
        {
            return 31 * Arrays.hashCode(offsets) + Arrays.hashCode(positions);
        }

        @Override
        public String toString()
        {
            return "Repeated[" + (offsets.length - 1) + " ids at " + positions.length + " positions]";
        }
    }
}
