package io.moraine.spark;

import io.moraine.core.inline.InlineArrow;
import io.moraine.core.types.DuckLakeType;
import io.moraine.core.types.DuckLakeValues;
import io.moraine.core.types.TableColumn;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.FloatingPointVector;
import org.apache.arrow.vector.IntervalMonthDayNanoVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.holders.NullableIntervalMonthDayNanoHolder;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.util.ArrayBasedMapData;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;


/**
 * One value of an inlined row, from the Arrow vector the inline reader decoded (the column as the rows' schema version
 * wrote it) into Spark's internal value of the column's type at the read snapshot: struct fields found by column id,
 * widened integers, floats and decimals, uuid and interval as text.
 */
final class InlinedValues
{
    private InlinedValues() {}

    static Object value(TableColumn read, DataType type, TableColumn written, ValueVector vector, int row)
    {
        if (vector.isNull(row)) {
            return null;
        }
        if (type instanceof StructType struct && vector instanceof StructVector fields) {
            Object[] values = new Object[struct.fields().length];
            for (int i = 0; i < values.length; i++) {
                TableColumn readField = read.children().get(i);
                TableColumn writtenField = written.children().stream().filter(field -> field.columnId() == readField.columnId()).findFirst().orElse(null);
                ValueVector child = writtenField == null ? null : fields.getChild(writtenField.name());
                values[i] = child == null
                        ? CatalystValues.toCatalyst(struct.fields()[i].dataType(), readField.initialDefaultValue().orElse(null))
                        : value(readField, struct.fields()[i].dataType(), writtenField, child, row);
            }
            return new GenericInternalRow(values);
        }
        if (type instanceof MapType map && vector instanceof MapVector entries) {
            StructVector pairs = (StructVector) entries.getDataVector();
            int start = entries.getElementStartIndex(row);
            int end = entries.getElementEndIndex(row);
            Object[] keys = new Object[end - start];
            Object[] values = new Object[end - start];
            for (int i = start; i < end; i++) {
                keys[i - start] = value(read.children().get(0), map.keyType(), written.children().get(0), pairs.getChildByOrdinal(0), i);
                values[i - start] = value(read.children().get(1), map.valueType(), written.children().get(1), pairs.getChildByOrdinal(1), i);
            }
            return new ArrayBasedMapData(new GenericArrayData(keys), new GenericArrayData(values));
        }
        if (type instanceof ArrayType array && vector instanceof ListVector list) {
            int start = list.getElementStartIndex(row);
            int end = list.getElementEndIndex(row);
            Object[] elements = new Object[end - start];
            for (int i = start; i < end; i++) {
                elements[i - start] = value(read.children().get(0), array.elementType(), written.children().get(0), list.getDataVector(), i);
            }
            return new GenericArrayData(elements);
        }
        return scalar(read, type, vector, row);
    }

    private static Object scalar(TableColumn read, DataType type, ValueVector vector, int row)
    {
        return switch (vector) {
            case UInt8Vector unsigned -> CatalystValues.toCatalyst(type, unsigned.getObjectNoOverflow(row));
            case BaseIntVector integer -> CatalystValues.toCatalyst(type, integer.getValueAsLong(row));
            case FloatingPointVector floating -> CatalystValues.toCatalyst(type, floating.getValueAsDouble(row));
            case BitVector bits -> bits.get(row) == 1;
            case DecimalVector decimal -> CatalystValues.toCatalyst(type, decimal.getObject(row));
            case DateDayVector days -> days.get(row);
            case TimeStampVector timestamps -> micros(timestamps, row);
            case VarCharVector text -> type == DataTypes.StringType ? UTF8String.fromBytes(text.get(row)) : text.getObject(row).toString();
            case VarBinaryVector binary -> binary.get(row);
            case FixedSizeBinaryVector binary when isUuid(read) -> UTF8String.fromString(InlineArrow.uuid(binary.get(row)).toString());
            case FixedSizeBinaryVector binary -> binary.get(row);
            case IntervalMonthDayNanoVector interval -> {
                NullableIntervalMonthDayNanoHolder holder = new NullableIntervalMonthDayNanoHolder();
                interval.get(row, holder);
                yield UTF8String.fromString(DuckLakeValues.intervalText(holder.months, holder.days, Math.floorDiv(holder.nanoseconds, 1000L)));
            }
            default -> throw SparkErrors.unsupported("column " + read.name() + " (" + read.type().duckLakeName() + ") has inlined values in Arrow type "
                    + vector.getField().getType() + ", which the Spark connector does not read yet");
        };
    }

    private static boolean isUuid(TableColumn column)
    {
        return column.type() instanceof DuckLakeType.Primitive primitive && primitive.kind() == io.moraine.core.types.PrimitiveKind.UUID;
    }

    private static long micros(TimeStampVector vector, int row)
    {
        long value = vector.get(row);
        TimeUnit unit = ((ArrowType.Timestamp) vector.getField().getType()).getUnit();
        return switch (unit) {
            case SECOND -> Math.multiplyExact(value, 1_000_000L);
            case MILLISECOND -> Math.multiplyExact(value, 1_000L);
            case MICROSECOND -> value;
            case NANOSECOND -> Math.floorDiv(value, 1_000L);
        };
    }

}
