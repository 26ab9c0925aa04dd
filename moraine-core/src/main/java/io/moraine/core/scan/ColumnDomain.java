package io.moraine.core.scan;

import java.io.Serializable;
import java.util.List;

/**
 * The values a query accepts in one column: any of {@code ranges} (a union; empty means no non-NULL value), and NULL
 * when {@code nullAllowed}. {@code x = 1 OR x IN (4, 5)} is three single-value ranges; {@code x IS NULL} is no range
 * with NULL allowed; {@code x IS NOT NULL} is {@link ValueRange#all()} without NULL.
 */
public record ColumnDomain(List<ValueRange> ranges, boolean nullAllowed)
        implements Serializable
{
    public ColumnDomain
    {
        ranges = List.copyOf(ranges);
    }

    public static ColumnDomain of(ValueRange range)
    {
        return new ColumnDomain(List.of(range), false);
    }

    public static ColumnDomain onlyNull()
    {
        return new ColumnDomain(List.of(), true);
    }

    public static ColumnDomain notNull()
    {
        return new ColumnDomain(List.of(ValueRange.all()), false);
    }

    /** {@code IN (values)}; NULL not accepted. */
    public static ColumnDomain values(List<?> values)
    {
        return new ColumnDomain(values.stream().map(ValueRange::equalTo).toList(), false);
    }

    /** Whether no value at all is accepted: no range and no NULL. */
    public boolean isNone()
    {
        return ranges.isEmpty() && !nullAllowed;
    }

    /** Whether every range is a single value: an equality or IN list (what bucket partitions can prune on). */
    public boolean isDiscrete()
    {
        return !ranges.isEmpty() && ranges.stream().allMatch(ValueRange::isSingleValue);
    }

    /** Whether a non-NULL {@code value} is accepted. */
    public boolean accepts(Object value)
    {
        return ranges.stream().anyMatch(range -> range.contains(value));
    }
}
