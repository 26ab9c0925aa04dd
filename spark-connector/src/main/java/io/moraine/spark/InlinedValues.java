package io.moraine.spark;

import io.moraine.core.inline.read.InlinedArrowValues;
import io.moraine.core.types.TableColumn;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
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
 * widened integers, floats and decimals, uuid and interval as text. The inline reader's {@link InlinedArrowValues}
 * decodes each value; this maps it to Spark's.
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
                TableColumn writtenField = InlinedArrowValues.writtenField(written, readField);
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
        return switch (InlinedArrowValues.kind(vector, read.type())) {
            case BIG_INTEGER -> CatalystValues.toCatalyst(type, InlinedArrowValues.bigInteger(vector, row));
            case INTEGER -> CatalystValues.toCatalyst(type, InlinedArrowValues.integer(vector, row));
            case FLOATING -> CatalystValues.toCatalyst(type, InlinedArrowValues.floating(vector, row));
            case BOOLEAN -> InlinedArrowValues.bool(vector, row);
            case DECIMAL -> CatalystValues.toCatalyst(type, InlinedArrowValues.decimal(vector, row));
            case DATE -> InlinedArrowValues.epochDay(vector, row);
            case TIMESTAMP, TIMESTAMP_TZ -> InlinedArrowValues.epochMicros(vector, InlinedArrowValues.unit(vector), row);
            case TEXT -> type == DataTypes.StringType ? UTF8String.fromBytes(InlinedArrowValues.utf8(vector, row)) : InlinedArrowValues.text(vector, row);
            case BINARY -> InlinedArrowValues.binary(vector, row);
            case UUID -> UTF8String.fromString(InlinedArrowValues.uuid(vector, row).toString());
            case INTERVAL -> UTF8String.fromString(InlinedArrowValues.interval(vector, row).text());
            case TIME, LIST, MAP, STRUCT, UNSUPPORTED -> throw SparkErrors.unsupported("column " + read.name() + " (" + read.type().duckLakeName() + ") has inlined values in Arrow type "
                    + vector.getField().getType() + ", which the Spark connector does not read yet");
        };
    }
}
