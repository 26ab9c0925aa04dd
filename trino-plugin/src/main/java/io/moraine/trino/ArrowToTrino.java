package io.moraine.trino;

import io.airlift.slice.Slices;
import io.moraine.core.inline.ArrowHugeint;
import io.moraine.core.types.DuckLakeValues;
import io.moraine.core.types.TableColumn;
import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.block.ArrayBlockBuilder;
import io.trino.spi.block.MapBlockBuilder;
import io.trino.spi.block.RowBlockBuilder;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.LongTimestamp;
import io.trino.spi.type.MapType;
import io.trino.spi.type.RowType;
import io.trino.spi.type.TimestampType;
import io.trino.spi.type.Int128;
import io.trino.spi.type.LongTimestampWithTimeZone;
import io.trino.spi.type.Type;
import io.trino.spi.type.UuidType;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntervalMonthDayNanoVector;
import org.apache.arrow.vector.holders.NullableIntervalMonthDayNanoHolder;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;

import java.math.BigDecimal;
import java.util.List;

import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;
import static io.trino.spi.StandardErrorCode.NUMERIC_VALUE_OUT_OF_RANGE;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.BooleanType.BOOLEAN;
import static io.trino.spi.type.DateType.DATE;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.RealType.REAL;
import static io.trino.spi.type.SmallintType.SMALLINT;
import static io.trino.spi.type.TimeZoneKey.UTC_KEY;
import static io.trino.spi.type.TimeType.TIME_MICROS;
import static io.trino.spi.type.Timestamps.PICOSECONDS_PER_MICROSECOND;
import static io.trino.spi.type.TimestampWithTimeZoneType.TIMESTAMP_TZ_MICROS;
import static io.trino.spi.type.TinyintType.TINYINT;
import static io.trino.spi.type.VarbinaryType.VARBINARY;
import static io.trino.spi.type.VarcharType.VARCHAR;

/** Converts one Arrow column of inlined rows into a Trino block of the column's Trino type, nested types included. */
final class ArrowToTrino
{
    private ArrowToTrino() {}

    /**
     * The block of read column {@code read} from {@code vector}, which holds the column as {@code written} (the schema
     * version the rows were inlined under): struct fields are found by column id, so renamed fields read too.
     */
    static Block block(Type type, TableColumn read, TableColumn written, FieldVector vector, int rows)
    {
        BlockBuilder builder = type.createBlockBuilder(null, rows);
        for (int row = 0; row < rows; row++) {
            writeValueOrNull(type, read, written, vector, row, builder);
        }
        return builder.build();
    }

    private static void writeValueOrNull(Type type, TableColumn read, TableColumn written, ValueVector vector, int row, BlockBuilder builder)
    {
        if (vector.isNull(row)) {
            builder.appendNull();
        }
        else if (!writeNested(type, read, written, vector, row, builder)) {
            write(type, vector, row, builder);
        }
    }

    /** LIST, MAP and STRUCT values, element by element into Trino's nested block builders. */
    private static boolean writeNested(Type type, TableColumn read, TableColumn written, ValueVector vector, int row, BlockBuilder builder)
    {
        if (type instanceof MapType map && vector instanceof MapVector entries) {
            StructVector pairs = (StructVector) entries.getDataVector();
            ValueVector keys = pairs.getChildByOrdinal(0);
            ValueVector values = pairs.getChildByOrdinal(1);
            int start = entries.getElementStartIndex(row);
            int end = entries.getElementEndIndex(row);
            ((MapBlockBuilder) builder).buildEntry((keyBuilder, valueBuilder) -> {
                for (int i = start; i < end; i++) {
                    writeValueOrNull(map.getKeyType(), child(read, 0), child(written, 0), keys, i, keyBuilder);
                    writeValueOrNull(map.getValueType(), child(read, 1), child(written, 1), values, i, valueBuilder);
                }
            });
            return true;
        }
        if (type instanceof ArrayType array && vector instanceof ListVector list) {
            ValueVector elements = list.getDataVector();
            int start = list.getElementStartIndex(row);
            int end = list.getElementEndIndex(row);
            ((ArrayBlockBuilder) builder).buildEntry(elementBuilder -> {
                for (int i = start; i < end; i++) {
                    writeValueOrNull(array.getElementType(), child(read, 0), child(written, 0), elements, i, elementBuilder);
                }
            });
            return true;
        }
        if (type instanceof RowType rowType && vector instanceof StructVector struct) {
            ((RowBlockBuilder) builder).buildEntry(fieldBuilders -> {
                List<RowType.Field> fields = rowType.getFields();
                for (int i = 0; i < fields.size(); i++) {
                    TableColumn readField = child(read, i);
                    TableColumn writtenField = written.children().stream().filter(field -> field.columnId() == readField.columnId()).findFirst().orElse(null);
                    ValueVector child = writtenField == null ? null : struct.getChild(writtenField.name());
                    if (child == null) {
                        fieldBuilders.get(i).appendNull();
                    }
                    else {
                        writeValueOrNull(fields.get(i).getType(), readField, writtenField, child, row, fieldBuilders.get(i));
                    }
                }
            });
            return true;
        }
        return false;
    }

    private static TableColumn child(TableColumn column, int index)
    {
        return column.children().get(index);
    }

    /** The block of a column a file or chunk lacks: its initial_default on every row, or NULL. */
    static Block missing(MoraineColumnHandle column, int rows)
    {
        return io.trino.spi.block.RunLengthEncodedBlock.create(column.type(), column.initialDefaultValue().orElse(null), rows);
    }

