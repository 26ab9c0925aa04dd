package io.moraine.spark;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/** A top-level Spark value as the core's partition transforms take it ({@code PartitionTransform}, {@code PartitionSpec}). */
final class SparkPartitionValues
{
    private SparkPartitionValues() {}

    static Object value(InternalRow row, int ordinal, StructField field)
    {
        if (row.isNullAt(ordinal)) {
            return null;
        }
        DataType type = field.dataType();
        return switch (type) {
            case BooleanType ignored -> row.getBoolean(ordinal);
            case ByteType ignored -> (long) row.getByte(ordinal);
            case ShortType ignored -> (long) row.getShort(ordinal);
            case IntegerType ignored -> (long) row.getInt(ordinal);
            case LongType ignored -> row.getLong(ordinal);
            case FloatType ignored -> (double) row.getFloat(ordinal);
            case DoubleType ignored -> row.getDouble(ordinal);
            case DecimalType decimal -> row.getDecimal(ordinal, decimal.precision(), decimal.scale()).toJavaBigDecimal();
            case DateType ignored -> LocalDate.ofEpochDay(row.getInt(ordinal));
            case TimestampType ignored -> micros(row.getLong(ordinal));
            case TimestampNTZType ignored -> LocalDateTime.ofInstant(micros(row.getLong(ordinal)), ZoneOffset.UTC);
            case StringType ignored -> row.getUTF8String(ordinal).toString();
            case BinaryType ignored -> row.getBinary(ordinal);
            default -> throw SparkErrors.unsupported("column " + field.name() + " of type " + type.sql() + " cannot be a partition key of a Spark write");
        };
    }

    private static Instant micros(long micros)
    {
        return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000L);
    }
}
