package io.moraine.core.scan;

import io.moraine.core.types.DuckLakeValues;

import java.io.Serializable;
import java.util.Optional;

/**
 * A range of non-NULL values of one column: an optional lower and upper bound, each inclusive or not. Bounds are
 * values in moraine's class for the column's type ({@link DuckLakeValues}); {@link ScanBuilder} normalises what an
 * engine hands over.
 */
public record ValueRange(Optional<Object> low, boolean lowInclusive, Optional<Object> high, boolean highInclusive)
        implements Serializable
{
    public static ValueRange all()
    {
        return new ValueRange(Optional.empty(), false, Optional.empty(), false);
    }

    public static ValueRange equalTo(Object value)
    {
        return new ValueRange(Optional.of(value), true, Optional.of(value), true);
    }

    public static ValueRange greaterThan(Object value, boolean inclusive)
    {
        return new ValueRange(Optional.of(value), inclusive, Optional.empty(), false);
    }

    public static ValueRange lessThan(Object value, boolean inclusive)
    {
        return new ValueRange(Optional.empty(), false, Optional.of(value), inclusive);
    }

    /** Whether this range is one value ({@code low = high}, both inclusive). */
    public boolean isSingleValue()
    {
        return low.isPresent() && high.isPresent() && lowInclusive && highInclusive && DuckLakeValues.compare(low.get(), high.get()) == 0;
    }

    /** Whether some value in {@code [min, max]} lies in this range. */
    public boolean overlaps(Object min, Object max)
    {
        if (low.isPresent()) {
            int compared = DuckLakeValues.compare(max, low.get());
            if (compared < 0 || compared == 0 && !lowInclusive) {
                return false;
            }
        }
        if (high.isPresent()) {
            int compared = DuckLakeValues.compare(min, high.get());
            return compared < 0 || compared == 0 && highInclusive;
        }
        return true;
    }

    public boolean contains(Object value)
    {
        return overlaps(value, value);
    }
}
