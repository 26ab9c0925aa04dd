package io.moraine.duckdb.ext;

import io.moraine.core.row.InsertionOrder;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;

import java.util.List;
import java.util.function.IntUnaryOperator;

/**
 * The column a catalog kind's rows are served ascending by (a NULL first): the first of the core's
 * {@link InsertionOrder#columns} (ducklake_snapshot's snapshot_id, a versioned kind's begin_snapshot, ducklake_data_file's
 * data_file_id...). The rows whose value lies in a range are one run of positions, found by binary search, and the
 * column's range is its first and last value. A scan filtered on it, or DuckDB asking MAX(snapshot_id), then costs
 * O(log n) rather than a pass over the lake's whole history.
 */
final class LeadingKeyColumn
{
    private LeadingKeyColumn() {}

    /** The index of the column {@code kind}'s rows are served ascending by, or -1 when there is none. */
    static int of(TableKind kind)
    {
        int[] order = InsertionOrder.columns(kind);
        return order.length == 0 ? -1 : order[0];
    }

    /**
     * For a scan of {@code rows} (served in that order, then rows inserted after position {@code rows.size()}): the next
     * position at or after a given one that can hold a row whose {@code column} lies in {@code bounds} ({@code {low,
     * high}}, as {@link ScanFilter#bounds}); every inserted row is a candidate.
     */
    static IntUnaryOperator candidates(List<Row> rows, int column, long[] bounds)
    {
        int size = rows.size();
        int from = bounds[0] > bounds[1] ? size : firstAtLeast(rows, column, bounds[0]);
        int to = bounds[0] > bounds[1] || bounds[1] == Long.MAX_VALUE ? size : firstAtLeast(rows, column, bounds[1] + 1);
        return position -> {
            if (position < from) {
                return from;
            }
            return position >= to && position < size ? size : position;
        };
    }

    /** {@code {min, max, 1 if a row holds NULL there else 0}} of {@code column} over {@code rows} (served in that order), or null when no row holds a value. */
    static long[] range(List<Row> rows, int column)
    {
        int first = firstAtLeast(rows, column, Long.MIN_VALUE);
        if (first == rows.size()) {
            return null;
        }
        return new long[] {(Long) rows.get(first).get(column), (Long) rows.getLast().get(column), first > 0 ? 1 : 0};
    }

    /** The first position whose value in {@code column} is at least {@code value} (a NULL is less than every value). */
    private static int firstAtLeast(List<Row> rows, int column, long value)
    {
        int low = 0;
        int high = rows.size();
        while (low < high) {
            int middle = (low + high) >>> 1;
            if (rows.get(middle).get(column) instanceof Long cell && cell >= value) {
                high = middle;
            }
            else {
                low = middle + 1;
            }
        }
        return low;
    }
}
