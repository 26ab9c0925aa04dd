package io.moraine.duckdb.ext;

import io.moraine.core.row.Row;

import java.util.List;
import java.util.function.IntFunction;

/** The exact range of a BIGINT column over rows, as {@link ServedTable#bigintRange} reports it. */
final class BigintRange
{
    private BigintRange() {}

    /** {@code {min, max, 1 if a row holds NULL there else 0}}, or null when no row holds a value; null rows are skipped. */
    static long[] of(int size, IntFunction<Row> rowAt, int column)
    {
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        boolean values = false;
        boolean nulls = false;
        for (int position = 0; position < size; position++) {
            Row row = rowAt.apply(position);
            if (row == null) {
                continue;
            }
            if (row.get(column) instanceof Long value) {
                min = Math.min(min, value);
                max = Math.max(max, value);
                values = true;
            }
            else {
                nulls = true;
            }
        }
        return values ? new long[] {min, max, nulls ? 1 : 0} : null;
    }

    /**
     * The ranges of the last few committed row lists asked for, by list identity: the catalog hands every transaction
     * that reads a version of a table the same unmodifiable list, and concurrent DuckLake transactions ask for the
     * same range (MAX(snapshot_id)) of the same version.
     */
    static final class Recent
    {
        private static final int KEPT = 8;

        private record Entry(List<Row> rows, int column, long[] range) {}

        private final Entry[] entries = new Entry[KEPT];
        private int next;

        long[] get(List<Row> rows, int column)
        {
            synchronized (this) {
                for (Entry entry : entries) {
                    if (entry != null && entry.rows() == rows && entry.column() == column) {
                        return entry.range();
                    }
                }
            }
            long[] range = of(rows.size(), rows::get, column);
            synchronized (this) {
                entries[next] = new Entry(rows, column, range);
                next = (next + 1) % KEPT;
            }
            return range;
        }
    }
}
