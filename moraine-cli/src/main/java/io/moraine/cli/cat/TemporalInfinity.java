package io.moraine.cli.cat;

/** DuckDB's {@code infinity} and {@code -infinity} dates and timestamps, which java.time cannot hold. */
public enum TemporalInfinity
{
    INFINITY, MINUS_INFINITY;

    /** DuckDB stores them as the largest and the negated largest value of the date's or timestamp's integer. */
    static TemporalInfinity of(long value, long largest)
    {
        if (value == largest) {
            return INFINITY;
        }
        if (value == -largest) {
            return MINUS_INFINITY;
        }
        return null;
    }
}
