package io.moraine.core.stats;

import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * What is known about one column's values at a snapshot; an empty part is unknown (and must not be guessed).
 *
 * @param min a lower bound of the column's non-NULL values, in {@code DuckLakeValues}' class for the type
 * @param max an upper bound of the column's non-NULL values
 * @param nullsFraction the fraction of the table's rows whose value is NULL, exact
 * @param dataSizeBytes the column's bytes in the data files (as written, compressed), an estimate
 */
public record ColumnStatistics(Optional<Object> min, Optional<Object> max, OptionalDouble nullsFraction, OptionalLong dataSizeBytes)
{
    public static final ColumnStatistics UNKNOWN = new ColumnStatistics(Optional.empty(), Optional.empty(), OptionalDouble.empty(), OptionalLong.empty());

    public ColumnStatistics
    {
        requireNonNull(min, "min is null");
        requireNonNull(max, "max is null");
        requireNonNull(nullsFraction, "nullsFraction is null");
        requireNonNull(dataSizeBytes, "dataSizeBytes is null");
    }
}