    private static void write(Type type, ValueVector vector, int row, BlockBuilder builder)
    {
        if (type instanceof DecimalType decimal && vector instanceof UInt8Vector unsigned) {
            java.math.BigInteger value = unsigned.getObjectNoOverflow(row);
            if (decimal.isShort()) {
                decimal.writeLong(builder, value.longValueExact());
            }
            else {
                decimal.writeObject(builder, Int128.valueOf(value));
            }
        }
        else if (type == TIME_MICROS) {
            TIME_MICROS.writeLong(builder, ((TimeMicroVector) vector).get(row) * PICOSECONDS_PER_MICROSECOND);
        }
        else if (type instanceof TimestampType timestamp && vector instanceof TimeStampVector timestamps) {
            writeTimestamp(timestamp, timestamps, row, builder);
        }
        else if (type == BIGINT || type == INTEGER || type == SMALLINT || type == TINYINT) {
            type.writeLong(builder, ((BaseIntVector) vector).getValueAsLong(row));
        }
        else if (type == BOOLEAN) {
            BOOLEAN.writeBoolean(builder, ((BitVector) vector).get(row) == 1);
        }
        else if (type == DOUBLE) {
            DOUBLE.writeDouble(builder, ((Float8Vector) vector).get(row));
        }
        else if (type == REAL) {
            REAL.writeLong(builder, Float.floatToIntBits(((Float4Vector) vector).get(row)));
        }
        else if (type == VARCHAR && vector instanceof IntervalMonthDayNanoVector interval) {
            // Trino has no DuckDB interval: shown as DuckDB prints it.
            NullableIntervalMonthDayNanoHolder holder = new NullableIntervalMonthDayNanoHolder();
            interval.get(row, holder);
            VARCHAR.writeString(builder, DuckLakeValues.intervalText(holder.months, holder.days, Math.floorDiv(holder.nanoseconds, 1000L)));
        }
        else if (type == VARCHAR) {
            VARCHAR.writeSlice(builder, Slices.wrappedBuffer(vector instanceof VarCharVector text ? text.get(row) : vector.getObject(row).toString().getBytes()));
        }
        else if (type == VARBINARY) {
            VARBINARY.writeSlice(builder, Slices.wrappedBuffer(((VarBinaryVector) vector).get(row)));
        }
        else if (type == DATE) {
            DATE.writeLong(builder, ((DateDayVector) vector).get(row));
        }
        else if (type == TIMESTAMP_TZ_MICROS) {
            long micros = ((TimeStampVector) vector).get(row);
            TIMESTAMP_TZ_MICROS.writeObject(builder, LongTimestampWithTimeZone.fromEpochMillisAndFraction(
                    Math.floorDiv(micros, 1000), Math.floorMod(micros, 1000) * 1_000_000, UTC_KEY));
        }
        else if (type instanceof DecimalType decimal && vector instanceof FixedSizeBinaryVector binary && ArrowHugeint.isHugeint(binary.getField())) {
            writeHugeint(decimal, binary, row, builder);
        }
        else if (type instanceof DecimalType decimal) {
            BigDecimal value = ((DecimalVector) vector).getObject(row);
            if (decimal.isShort()) {
                decimal.writeLong(builder, value.unscaledValue().longValueExact());
            }
            else {
                decimal.writeObject(builder, Int128.valueOf(value.unscaledValue()));
            }
        }
        else if (type instanceof UuidType uuid) {
            java.util.UUID value = vector instanceof FixedSizeBinaryVector binary
                    ? io.moraine.core.inline.InlineArrow.uuid(binary.get(row))
                    : java.util.UUID.fromString(vector.getObject(row).toString());
            uuid.writeSlice(builder, UuidType.javaUuidToTrinoUuid(value));
        }
        else {
            throw new TrinoException(NOT_SUPPORTED, "reading inlined values of type " + type + " is not supported yet");
        }
    }

    /**
     * A HUGEINT or UHUGEINT in its lossless form (ArrowHugeint) into the column's DECIMAL(38, 0), as the legacy
     * Decimal(38, 0) form reads: a value Trino's 128-bit decimal cannot hold (a UHUGEINT of 2^127 or more) fails.
     */
    private static void writeHugeint(DecimalType decimal, FixedSizeBinaryVector vector, int row, BlockBuilder builder)
    {
        java.math.BigInteger value = ArrowHugeint.value(vector, row);
        if (decimal.isShort()) {
            decimal.writeLong(builder, value.longValueExact());
        }
        else if (value.bitLength() > 127) {
            throw new TrinoException(NUMERIC_VALUE_OUT_OF_RANGE, "inlined value " + value + " of column " + vector.getField().getName()
                    + " does not fit Trino's " + decimal);
        }
        else {
            decimal.writeObject(builder, Int128.valueOf(value));
        }
    }

    /** Any Arrow timestamp unit into Trino's timestamp of the column's precision (epoch micros, plus picos when long). */
    private static void writeTimestamp(TimestampType type, TimeStampVector vector, int row, BlockBuilder builder)
    {
        long value = vector.get(row);
        TimeUnit unit = ((ArrowType.Timestamp) vector.getField().getType()).getUnit();
        long epochMicros = switch (unit) {
            case SECOND -> Math.multiplyExact(value, 1_000_000L);
            case MILLISECOND -> Math.multiplyExact(value, 1_000L);
            case MICROSECOND -> value;
            case NANOSECOND -> Math.floorDiv(value, 1_000L);
        };
        if (type.isShort()) {
            type.writeLong(builder, epochMicros);
        }
        else {
            int picosOfMicro = unit == TimeUnit.NANOSECOND ? (int) Math.floorMod(value, 1_000L) * 1_000 : 0;
            type.writeObject(builder, new LongTimestamp(epochMicros, picosOfMicro));
        }
    }
}
