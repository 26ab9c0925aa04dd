package io.moraine.core.catalog;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Catalog cells as text, exactly as DuckDB casts them to VARCHAR (with {@code TimeZone = 'UTC'}): BIGINT in decimal,
 * BOOLEAN as {@code true}/{@code false}, UUID in canonical form, TIMESTAMPTZ as {@code 2026-11-29 15:05:10.5+00}
 * (fraction without trailing zeros). SQL NULL has no text: callers decide how to show it.
 */
public final class CellText
{
    private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss");

    private CellText() {}

    public static String of(Object value)
    {
        return switch (value) {
            case null -> null;
            case Instant instant -> timestamp(instant);
            default -> value.toString();
        };
    }

    private static String timestamp(Instant instant)
    {
        LocalDateTime utc = LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
        StringBuilder text = new StringBuilder(SECONDS.format(utc));
        int micros = utc.getNano() / 1000;
        if (micros != 0) {
            String fraction = String.format("%06d", micros);
            int end = fraction.length();
            while (fraction.charAt(end - 1) == '0') {
                end--;
            }
            text.append('.').append(fraction, 0, end);
        }
        return text.append("+00").toString();
    }
}
