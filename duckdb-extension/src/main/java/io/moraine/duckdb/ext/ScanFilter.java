package io.moraine.duckdb.ext;

import io.moraine.core.error.InvalidArgumentException;

import java.util.function.IntFunction;

/**
 * The BIGINT comparisons with a constant that DuckDB pushed into a scan and that every surviving row meets (e.g.
 * {@code snapshot_id = 42} once the build side of DuckLake's {@code snapshot_id = (SELECT MAX(snapshot_id) ...)} join
 * is known). A scan may skip the rows failing one before converting them to Arrow; it need not, since the shim applies
 * every pushed filter to what the scan returns.
 */
final class ScanFilter
{
    static final ScanFilter NONE = new ScanFilter(new int[0], new int[0], new long[0]);

    private static final int EQUAL = 0;
    private static final int LESS = 1;
    private static final int LESS_OR_EQUAL = 2;
    private static final int GREATER = 3;
    private static final int GREATER_OR_EQUAL = 4;

    private final int[] columns;
    private final int[] comparisons;
    private final long[] values;

    private ScanFilter(int[] columns, int[] comparisons, long[] values)
    {
        this.columns = columns;
        this.comparisons = comparisons;
        this.values = values;
    }

    /** {@code encoded}: (table column index, comparison code, value) triples, as the shim sends them. */
    static ScanFilter decode(long[] encoded)
    {
        if (encoded == null || encoded.length == 0) {
            return NONE;
        }
        if (encoded.length % 3 != 0) {
            throw new InvalidArgumentException("pushed scan filters come as (column, comparison, value) triples; got " + encoded.length + " numbers");
        }
        int count = encoded.length / 3;
        int[] columns = new int[count];
        int[] comparisons = new int[count];
        long[] values = new long[count];
        for (int i = 0; i < count; i++) {
            columns[i] = Math.toIntExact(encoded[3 * i]);
            comparisons[i] = Math.toIntExact(encoded[3 * i + 1]);
            if (comparisons[i] < EQUAL || comparisons[i] > GREATER_OR_EQUAL) {
                throw new InvalidArgumentException("unknown pushed comparison code " + comparisons[i]);
            }
            values[i] = encoded[3 * i + 2];
        }
        return new ScanFilter(columns, comparisons, values);
    }

    boolean isEmpty()
    {
        return columns.length == 0;
    }

    /**
     * {@code {low, high}}: every value of {@code column} meeting the comparisons on it lies in {@code [low, high]}
     * (low > high: none does); {@code {Long.MIN_VALUE, Long.MAX_VALUE}} when no comparison names the column.
     */
    long[] bounds(int column)
    {
        long low = Long.MIN_VALUE;
        long high = Long.MAX_VALUE;
        for (int i = 0; i < columns.length; i++) {
            if (columns[i] != column) {
                continue;
            }
            long value = values[i];
            switch (comparisons[i]) {
                case EQUAL -> {
                    low = Math.max(low, value);
                    high = Math.min(high, value);
                }
                case LESS -> {
                    if (value == Long.MIN_VALUE) {
                        return new long[] {1, 0};
                    }
                    high = Math.min(high, value - 1);
                }
                case LESS_OR_EQUAL -> high = Math.min(high, value);
                case GREATER -> {
                    if (value == Long.MAX_VALUE) {
                        return new long[] {1, 0};
                    }
                    low = Math.max(low, value + 1);
                }
                case GREATER_OR_EQUAL -> low = Math.max(low, value);
                default -> throw new IllegalStateException("comparison " + comparisons[i]);
            }
        }
        return new long[] {low, high};
    }

    /** Whether a row whose cells {@code cell} returns by column index meets every comparison (a NULL meets none). */
    boolean test(IntFunction<Object> cell)
    {
        for (int i = 0; i < columns.length; i++) {
            if (!(cell.apply(columns[i]) instanceof Long value) || !holds(comparisons[i], value, values[i])) {
                return false;
            }
        }
        return true;
    }

    private static boolean holds(int comparison, long value, long constant)
    {
        return switch (comparison) {
            case EQUAL -> value == constant;
            case LESS -> value < constant;
            case LESS_OR_EQUAL -> value <= constant;
            case GREATER -> value > constant;
            case GREATER_OR_EQUAL -> value >= constant;
            default -> throw new IllegalStateException("comparison " + comparison);
        };
    }
}
