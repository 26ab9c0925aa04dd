package io.moraine.core.catalog;

import io.moraine.core.error.UnsupportedFeatureException;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.UUID;

/**
 * A value as DuckDB's {@code Value::ToString} prints it (reference §7.3), which is how DuckLake writes identity
 * partition values: integers in decimal, decimals with their scale ({@code 1.50}), {@code true}/{@code false}, ISO
 * dates, {@code 2024-01-15 12:30:00[.ffffff]} timestamps, timestamptz in UTC with {@code +00}, canonical UUIDs and
 * strings as they are. Other types (floats, blobs, ...) are refused rather than guessed.
 */
public final class DuckDbValueText
{
    private DuckDbValueText() {}

    public static String of(Object value)
    {
        return switch (value) {
            case null -> null;
            case Long number -> number.toString();
            case Integer number -> number.toString();
            case String text -> text;
            case Boolean bool -> bool.toString();
            case BigDecimal decimal -> decimal.toPlainString();
            case UUID uuid -> uuid.toString();
            case LocalDate date -> date.toString();
            case LocalDateTime timestamp -> timestamp(timestamp);
            case Instant instant -> timestamp(LocalDateTime.ofInstant(instant, ZoneOffset.UTC)) + "+00";
            default -> throw new UnsupportedFeatureException("a partition value of Java type " + value.getClass().getSimpleName()
                    + " has no known DuckDB text form in moraine. Flush this table with DuckDB: CALL ducklake_flush_inlined_data(...)");
        };
    }

    private static String timestamp(LocalDateTime timestamp)
    {
        return timestamp.toLocalDate() + " " + clock(timestamp.toLocalTime());
    }

    /** {@code HH:MM:SS}, then the microseconds without trailing zeros when there are any. */
    private static String clock(LocalTime time)
    {
        String whole = String.format(Locale.ROOT, "%02d:%02d:%02d", time.getHour(), time.getMinute(), time.getSecond());
        int micros = time.getNano() / 1000;
        if (micros == 0) {
            return whole;
        }
        return whole + "." + String.format(Locale.ROOT, "%06d", micros).replaceAll("0+$", "");
    }
}
