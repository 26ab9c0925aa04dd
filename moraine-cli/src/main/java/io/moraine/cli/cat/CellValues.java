package io.moraine.cli.cat;

import io.moraine.core.error.UnsupportedFeatureException;
import io.moraine.core.types.DuckLakeType;
import io.moraine.core.types.PrimitiveKind;
import io.moraine.core.types.TableColumn;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetTime;
import java.time.ZoneOffset;
import java.util.AbstractMap;
import java.util.Map;
import java.util.UUID;

/**
 * The values the cat's readers hand over, one Java class per DuckLake type: those of
 * {@link io.moraine.core.types.DuckLakeValues} for scalars (Boolean, Long or BigInteger, Double, BigDecimal, LocalDate,
 * LocalTime, LocalDateTime, Instant, String, UUID, byte[]), plus {@link IntervalValue}, {@link java.time.OffsetTime}
 * for timetz and {@link TemporalInfinity}; a list is a {@code List} of its elements, a struct a {@code List} of its
 * field values in the type's field order, a map a {@code List} of {@code Map.Entry}. SQL NULL is null.
 */
final class CellValues
{
    private CellValues() {}

    /** What a row written before the column existed holds: its initial default, or NULL. */
    static Object missing(TableColumn column)
    {
        return column.initialDefaultValue().orElse(null);
    }

    /** One entry of a map value; the value may be NULL. */
    static Map.Entry<Object, Object> mapEntry(Object key, Object value)
    {
        return new AbstractMap.SimpleImmutableEntry<>(key, value);
    }

    /**
     * A scalar as read from a file or batch, as a value of the column's type: integers and floats widened (a file
     * written before {@code ALTER ... TYPE}), decimals rescaled, timestamps with and without time zone converted in UTC.
     */
    static Object conform(DuckLakeType type, Object value)
    {
        if (value == null || value instanceof TemporalInfinity) {
            return value;
        }
        if (type instanceof DuckLakeType.Decimal decimal) {
            BigDecimal number = switch (value) {
                case BigDecimal exact -> exact;
                case Long integer -> BigDecimal.valueOf(integer);
                case BigInteger integer -> new BigDecimal(integer);
                default -> throw mismatch(type, value);
            };
            return number.setScale(decimal.scale(), RoundingMode.HALF_UP);
        }
        if (!(type instanceof DuckLakeType.Primitive primitive)) {
            throw mismatch(type, value);
        }
        PrimitiveKind kind = primitive.kind();
        if (kind.javaType() == BigInteger.class) {
            return switch (value) {
                case BigInteger integer -> integer;
                case Long integer -> BigInteger.valueOf(integer);
                case BigDecimal decimal -> decimal.toBigInteger();
                case Double real -> new BigDecimal(real).toBigInteger();
                default -> throw mismatch(type, value);
            };
        }
        if (kind == PrimitiveKind.UUID && value instanceof byte[] bytes && bytes.length == 16) {
            ByteBuffer buffer = ByteBuffer.wrap(bytes);
            return new UUID(buffer.getLong(), buffer.getLong());
        }
        if (kind == PrimitiveKind.UUID && value instanceof String text) {
            return UUID.fromString(text);
        }
        if (kind.isText() && value instanceof byte[] bytes) {
            return new String(bytes, StandardCharsets.UTF_8);
        }
        if (kind == PrimitiveKind.TIMESTAMPTZ && value instanceof LocalDateTime timestamp) {
            return timestamp.toInstant(ZoneOffset.UTC);
        }
        if (kind == PrimitiveKind.TIMETZ && value instanceof LocalTime time) {
            // Arrow has no time with an offset; the import stored DuckDB's export, the time without it.
            return OffsetTime.of(time, ZoneOffset.UTC);
        }
        if (kind.isTimestamp() && value instanceof Instant instant) {
            return LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
        }
        return value;
    }

    private static UnsupportedFeatureException mismatch(DuckLakeType type, Object value)
    {
        return new UnsupportedFeatureException("a " + value.getClass().getSimpleName() + " value was read for a column of type " + type.duckLakeName()
                + ", which bin/moraine cat cannot convert; read the table with DuckDB or Trino");
    }
}
