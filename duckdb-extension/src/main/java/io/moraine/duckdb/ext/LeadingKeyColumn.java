package io.moraine.duckdb.ext;

import io.moraine.core.catalog.ColumnType;
import io.moraine.core.catalog.Row;
import io.moraine.core.catalog.TableKind;

import java.util.List;
import java.util.function.IntUnaryOperator;

/**
 * The first key column of a catalog kind that is not versioned, when it is a BIGINT (ducklake_snapshot's snapshot_id,
 * the table_id of the stats tables...). The core serves such a kind's rows in key order, so ascending by that column
 * (a NULL first): the rows whose value lies in a range are one run of positions, found by binary search, and the
 * column's range is its first and last value. A scan filtered on it, or DuckDB asking MAX(snapshot_id), then costs
 * O(log n) rather than a pass over the lake's whole history.
 */
final class LeadingKeyColumn
{
    private LeadingKeyColumn() {}

    /** The index of {@code kind}'s leading BIGINT key column, or -1 when its rows are not served in that column's order. */
    static int of(TableKind kind)
    {
        if (kind.isVersioned() || kind == TableKind.METADATA) {
            return -1;
        }
        int first = kind.keyColumnIndexes()[0];
        return kind.columns().get(first).type() == ColumnType.BIGINT ? first : -1;
    }

    /**
     * For a scan of {@code rows} (in key order, then rows inserted after position {@code rows.size()}): the next
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

    /** {@code {min, max, 1 if a row holds NULL there else 0}} of {@code column} over {@code rows} (in key order), or null when no row holds a value. */
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
