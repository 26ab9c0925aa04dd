package io.moraine.core.write.files;

import java.util.Locale;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Byte sizes as DuckDB reads them ({@code 512MB}, {@code 1GiB}, {@code 100000}): decimal and binary units. */
public final class ByteSizes
{
    private static final Pattern SIZE = Pattern.compile("\\s*(\\d+(?:\\.\\d+)?)\\s*([a-zA-Z]*)\\s*");

    private ByteSizes() {}

    /** The size in bytes, or empty when {@code text} is not a size. */
    public static OptionalLong parse(String text)
    {
        Matcher matcher = SIZE.matcher(text);
        if (!matcher.matches()) {
            return OptionalLong.empty();
        }
        long multiplier = switch (matcher.group(2).toLowerCase(Locale.ROOT)) {
            case "", "b", "byte", "bytes" -> 1L;
            case "kb", "k", "kilobyte", "kilobytes" -> 1_000L;
            case "mb", "m", "megabyte", "megabytes" -> 1_000_000L;
            case "gb", "g", "gigabyte", "gigabytes" -> 1_000_000_000L;
            case "tb", "t", "terabyte", "terabytes" -> 1_000_000_000_000L;
            case "kib" -> 1L << 10;
            case "mib" -> 1L << 20;
            case "gib" -> 1L << 30;
            case "tib" -> 1L << 40;
            default -> -1L;
        };
        return multiplier < 0 ? OptionalLong.empty() : OptionalLong.of((long) (Double.parseDouble(matcher.group(1)) * multiplier));
    }
}
