package io.moraine.core.write.maintenance;

import io.moraine.core.error.InvalidArgumentException;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A DuckDB interval as the lake options {@code expire_older_than} and {@code delete_older_than} hold it ({@code 2 days},
 * {@code 1 week}, {@code 36 hours 30 minutes}, {@code 7d}), subtracted from a time as DuckDB subtracts it: months,
 * then days, then the rest.
 */
record DuckDbInterval(long months, long days, long micros)
{
    private static final Pattern PART = Pattern.compile("\\s*(-?\\d+(?:\\.\\d+)?)\\s*([a-zA-Z]+)\\s*");

    static DuckDbInterval parse(String option, String text)
    {
        if (text == null || text.isBlank()) {
            throw new InvalidArgumentException("option " + option + " is empty; give an interval such as '2 days' or '1 week'");
        }
        long months = 0;
        long days = 0;
        long micros = 0;
        Matcher part = PART.matcher(text);
        int at = 0;
        while (at < text.length()) {
            if (!part.find(at) || part.start() != at) {
                throw invalid(option, text);
            }
            double amount = Double.parseDouble(part.group(1));
            String unit = part.group(2).toLowerCase(Locale.ROOT);
            switch (unit) {
                case "millennium", "millennia", "millenniums", "mil", "mils" -> months += whole(option, text, amount * 12_000);
                case "century", "centuries", "cen" -> months += whole(option, text, amount * 1_200);
                case "decade", "decades", "dec", "decs" -> months += whole(option, text, amount * 120);
                case "year", "years", "y", "yr", "yrs" -> months += whole(option, text, amount * 12);
                case "month", "months", "mon", "mons" -> months += whole(option, text, amount);
                case "week", "weeks", "w" -> days += whole(option, text, amount * 7);
                case "day", "days", "d" -> days += whole(option, text, amount);
                case "hour", "hours", "h", "hr", "hrs" -> micros += Math.round(amount * 3_600_000_000L);
                case "minute", "minutes", "m", "min", "mins" -> micros += Math.round(amount * 60_000_000L);
                case "second", "seconds", "s", "sec", "secs" -> micros += Math.round(amount * 1_000_000L);
                case "millisecond", "milliseconds", "ms", "msec", "msecs" -> micros += Math.round(amount * 1_000L);
                case "microsecond", "microseconds", "us", "usec", "usecs" -> micros += Math.round(amount);
                default -> throw invalid(option, text);
            }
            at = part.end();
        }
        return new DuckDbInterval(months, days, micros);
    }

    /** {@code now} minus this interval, in UTC as DuckDB computes it. */
    Instant before(Instant now)
    {
        ZonedDateTime time = now.atZone(ZoneOffset.UTC).minusMonths(months).minusDays(days);
        return time.toInstant().minus(micros, ChronoUnit.MICROS);
    }

    private static long whole(String option, String text, double amount)
    {
        if (amount != Math.rint(amount)) {
            throw invalid(option, text);
        }
        return (long) amount;
    }

    private static InvalidArgumentException invalid(String option, String text)
    {
        return new InvalidArgumentException("option " + option + " is '" + text + "', which is not an interval DuckLake can parse; "
                + "give one such as '2 days', '1 week' or '12 hours' (set it with ducklake_set_option / LakeOptions.set)");
    }
}
