package io.moraine.cli.cat;

import io.moraine.core.error.UnsupportedFeatureException;
import io.moraine.core.scan.FieldIds;
import io.moraine.core.types.DuckLakeType;
import io.moraine.core.types.TableColumn;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * The values of one field of a record parquet-java's example reader assembled ({@link Group}), as {@link CellValues}:
 * physical values decoded by their logical type annotation, nested fields matched to the column's children by field id.
 */
final class ParquetValues
{
    private ParquetValues() {}

    /** The value of {@code column} in field {@code index} of {@code record}, whose type in the file is {@code field}. */
    static Object value(TableColumn column, Type field, Group record, int index)
    {
        if (record.getFieldRepetitionCount(index) == 0) {
            return null;
        }
        return switch (column.type()) {
            case DuckLakeType.StructOf struct -> struct(struct, field.asGroupType(), record.getGroup(index, 0));
            case DuckLakeType.ListOf list -> list(list, field.asGroupType(), record.getGroup(index, 0));
            case DuckLakeType.MapOf map -> map(map, field.asGroupType(), record.getGroup(index, 0));
            default -> CellValues.conform(column.type(), scalar(field.asPrimitiveType(), record, index));
        };
    }

    private static List<Object> struct(DuckLakeType.StructOf struct, GroupType type, Group record)
    {
        List<Object> values = new ArrayList<>(struct.fields().size());
        for (TableColumn field : struct.fields()) {
            values.add(FieldIds.find(type, field.columnId())
                    .map(child -> value(field, child, record, type.getFieldIndex(child.getName())))
                    .orElseGet(() -> CellValues.missing(field)));
        }
        return values;
    }

    /** A LIST group: {@code repeated group list { element }}, or the legacy form whose repeated field is the element. */
    private static List<Object> list(DuckLakeType.ListOf list, GroupType type, Group record)
    {
        Type repeated = type.getType(0);
        int count = record.getFieldRepetitionCount(0);
        List<Object> elements = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            if (repeated.isPrimitive()) {
                elements.add(CellValues.conform(list.element().type(), scalarAt(repeated.asPrimitiveType(), record, 0, i)));
            }
            else {
                GroupType entry = repeated.asGroupType();
                elements.add(value(list.element(), entry.getType(0), record.getGroup(0, i), 0));
            }
        }
        return elements;
    }

    /** A MAP group: {@code repeated group key_value { key; value }}. */
    private static List<Object> map(DuckLakeType.MapOf map, GroupType type, Group record)
    {
        GroupType entry = type.getType(0).asGroupType();
        int count = record.getFieldRepetitionCount(0);
        List<Object> entries = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            Group pair = record.getGroup(0, i);
            entries.add(CellValues.mapEntry(value(map.key(), entry.getType(0), pair, 0), value(map.value(), entry.getType(1), pair, 1)));
        }
        return entries;
    }

    private static Object scalar(PrimitiveType type, Group record, int index)
    {
        return scalarAt(type, record, index, 0);
    }

    private static Object scalarAt(PrimitiveType type, Group record, int index, int repetition)
    {
        LogicalTypeAnnotation annotation = type.getLogicalTypeAnnotation();
        return switch (type.getPrimitiveTypeName()) {
            case BOOLEAN -> record.getBoolean(index, repetition);
            case INT32 -> int32(record.getInteger(index, repetition), annotation);
            case INT64 -> int64(record.getLong(index, repetition), annotation);
            case FLOAT -> (double) record.getFloat(index, repetition);
            case DOUBLE -> record.getDouble(index, repetition);
            case BINARY, FIXED_LEN_BYTE_ARRAY -> binary(record.getBinary(index, repetition), annotation);
            case INT96 -> throw new UnsupportedFeatureException("column " + type.getName() + " is an INT96 timestamp, which bin/moraine cat does not read; "
                    + "DuckDB writes INT64 timestamps");
        };
    }

    private static Object int32(int value, LogicalTypeAnnotation annotation)
    {
        return switch (annotation) {
            case LogicalTypeAnnotation.IntLogicalTypeAnnotation integer when !integer.isSigned() -> Integer.toUnsignedLong(value);
            case LogicalTypeAnnotation.DateLogicalTypeAnnotation _ -> {
                TemporalInfinity infinity = TemporalInfinity.of(value, Integer.MAX_VALUE);
                yield infinity != null ? infinity : LocalDate.ofEpochDay(value);
            }
            case LogicalTypeAnnotation.DecimalLogicalTypeAnnotation decimal -> BigDecimal.valueOf(value, decimal.getScale());
            case LogicalTypeAnnotation.TimeLogicalTypeAnnotation _ -> LocalTime.ofNanoOfDay(value * 1_000_000L);
            case null, default -> (long) value;
        };
    }

    private static Object int64(long value, LogicalTypeAnnotation annotation)
    {
        return switch (annotation) {
            case LogicalTypeAnnotation.IntLogicalTypeAnnotation integer when !integer.isSigned() -> new BigInteger(Long.toUnsignedString(value));
            case LogicalTypeAnnotation.DecimalLogicalTypeAnnotation decimal -> BigDecimal.valueOf(value, decimal.getScale());
            case LogicalTypeAnnotation.TimeLogicalTypeAnnotation time -> {
                LocalTime clock = LocalTime.ofNanoOfDay(Math.multiplyExact(value, nanosPer(time.getUnit())));
                yield time.isAdjustedToUTC() ? OffsetTime.of(clock, ZoneOffset.UTC) : clock;
            }
            case LogicalTypeAnnotation.TimestampLogicalTypeAnnotation timestamp -> {
                TemporalInfinity infinity = TemporalInfinity.of(value, Long.MAX_VALUE);
                if (infinity != null) {
                    yield infinity;
                }
                long nanosPerUnit = nanosPer(timestamp.getUnit());
                long perSecond = 1_000_000_000L / nanosPerUnit;
                Instant instant = Instant.ofEpochSecond(Math.floorDiv(value, perSecond), Math.floorMod(value, perSecond) * nanosPerUnit);
                yield timestamp.isAdjustedToUTC() ? instant : LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
            }
            case null, default -> value;
        };
    }

    private static long nanosPer(LogicalTypeAnnotation.TimeUnit unit)
    {
        return switch (unit) {
            case MILLIS -> 1_000_000L;
            case MICROS -> 1_000L;
            case NANOS -> 1L;
        };
    }

    private static Object binary(Binary value, LogicalTypeAnnotation annotation)
    {
        return switch (annotation) {
            case LogicalTypeAnnotation.StringLogicalTypeAnnotation _, LogicalTypeAnnotation.JsonLogicalTypeAnnotation _,
                 LogicalTypeAnnotation.EnumLogicalTypeAnnotation _ -> value.toStringUsingUTF8();
            case LogicalTypeAnnotation.DecimalLogicalTypeAnnotation decimal -> new BigDecimal(new BigInteger(value.getBytes()), decimal.getScale());
            case LogicalTypeAnnotation.IntervalLogicalTypeAnnotation _ -> interval(value);
            case null, default -> value.getBytes();
        };
    }

    /** Parquet's INTERVAL: three little-endian unsigned 32-bit integers, months, days and milliseconds. */
    private static IntervalValue interval(Binary value)
    {
        ByteBuffer bytes = value.toByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
        int months = bytes.getInt();
        int days = bytes.getInt();
        long millis = Integer.toUnsignedLong(bytes.getInt());
        return new IntervalValue(months, days, millis * 1000);
    }
}
