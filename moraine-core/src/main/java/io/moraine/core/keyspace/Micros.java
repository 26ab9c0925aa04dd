package io.moraine.core.keyspace;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** Conversions between instants and microseconds since the epoch, DuckDB's TIMESTAMPTZ resolution. */
public final class Micros
{
    private Micros() {}

    public static long of(Instant instant)
    {
        return ChronoUnit.MICROS.between(Instant.EPOCH, instant);
    }

    /** The whole microsecond at or before {@code instant}; instants beyond a long's range saturate. */
    public static long floorOf(Instant instant)
    {
        try {
            return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1_000);
        }
        catch (ArithmeticException e) {
            return instant.getEpochSecond() < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }

    /** The whole microsecond at or after {@code instant}; instants beyond a long's range saturate. */
    public static long ceilOf(Instant instant)
    {
        long floor = floorOf(instant);
        return instant.getNano() % 1_000 == 0 || floor == Long.MAX_VALUE ? floor : floor + 1;
    }

    public static Instant toInstant(long micros)
    {
        return Instant.EPOCH.plus(micros, ChronoUnit.MICROS);
    }
}
