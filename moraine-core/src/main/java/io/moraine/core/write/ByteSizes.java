package io.moraine.core.write;

import io.moraine.core.error.InvalidArgumentException;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Byte sizes as DuckDB reads them ({@code 512MB}, {@code 1GiB}, {@code 100000}): decimal and binary units. */
final class ByteSizes
{
    private static final Pattern SIZE = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*([a-z]*)");

    private ByteSizes() {}

    static long parse(String option, String text)
    {
        Matcher matcher = SIZE.matcher(text.toLowerCase(Locale.ROOT));
        if (!matcher.matches()) {
            throw new InvalidArgumentException("option " + option + " is '" + text + "'; give a size such as 512MB, 1GiB or a number of bytes");
        }
        double number = Double.parseDouble(matcher.group(1));
        long unit = switch (matcher.group(2)) {
            case "", "b", "byte", "bytes" -> 1L;
            case "kb", "k" -> 1000L;
            case "mb", "m" -> 1000L * 1000;
            case "gb", "g" -> 1000L * 1000 * 1000;
            case "tb", "t" -> 1000L * 1000 * 1000 * 1000;
            case "kib" -> 1L << 10;
            case "mib" -> 1L << 20;
            case "gib" -> 1L << 30;
            case "tib" -> 1L << 40;
            default -> throw new InvalidArgumentException("option " + option + " has unit '" + matcher.group(2) + "'; use B, KB, MB, GB, TB, KiB, MiB, GiB or TiB");
        };
        return (long) (number * unit);
    }
}
