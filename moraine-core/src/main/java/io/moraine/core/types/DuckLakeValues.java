package io.moraine.core.types;

import io.moraine.core.error.InvalidArgumentException;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;

/**
 * Values of DuckLake types as moraine carries them, and the text forms DuckLake stores them in (reference §7.3): the
 * min/max of {@code ducklake_file_column_stats}, {@code initial_default}, identity partition values. One Java class a
 * type ({@link PrimitiveKind#javaType()}): Boolean; Long for integers up to 64 bits signed or 32 bits unsigned;
 * BigInteger for uint64, int128 and uint128; Double for floats; BigDecimal for decimals; LocalDate, LocalTime,
 * LocalDateTime (timestamps without time zone) and Instant (timestamptz); String for varchar and json; UUID; byte[] for
 * blobs. {@link #normalize} turns what an engine hands over (an Integer literal, a java.sql.Date, ...) into that class,
 * so values from any engine compare with values parsed from the catalog.
 */
public final class DuckLakeValues
{
    private static final DateTimeFormatter TIME = new DateTimeFormatterBuilder()
            .appendPattern("HH:mm:ss")
            .optionalStart().appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true).optionalEnd()
            .toFormatter(Locale.ROOT);
    private static final DateTimeFormatter TIMESTAMP = new DateTimeFormatterBuilder()
            .appendPattern("uuuu-MM-dd[ ]['T']")
            .append(TIME)
            .toFormatter(Locale.ROOT);
    private static final DateTimeFormatter TIMESTAMP_WITH_OFFSET = new DateTimeFormatterBuilder()
            .append(TIMESTAMP)
            .appendPattern("[XXXXX][XXX][X]")
            .toFormatter(Locale.ROOT);

    private DuckLakeValues() {}

    /**
     * A {@code min_value} / {@code max_value} text as a value of the type, or empty when moraine does not compare that
     * type's statistics or cannot read the text (the file is then never pruned by it).
     */
    public static Optional<Object> parseStat(DuckLakeType type, String text)
    {
        if (text == null || !type.isOrderable()) {
            return Optional.empty();
        }
        try {
            return Optional.ofNullable(parse(type, text));
        }
        catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /** A column's {@code initial_default} text as a value of its type; a text that does not parse is refused, naming it. */
    public static Object parseDefault(TableColumn column, String text)
    {
        try {
            Object value = parse(column.type(), text);
            if (value == null) {
                throw new InvalidArgumentException("no value");
            }
            return value;
        }
        catch (RuntimeException e) {
            throw new InvalidArgumentException("column " + column.name() + " has initial default '" + text + "', which moraine cannot read as "
                    + column.type().duckLakeName() + ": " + e.getMessage(), e);
        }
    }

    /** The DuckDB text of a stored value (a literal, a stat, a partition value) as a value of the type; null when not representable. */
    private static Object parse(DuckLakeType type, String text)
    {
        if (type instanceof DuckLakeType.Decimal) {
            return new BigDecimal(text.strip());
        }
        if (!(type instanceof DuckLakeType.Primitive primitive)) {
            return null;
        }
        String value = text.strip();
        return switch (primitive.kind()) {
            case BOOLEAN -> switch (value.toLowerCase(Locale.ROOT)) {
                case "true", "1" -> Boolean.TRUE;
                case "false", "0" -> Boolean.FALSE;
                default -> throw new IllegalArgumentException("not a boolean: " + value);
            };
            case INT8, INT16, INT32, INT64, UINT8, UINT16, UINT32 -> Long.parseLong(value);
            case UINT64, INT128, UINT128 -> new BigInteger(value);
            // A float's text is its shortest float form: read as a float, then widened, it is the value the column holds.
            case FLOAT32 -> (double) parseDouble(value).floatValue();
            case FLOAT64 -> parseDouble(value);
            case DATE -> isInfinite(value) ? null : LocalDate.parse(value);
            case TIME, TIME_NS -> LocalTime.parse(value, TIME);
            case TIMESTAMP, TIMESTAMP_S, TIMESTAMP_MS, TIMESTAMP_NS -> isInfinite(value) ? null : LocalDateTime.parse(value, TIMESTAMP);
            case TIMESTAMPTZ -> isInfinite(value) ? null : OffsetDateTime.parse(value, TIMESTAMP_WITH_OFFSET).toInstant();
            case VARCHAR, JSON -> text;
            case UUID -> java.util.UUID.fromString(value);
            case TIMETZ, INTERVAL, BLOB, VARIANT, GEOMETRY -> null;
        };
    }

    private static boolean isInfinite(String value)
    {
        return value.equalsIgnoreCase("infinity") || value.equalsIgnoreCase("-infinity");
    }

    private static Double parseDouble(String value)
    {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "inf", "infinity", "+inf" -> Double.POSITIVE_INFINITY;
            case "-inf", "-infinity" -> Double.NEGATIVE_INFINITY;
            case "nan", "-nan" -> Double.NaN;
            default -> Double.parseDouble(value);
        };
    }

    /**
     * An engine's value for a column of {@code type} as moraine's class for that type (see the class comment), or empty
     * when it cannot be converted exactly (the value then takes no part in pruning).
     */
    public static Optional<Object> normalize(DuckLakeType type, Object value)
    {
        if (value == null) {
            return Optional.empty();
        }
        if (type instanceof DuckLakeType.Decimal) {
            return switch (value) {
                case BigDecimal decimal -> Optional.of(decimal);
                case BigInteger integer -> Optional.of(new BigDecimal(integer));
                case Long number -> Optional.of(BigDecimal.valueOf(number));
                case Integer number -> Optional.of(BigDecimal.valueOf(number));
                default -> Optional.empty();
            };
        }
        if (!(type instanceof DuckLakeType.Primitive primitive)) {
            return Optional.empty();
        }
        PrimitiveKind kind = primitive.kind();
        if (kind.javaType() == Long.class) {
            return switch (value) {
                case Long number -> Optional.of(number);
                case Integer number -> Optional.of(number.longValue());
                case Short number -> Optional.of(number.longValue());
                case Byte number -> Optional.of(number.longValue());
                case BigInteger integer when integer.bitLength() < 64 -> Optional.of(integer.longValue());
                default -> Optional.empty();
            };
        }
        if (kind.javaType() == BigInteger.class) {
            return switch (value) {
                case BigInteger integer -> Optional.of(integer);
                case Long number -> Optional.of(BigInteger.valueOf(number));
                case Integer number -> Optional.of(BigInteger.valueOf(number));
                case BigDecimal decimal when decimal.stripTrailingZeros().scale() <= 0 -> Optional.of(decimal.toBigIntegerExact());
                default -> Optional.empty();
            };
        }
        if (kind.javaType() == Double.class) {
            return switch (value) {
                case Double number -> Optional.of(number);
                case Float number -> Optional.of(number.doubleValue());
                default -> Optional.empty();
            };
        }
        return switch (kind) {
            case DATE -> switch (value) {
                case LocalDate date -> Optional.of(date);
                case java.sql.Date date -> Optional.of(date.toLocalDate());
                default -> Optional.empty();
            };
            case TIMESTAMP, TIMESTAMP_S, TIMESTAMP_MS, TIMESTAMP_NS -> switch (value) {
                case LocalDateTime timestamp -> Optional.of(timestamp);
                case java.sql.Timestamp timestamp -> Optional.of(timestamp.toLocalDateTime());
                default -> Optional.empty();
            };
            case TIMESTAMPTZ -> switch (value) {
                case Instant instant -> Optional.of(instant);
                case OffsetDateTime offset -> Optional.of(offset.toInstant());
                case java.sql.Timestamp timestamp -> Optional.of(timestamp.toInstant());
                default -> Optional.empty();
            };
            case TIME, TIME_NS -> value instanceof LocalTime time ? Optional.of(time) : Optional.empty();
            case VARCHAR, JSON -> value instanceof String || value instanceof CharSequence ? Optional.of(value.toString()) : Optional.empty();
            case UUID -> switch (value) {
                case UUID uuid -> Optional.of(uuid);
                case String text -> Optional.of(java.util.UUID.fromString(text));
                default -> Optional.empty();
            };
            case BOOLEAN -> value instanceof Boolean ? Optional.of(value) : Optional.empty();
            default -> Optional.empty();
        };
    }

    /**
     * Compares two values of an orderable type as DuckDB orders them: strings by their UTF-8 bytes (unsigned), UUIDs as
     * unsigned 128-bit numbers, doubles with -0.0 equal to 0.0, everything else by its natural order. Both must be of the type's class.
     */
    @SuppressWarnings("unchecked")
    public static int compare(Object left, Object right)
    {
        return switch (left) {
            case String text -> Arrays.compareUnsigned(text.getBytes(StandardCharsets.UTF_8), ((String) right).getBytes(StandardCharsets.UTF_8));
            // -0.0 and 0.0 are one value to DuckDB and to every engine.
            case Double number -> Double.compare(number + 0.0, (Double) right + 0.0);
            case UUID uuid -> {
                UUID other = (UUID) right;
                int high = Long.compareUnsigned(uuid.getMostSignificantBits(), other.getMostSignificantBits());
                yield high != 0 ? high : Long.compareUnsigned(uuid.getLeastSignificantBits(), other.getLeastSignificantBits());
            }
            default -> ((Comparable<Object>) left).compareTo(right);
        };
    }

    /**
     * A value as DuckDB's {@code Value::ToString} prints it, which is how DuckLake writes identity partition values and
     * literals: integers in decimal, decimals with their scale, ISO dates, {@code 2024-01-15 12:30:00[.ffffff]}
     * timestamps, timestamptz in UTC with {@code +00}, canonical UUIDs, strings as they are.
     */
    public static String text(Object value)
    {
        return switch (value) {
            case null -> null;
            case Long number -> number.toString();
            case Integer number -> number.toString();
            case BigInteger number -> number.toString();
            case String text -> text;
            case Boolean bool -> bool.toString();
            case BigDecimal decimal -> decimal.toPlainString();
            case UUID uuid -> uuid.toString();
            case LocalDate date -> date.toString();
            case LocalTime time -> clock(time);
            case LocalDateTime timestamp -> timestamp(timestamp);
            case Instant instant -> timestamp(LocalDateTime.ofInstant(instant, ZoneOffset.UTC)) + "+00";
            default -> throw new InvalidArgumentException("a value of Java type " + value.getClass().getSimpleName()
                    + " has no DuckDB text form in moraine");
        };
    }

    /**
     * A value as DuckLake writes it in {@code min_value} / {@code max_value} (reference §7.3): as {@link #text}, except
     * booleans as {@code 1} / {@code 0} and doubles as DuckDB prints them ({@link #doubleText}).
     */
    public static String statText(Object value)
    {
        return switch (value) {
            case Boolean bool -> bool ? "1" : "0";
            case Double number -> doubleText(number);
            default -> text(value);
        };
    }

    /** A DOUBLE as DuckDB prints it ({@link #floatingText}). */
    public static String doubleText(double value)
    {
        return floatingText(value, Double.toString(value));
    }

    /** A FLOAT as DuckDB prints it: its own shortest digits, not those of the double it widens to ({@link #floatingText}). */
    public static String floatText(float value)
    {
        return floatingText(value, Float.toString(value));
    }

    /**
     * A floating-point value in DuckDB's text: the shortest digits that read back as the value ({@code javaText}, Java's
     * own shortest form), fixed-point with at least one fractional digit for decimal exponents from -4 to 15
     * ({@code 0.0001}, {@code 1e+16} and {@code 1e-05} otherwise, {@code 1.5e-07}), {@code inf}, {@code -inf}, {@code nan}.
     */
    private static String floatingText(double value, String javaText)
    {
        if (Double.isNaN(value)) {
            return "nan";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "inf" : "-inf";
        }
        if (value == 0) {
            return (1 / value < 0) ? "-0.0" : "0.0";
        }
        BigDecimal decimal = new BigDecimal(javaText).stripTrailingZeros();
        int exponent = decimal.precision() - decimal.scale() - 1;
        if (exponent >= -4 && exponent < 16) {
            String plain = decimal.toPlainString();
            return plain.contains(".") ? plain : plain + ".0";
        }
        String digits = decimal.unscaledValue().abs().toString();
        StringBuilder text = new StringBuilder(decimal.signum() < 0 ? "-" : "");
        text.append(digits.charAt(0));
        if (digits.length() > 1) {
            text.append('.').append(digits, 1, digits.length());
        }
        text.append('e').append(exponent < 0 ? '-' : '+');
        String magnitude = Integer.toString(Math.abs(exponent));
        text.append(magnitude.length() < 2 ? "0" + magnitude : magnitude);
        return text.toString();
    }

    /**
     * An interval as DuckDB prints it: {@code 1 year 2 months 3 days 01:30:00.5}, each part only when not zero (plural
     * unless it is 1 or -1), the time part signed as a whole, and {@code 00:00:00} for an empty interval.
     */
    public static String intervalText(int months, int days, long micros)
    {
        StringBuilder text = new StringBuilder();
        appendPart(text, months / 12, "year");
        appendPart(text, months % 12, "month");
        appendPart(text, days, "day");
        if (micros != 0) {
            if (!text.isEmpty()) {
                text.append(' ');
            }
            if (micros < 0) {
                text.append('-');
            }
            long magnitude = Math.absExact(micros);
            long hours = magnitude / 3_600_000_000L;
            long minutes = magnitude % 3_600_000_000L / 60_000_000L;
            long seconds = magnitude % 60_000_000L / 1_000_000L;
            long fraction = magnitude % 1_000_000L;
            text.append(String.format(Locale.ROOT, "%02d:%02d:%02d", hours, minutes, seconds));
            if (fraction != 0) {
                text.append('.').append(String.format(Locale.ROOT, "%06d", fraction).replaceAll("0+$", ""));
            }
        }
        else if (text.isEmpty()) {
            text.append("00:00:00");
        }
        return text.toString();
    }

    /** A Parquet INTERVAL (three little-endian unsigned 32-bit integers: months, days, milliseconds) as {@link #intervalText}. */
    public static String parquetIntervalText(byte[] bytes)
    {
        if (bytes.length != 12) {
            throw new InvalidArgumentException("a Parquet INTERVAL value has 12 bytes, this one " + bytes.length);
        }
        java.nio.ByteBuffer buffer = java.nio.ByteBuffer.wrap(bytes).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        return intervalText(buffer.getInt(0), buffer.getInt(4), Math.multiplyExact((long) buffer.getInt(8), 1000L));
    }

    private static void appendPart(StringBuilder text, long value, String unit)
    {
        if (value == 0) {
            return;
        }
        if (!text.isEmpty()) {
            text.append(' ');
        }
        text.append(value).append(' ').append(unit);
        if (value != 1 && value != -1) {
            text.append('s');
        }
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
