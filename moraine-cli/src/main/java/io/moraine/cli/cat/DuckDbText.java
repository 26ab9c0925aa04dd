package io.moraine.cli.cat;

import io.moraine.core.types.DuckLakeValues;

import io.moraine.core.error.UnsupportedFeatureException;
import io.moraine.core.types.DuckLakeType;
import io.moraine.core.types.PrimitiveKind;
import io.moraine.core.types.TableColumn;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * A cell as DuckDB 1.5 prints it with {@code CAST(value AS VARCHAR)} under {@code TimeZone = 'UTC'}: the text
 * {@code bin/moraine cat} writes. Values are those {@link CellValues} describes. Inside lists, structs and maps a scalar
 * is quoted as DuckDB quotes it there (when it is empty, starts or ends with a space, spells NULL, or holds one of
 * {@code "'(),:=[]{}}), and struct field names are always quoted.
 */
public final class DuckDbText
{
    private static final String QUOTED_IN_NESTED = "\"'(),:=[]{}";

    private DuckDbText() {}

    /** The text of a value of {@code type}, or null for SQL NULL. */
    public static String text(DuckLakeType type, Object value)
    {
        if (value == null) {
            return null;
        }
        return switch (type) {
            case DuckLakeType.ListOf list -> "[" + String.join(", ", nestedAll(list.element(), (List<?>) value)) + "]";
            case DuckLakeType.StructOf struct -> struct(struct, (List<?>) value);
            case DuckLakeType.MapOf map -> map(map, (List<?>) value);
            case DuckLakeType.Decimal decimal -> ((BigDecimal) value).setScale(decimal.scale(), RoundingMode.HALF_UP).toPlainString();
            case DuckLakeType.Primitive primitive -> scalar(primitive.kind(), value);
        };
    }

    private static String struct(DuckLakeType.StructOf struct, List<?> values)
    {
        List<String> fields = new ArrayList<>();
        for (int i = 0; i < struct.fields().size(); i++) {
            TableColumn field = struct.fields().get(i);
            fields.add(quoted(field.name()) + ": " + nested(field, values.get(i)));
        }
        return "{" + String.join(", ", fields) + "}";
    }

    private static String map(DuckLakeType.MapOf map, List<?> entries)
    {
        List<String> texts = new ArrayList<>();
        for (Object entry : entries) {
            Map.Entry<?, ?> pair = (Map.Entry<?, ?>) entry;
            texts.add(nested(map.key(), pair.getKey()) + "=" + nested(map.value(), pair.getValue()));
        }
        return "{" + String.join(", ", texts) + "}";
    }

    private static List<String> nestedAll(TableColumn element, List<?> values)
    {
        List<String> texts = new ArrayList<>(values.size());
        for (Object value : values) {
            texts.add(nested(element, value));
        }
        return texts;
    }

    /** A value inside a list, struct or map: NULL spelled out, scalars quoted where DuckDB quotes them. */
    private static String nested(TableColumn column, Object value)
    {
        if (value == null) {
            return "NULL";
        }
        String text = text(column.type(), value);
        boolean scalar = column.type() instanceof DuckLakeType.Primitive || column.type() instanceof DuckLakeType.Decimal;
        // DuckDB writes JSON inside nested values as it is.
        boolean json = column.type().is(PrimitiveKind.JSON);
        return scalar && !json && needsQuotes(text) ? quoted(text) : text;
    }

    private static boolean needsQuotes(String text)
    {
        if (text.isEmpty() || isSpace(text.charAt(0)) || (text.length() >= 2 && isSpace(text.charAt(text.length() - 1)))
                || text.equalsIgnoreCase("null")) {
            return true;
        }
        return text.chars().anyMatch(c -> QUOTED_IN_NESTED.indexOf(c) >= 0);
    }

    private static boolean isSpace(char c)
    {
        return c == ' ' || c == '\t' || c == '\n' || c == '\u000B' || c == '\f' || c == '\r';
    }

    private static String quoted(String text)
    {
        return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }

    private static String scalar(PrimitiveKind kind, Object value)
    {
        if (value instanceof TemporalInfinity infinity) {
            return infinity == TemporalInfinity.INFINITY ? "infinity" : "-infinity";
        }
        return switch (kind) {
            case BOOLEAN -> value.toString();
            case INT8, INT16, INT32, INT64, INT128, UINT8, UINT16, UINT32, UINT64, UINT128 -> value.toString();
            case FLOAT32 -> floating(((Number) value).floatValue());
            case FLOAT64 -> floating(((Number) value).doubleValue());
            case DATE -> date((LocalDate) value);
            case TIME -> clock(((LocalTime) value).truncatedTo(ChronoUnit.MICROS));
            case TIME_NS -> clock((LocalTime) value);
            case TIMETZ -> timeWithOffset((OffsetTime) value);
            case TIMESTAMP -> timestamp(((LocalDateTime) value).truncatedTo(ChronoUnit.MICROS));
            case TIMESTAMP_S -> timestamp(((LocalDateTime) value).truncatedTo(ChronoUnit.SECONDS));
            case TIMESTAMP_MS -> timestamp(((LocalDateTime) value).truncatedTo(ChronoUnit.MILLIS));
            case TIMESTAMP_NS -> timestamp((LocalDateTime) value);
            case TIMESTAMPTZ -> timestamp(LocalDateTime.ofInstant(((Instant) value).truncatedTo(ChronoUnit.MICROS), ZoneOffset.UTC)) + "+00";
            case INTERVAL -> interval((IntervalValue) value);
            case VARCHAR, JSON -> (String) value;
            case BLOB -> blob((byte[]) value);
            case UUID -> ((UUID) value).toString();
            case VARIANT, GEOMETRY -> throw new UnsupportedFeatureException("printing " + kind.duckLakeName()
                    + " values is not supported by bin/moraine cat; read the table with DuckDB or Trino");
        };
    }

    /** {@code 2024-01-15}; years before 1 AD as DuckDB writes them, {@code 0001-12-31 (BC)}. */
    private static String date(LocalDate date)
    {
        int year = date.getYear();
        String text = String.format(Locale.ROOT, "%04d-%02d-%02d", year > 0 ? year : 1 - year, date.getMonthValue(), date.getDayOfMonth());
        return year > 0 ? text : text + " (BC)";
    }

    private static String timestamp(LocalDateTime timestamp)
    {
        return date(timestamp.toLocalDate()) + " " + clock(timestamp.toLocalTime());
    }

    /** {@code HH:MM:SS}, then the fraction of the second without trailing zeros when there is one. */
    private static String clock(LocalTime time)
    {
        String whole = String.format(Locale.ROOT, "%02d:%02d:%02d", time.getHour(), time.getMinute(), time.getSecond());
        return whole + fraction(time.getNano());
    }

    private static String fraction(int nanos)
    {
        if (nanos == 0) {
            return "";
        }
        return "." + String.format(Locale.ROOT, "%09d", nanos).replaceAll("0+$", "");
    }

    /** {@code 01:02:03+05:30}, {@code 01:02:03-08}: the offset's minutes only when there are any. */
    private static String timeWithOffset(OffsetTime time)
    {
        int seconds = time.getOffset().getTotalSeconds();
        int hours = Math.abs(seconds) / 3600;
        int minutes = Math.abs(seconds) / 60 % 60;
        String offset = (seconds < 0 ? "-" : "+") + String.format(Locale.ROOT, "%02d", hours)
                + (minutes == 0 ? "" : String.format(Locale.ROOT, ":%02d", minutes));
        return clock(time.toLocalTime().truncatedTo(ChronoUnit.MICROS)) + offset;
    }

    private static String interval(IntervalValue interval)
    {
        return DuckLakeValues.intervalText(interval.months(), interval.days(), interval.micros());
    }

    /** Printable ASCII as it is, every other byte (and {@code ' " \}) as {@code \xHH}. */
    private static String blob(byte[] bytes)
    {
        StringBuilder text = new StringBuilder(bytes.length);
        for (byte b : bytes) {
            int c = b & 0xFF;
            if (c >= 32 && c <= 126 && c != '\'' && c != '"' && c != '\\') {
                text.append((char) c);
            }
            else {
                text.append(String.format(Locale.ROOT, "\\x%02X", c));
            }
        }
        return text.toString();
    }

    /**
     * The shortest digits that read back as the same value, laid out as DuckDB (like Python) does: positional from
     * 1e-4 up to below 1e16 ({@code 100.0}, {@code 0.0001}), else scientific with a signed two-digit exponent
     * ({@code 1e+16}, {@code 2.5e-05}).
     */
    private static String floating(double value)
    {
        return floating(value, Double.toString(value), text -> Double.parseDouble(text) == value);
    }

    private static String floating(float value)
    {
        return floating(value, Float.toString(value), text -> Float.parseFloat(text) == value);
    }

    private static String floating(double value, String javaText, java.util.function.Predicate<String> readsBack)
    {
        if (Double.isNaN(value)) {
            return "nan";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "inf" : "-inf";
        }
        if (value == 0) {
            return 1 / value < 0 ? "-0.0" : "0.0";
        }
        BigDecimal decimal = new BigDecimal(javaText).stripTrailingZeros();
        // Java prints at least two significant digits; one may be enough.
        if (decimal.precision() == 2) {
            BigDecimal shorter = decimal.round(new MathContext(1, RoundingMode.HALF_EVEN));
            if (readsBack.test(shorter.toString())) {
                decimal = shorter;
            }
        }
        int exponent = decimal.precision() - 1 - decimal.scale();
        if (exponent >= -4 && exponent < 16) {
            String plain = decimal.toPlainString();
            return plain.contains(".") ? plain : plain + ".0";
        }
        String digits = decimal.unscaledValue().abs().toString();
        String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
        return (decimal.signum() < 0 ? "-" : "") + mantissa + "e" + (exponent < 0 ? "-" : "+") + String.format(Locale.ROOT, "%02d", Math.abs(exponent));
    }
}
