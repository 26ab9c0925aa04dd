package io.moraine.trino;

import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.trino.spi.TrinoException;
import io.trino.spi.type.BigintType;
import io.trino.spi.type.BooleanType;
import io.trino.spi.type.DateType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.DoubleType;
import io.trino.spi.type.Int128;
import io.trino.spi.type.IntegerType;
import io.trino.spi.type.LongTimestamp;
import io.trino.spi.type.LongTimestampWithTimeZone;
import io.trino.spi.type.RealType;
import io.trino.spi.type.SmallintType;
import io.trino.spi.type.TimeType;
import io.trino.spi.type.TimestampType;
import io.trino.spi.type.TimestampWithTimeZoneType;
import io.trino.spi.type.TinyintType;
import io.trino.spi.type.Type;
import io.trino.spi.type.UuidType;
import io.trino.spi.type.VarbinaryType;
import io.trino.spi.type.VarcharType;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.UUID;

import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;
import static io.trino.spi.type.Timestamps.PICOSECONDS_PER_NANOSECOND;

/**
 * Trino's native values (the Java objects its blocks and domains hold) to and from moraine's value classes
 * ({@code io.moraine.core.types.DuckLakeValues}): the one place where the two value models meet.
 */
final class TrinoValues
{
    private TrinoValues() {}

    /** A Trino value of {@code type} as moraine's value, or empty for types moraine does not compare. */
    static Optional<Object> toMoraine(Type type, Object value)
    {
        Object converted = switch (type) {
            case BigintType _, IntegerType _, SmallintType _, TinyintType _ -> value;
            case BooleanType _ -> value;
            case DoubleType _ -> value;
            case RealType _ -> (double) Float.intBitsToFloat(Math.toIntExact((Long) value));
            case VarcharType _ -> ((Slice) value).toStringUtf8();
            case DateType _ -> LocalDate.ofEpochDay((Long) value);
            case DecimalType decimal -> decimal.isShort()
                    ? BigDecimal.valueOf((Long) value, decimal.getScale())
                    : new BigDecimal(((Int128) value).toBigInteger(), decimal.getScale());
            case TimestampType timestamp -> timestamp.isShort() ? localDateTime((Long) value, 0) : localDateTime(((LongTimestamp) value).getEpochMicros(),
                    ((LongTimestamp) value).getPicosOfMicro());
            case TimestampWithTimeZoneType timestamp when !timestamp.isShort() -> instant((LongTimestampWithTimeZone) value);
            case UuidType _ -> UuidType.trinoUuidToJavaUuid((Slice) value);
            default -> null;
        };
        return Optional.ofNullable(converted);
    }

    /** moraine's value (an initial default, a partition value) as a Trino value of {@code type}. */
    static Object toTrino(Type type, Object value, String column)
    {
        return switch (type) {
            case BigintType _, IntegerType _, SmallintType _, TinyintType _ -> value instanceof BigInteger big ? big.longValueExact() : (Long) value;
            case BooleanType _ -> value;
            case DoubleType _ -> value;
            case RealType _ -> (long) Float.floatToIntBits(((Double) value).floatValue());
            case VarcharType _ -> Slices.utf8Slice((String) value);
            case VarbinaryType _ when value instanceof byte[] bytes -> Slices.wrappedBuffer(bytes);
            case DateType _ -> ((LocalDate) value).toEpochDay();
            case DecimalType decimal -> decimal(decimal, value);
            case TimeType _ -> ((LocalTime) value).toNanoOfDay() * PICOSECONDS_PER_NANOSECOND;
            case TimestampType timestamp -> timestamp(timestamp, (LocalDateTime) value);
            case TimestampWithTimeZoneType _ -> {
                Instant instant = (Instant) value;
                yield LongTimestampWithTimeZone.fromEpochMillisAndFraction(instant.toEpochMilli(), (instant.getNano() % 1_000_000) * 1000,
                        io.trino.spi.type.TimeZoneKey.UTC_KEY);
            }
            case UuidType _ -> UuidType.javaUuidToTrinoUuid((UUID) value);
            default -> throw new TrinoException(NOT_SUPPORTED, "column " + column + " has the value " + value + " of type " + type
                    + ", which the connector cannot produce as a constant yet");
        };
    }

    private static Object decimal(DecimalType type, Object value)
    {
        BigDecimal decimal = switch (value) {
            case BigDecimal exact -> exact;
            case BigInteger integer -> new BigDecimal(integer);
            case Long number -> BigDecimal.valueOf(number);
            default -> throw new IllegalArgumentException("not a decimal: " + value);
        };
        BigInteger unscaled = decimal.setScale(type.getScale()).unscaledValue();
        return type.isShort() ? (Object) unscaled.longValueExact() : Int128.valueOf(unscaled);
    }

    private static Object timestamp(TimestampType type, LocalDateTime value)
    {
        long seconds = value.toEpochSecond(ZoneOffset.UTC);
        long micros = Math.addExact(Math.multiplyExact(seconds, 1_000_000L), value.getNano() / 1000);
        if (type.isShort()) {
            return micros;
        }
        return new LongTimestamp(micros, (value.getNano() % 1000) * 1000);
    }

    private static LocalDateTime localDateTime(long epochMicros, int picosOfMicro)
    {
        return LocalDateTime.ofEpochSecond(Math.floorDiv(epochMicros, 1_000_000), (int) Math.floorMod(epochMicros, 1_000_000) * 1000 + picosOfMicro / 1000,
                ZoneOffset.UTC);
    }

    private static Instant instant(LongTimestampWithTimeZone value)
    {
        return Instant.ofEpochMilli(value.getEpochMillis()).plusNanos(value.getPicosOfMilli() / 1000);
    }
}
