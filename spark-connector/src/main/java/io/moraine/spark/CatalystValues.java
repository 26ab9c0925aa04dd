package io.moraine.spark;

import org.apache.spark.sql.catalyst.util.DateTimeUtils;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.unsafe.types.UTF8String;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.UUID;

/**
 * Values between moraine's value classes ({@code DuckLakeValues}: Long, BigInteger, BigDecimal, Double, LocalDate,
 * LocalDateTime, Instant, String, UUID, ...) and Spark's internal ones (UTF8String, Decimal, epoch days and micros).
 */
final class CatalystValues
{
    private CatalystValues() {}

    /** A moraine value as Spark's internal value of {@code type}. */
    static Object toCatalyst(DataType type, Object value)
    {
        if (value == null) {
            return null;
        }
        if (type instanceof DecimalType decimal) {
            BigDecimal number = switch (value) {
                case BigDecimal big -> big;
                case BigInteger integer -> new BigDecimal(integer);
                case Long whole -> BigDecimal.valueOf(whole);
                default -> throw new IllegalArgumentException("no decimal from " + value.getClass().getName());
            };
            return Decimal.apply(number.setScale(decimal.scale()), decimal.precision(), decimal.scale());
        }
        if (type == DataTypes.StringType) {
            return UTF8String.fromString(value.toString());
        }
        if (type == DataTypes.LongType || type == DataTypes.IntegerType || type == DataTypes.ShortType || type == DataTypes.ByteType) {
            long number = ((Number) value).longValue();
            if (type == DataTypes.IntegerType) {
                return (int) number;
            }
            if (type == DataTypes.ShortType) {
                return (short) number;
            }
            if (type == DataTypes.ByteType) {
                return (byte) number;
            }
            return number;
        }
        if (type == DataTypes.DoubleType) {
            return ((Number) value).doubleValue();
        }
        if (type == DataTypes.FloatType) {
            return ((Number) value).floatValue();
        }
        if (type == DataTypes.DateType) {
            return (int) ((LocalDate) value).toEpochDay();
        }
        if (type == DataTypes.TimestampNTZType) {
            return DateTimeUtils.instantToMicros(((LocalDateTime) value).toInstant(ZoneOffset.UTC));
        }
        if (type == DataTypes.TimestampType) {
            return DateTimeUtils.instantToMicros((Instant) value);
        }
        if (type == DataTypes.BooleanType) {
            return (Boolean) value;
        }
        if (type == DataTypes.BinaryType && value instanceof byte[]) {
            return value;
        }
        throw new IllegalArgumentException("no Spark value of type " + type + " from a " + value.getClass().getName());
    }

    /**
     * A literal of a pushed Spark predicate as moraine's value for pruning, or null when it has none. Dates arrive as
     * epoch days, timestamps as epoch micros (with or without time zone, as {@code type} says).
     */
    static Object fromCatalyst(DataType type, Object value)
    {
        return switch (value) {
            case null -> null;
            case UTF8String text -> text.toString();
            case Decimal decimal -> decimal.toJavaBigDecimal();
            case Integer days when type == DataTypes.DateType -> LocalDate.ofEpochDay(days);
            case Long micros when type == DataTypes.TimestampType -> DateTimeUtils.microsToInstant(micros);
            case Long micros when type == DataTypes.TimestampNTZType -> LocalDateTime.ofInstant(DateTimeUtils.microsToInstant(micros), ZoneOffset.UTC);
            case Byte number -> (long) number;
            case Short number -> (long) number;
            case Integer number -> (long) number;
            case Long number -> number;
            case Float number -> (double) number;
            case Double number -> number;
            case Boolean bool -> bool;
            case UUID uuid -> uuid;
            default -> null;
        };
    }
}
