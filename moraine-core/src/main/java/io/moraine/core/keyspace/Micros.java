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

    public static Instant toInstant(long micros)
    {
        return Instant.EPOCH.plus(micros, ChronoUnit.MICROS);
    }
}
