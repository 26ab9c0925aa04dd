package io.moraine.testing;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * One text per value, the same whichever engine read it, so that rows read by DuckDB and by a connector compare as
 * strings. Each engine's test first turns its values into plain Java: {@code String}, {@code Boolean}, the boxed
 * integers, {@code BigInteger}, {@code BigDecimal}, {@code Float}, {@code Double}, {@code byte[]}, {@code UUID},
 * {@code LocalDate}, {@code LocalTime}, {@code LocalDateTime} (timestamp), {@code OffsetDateTime} /
 * {@code ZonedDateTime} / {@code Instant} (timestamp with time zone), {@code List} (list), {@code Map} (map) and
 * {@link Struct} (struct). Strings are quoted, so a NULL and the text {@code 'NULL'} differ; decimals keep their
 * scale; instants print in UTC with nanoseconds; map entries print in key order (a map has no order of its own).
 */
public final class CanonicalText
{
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSSSSSSSS");
    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSSSSSSSS");

    /** A struct value: its fields in declaration order. */
    public record Struct(Map<String, Object> fields)
    {
        public Struct
        {
            fields = new LinkedHashMap<>(fields);
        }
    }

    private CanonicalText() {}

    /** The string a canonical string cell ({@code 'it''s'}) holds. */
    public static String stringOf(String cell)
    {
        return cell.substring(1, cell.length() - 1).replace("''", "'");
    }

    public static String of(Object value)
    {
        return switch (value) {
            case null -> "NULL";
            case String text -> "'" + text.replace("'", "''") + "'";
            case Boolean bool -> bool.toString();
            case Byte _, Short _, Integer _, Long _, BigInteger _ -> value.toString();
            case BigDecimal decimal -> decimal.toPlainString();
            case Float real -> "real " + real;
            case Double number -> "double " + number;
            case byte[] bytes -> "X'" + HexFormat.of().formatHex(bytes) + "'";
            case UUID uuid -> "uuid " + uuid;
            case LocalDate date -> "date " + date;
            case LocalTime time -> "time " + TIME.format(time);
            case LocalDateTime timestamp -> "timestamp " + TIMESTAMP.format(timestamp);
            case OffsetDateTime timestamp -> instant(timestamp.toInstant());
            case ZonedDateTime timestamp -> instant(timestamp.toInstant());
            case Instant instant -> instant(instant);
            case List<?> list -> list.stream().map(CanonicalText::of).collect(Collectors.joining(", ", "[", "]"));
            case Struct struct -> struct.fields().entrySet().stream()
                    .map(field -> field.getKey() + ": " + of(field.getValue()))
                    .collect(Collectors.joining(", ", "{", "}"));
            case Map<?, ?> map -> map.entrySet().stream()
                    .map(entry -> of(entry.getKey()) + "=" + of(entry.getValue()))
                    .sorted(Comparator.naturalOrder())
                    .collect(Collectors.joining(", ", "map{", "}"));
            default -> throw new IllegalArgumentException("no canonical text for a value of class " + value.getClass().getName() + " (" + value
                    + "); convert it to one of the plain Java types CanonicalText documents");
        };
    }

    private static String instant(Instant instant)
    {
        return "timestamptz " + TIMESTAMP.format(instant.atOffset(ZoneOffset.UTC)) + " UTC";
    }
}
