package io.moraine.trino;

import io.airlift.slice.Slices;
import io.moraine.core.inline.read.InlinedArrowValues.Kind;
import io.moraine.core.inline.read.InlinedArrowValues;
import io.moraine.core.types.TableColumn;
import io.trino.spi.TrinoException;
import io.trino.spi.block.ArrayBlockBuilder;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.block.MapBlockBuilder;
import io.trino.spi.block.RowBlockBuilder;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.Int128;
import io.trino.spi.type.LongTimestamp;
import io.trino.spi.type.LongTimestampWithTimeZone;
import io.trino.spi.type.MapType;
import io.trino.spi.type.RowType;
import io.trino.spi.type.TimestampType;
import io.trino.spi.type.Type;
import io.trino.spi.type.UuidType;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.TimeUnit;

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

/**
 * Converts one Arrow column of inlined rows into a Trino block of the column's Trino type, nested types included: the
 * inline reader's {@link InlinedArrowValues} decodes each value (its kind resolved once per column), this writes Trino's.
 */
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
        Kind kind = InlinedArrowValues.kind(vector, null);
        for (int row = 0; row < rows; row++) {
            writeValueOrNull(type, read, written, vector, kind, row, builder);
        }
        return builder.build();
    }

    private static void writeValueOrNull(Type type, TableColumn read, TableColumn written, ValueVector vector, Kind kind, int row, BlockBuilder builder)
    {
        if (vector.isNull(row)) {
            builder.appendNull();
        }
        else if (!writeNested(type, read, written, vector, row, builder)) {
            write(type, vector, kind, row, builder);
        }
    }

    /** LIST, MAP and STRUCT values, element by element into Trino's nested block builders. */
    private static boolean writeNested(Type type, TableColumn read, TableColumn written, ValueVector vector, int row, BlockBuilder builder)
    {
        if (type instanceof MapType map && vector instanceof MapVector entries) {
            StructVector pairs = (StructVector) entries.getDataVector();
            ValueVector keys = pairs.getChildByOrdinal(0);
            ValueVector values = pairs.getChildByOrdinal(1);
            Kind keyKind = InlinedArrowValues.kind(keys, null);
            Kind valueKind = InlinedArrowValues.kind(values, null);
            int start = entries.getElementStartIndex(row);
            int end = entries.getElementEndIndex(row);
            ((MapBlockBuilder) builder).buildEntry((keyBuilder, valueBuilder) -> {
                for (int i = start; i < end; i++) {
                    writeValueOrNull(map.getKeyType(), child(read, 0), child(written, 0), keys, keyKind, i, keyBuilder);
                    writeValueOrNull(map.getValueType(), child(read, 1), child(written, 1), values, valueKind, i, valueBuilder);
                }
            });
            return true;
        }
        if (type instanceof ArrayType array && vector instanceof ListVector list) {
            ValueVector elements = list.getDataVector();
            Kind elementKind = InlinedArrowValues.kind(elements, null);
            int start = list.getElementStartIndex(row);
            int end = list.getElementEndIndex(row);
            ((ArrayBlockBuilder) builder).buildEntry(elementBuilder -> {
                for (int i = start; i < end; i++) {
                    writeValueOrNull(array.getElementType(), child(read, 0), child(written, 0), elements, elementKind, i, elementBuilder);
                }
            });
            return true;
        }
        if (type instanceof RowType rowType && vector instanceof StructVector struct) {
            ((RowBlockBuilder) builder).buildEntry(fieldBuilders -> {
                List<RowType.Field> fields = rowType.getFields();
                for (int i = 0; i < fields.size(); i++) {
                    TableColumn readField = child(read, i);
                    TableColumn writtenField = InlinedArrowValues.writtenField(written, readField);
                    ValueVector child = writtenField == null ? null : struct.getChild(writtenField.name());
                    if (child == null) {
                        fieldBuilders.get(i).appendNull();
                    }
                    else {
                        writeValueOrNull(fields.get(i).getType(), readField, writtenField, child, InlinedArrowValues.kind(child, null), row, fieldBuilders.get(i));
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

    /** One scalar, read by the inline reader's helper of its vector's {@code kind} (resolved once per column). */
    private static void write(Type type, ValueVector vector, Kind kind, int row, BlockBuilder builder)
    {
        if (type instanceof DecimalType decimal && kind == Kind.BIG_INTEGER) {
            writeBigInteger(decimal, vector, row, builder);
        }
        else if (type == TIME_MICROS) {
            TIME_MICROS.writeLong(builder, InlinedArrowValues.timeNanos(vector, row) / 1_000 * PICOSECONDS_PER_MICROSECOND);
        }
        else if (type instanceof TimestampType timestamp && (kind == Kind.TIMESTAMP || kind == Kind.TIMESTAMP_TZ)) {
            writeTimestamp(timestamp, vector, row, builder);
        }
        else if (type == BIGINT || type == INTEGER || type == SMALLINT || type == TINYINT) {
            type.writeLong(builder, InlinedArrowValues.integer(vector, row));
        }
        else if (type == BOOLEAN) {
            BOOLEAN.writeBoolean(builder, InlinedArrowValues.bool(vector, row));
        }
        else if (type == DOUBLE) {
            DOUBLE.writeDouble(builder, InlinedArrowValues.floating(vector, row));
        }
        else if (type == REAL) {
            REAL.writeLong(builder, Float.floatToIntBits((float) InlinedArrowValues.floating(vector, row)));
        }
        else if (type == VARCHAR && kind == Kind.INTERVAL) {
            // Trino has no DuckDB interval: shown as DuckDB prints it.
            VARCHAR.writeString(builder, InlinedArrowValues.interval(vector, row).text());
        }
        else if (type == VARCHAR) {
            VARCHAR.writeSlice(builder, Slices.wrappedBuffer(kind == Kind.TEXT ? InlinedArrowValues.utf8(vector, row) : vector.getObject(row).toString().getBytes()));
        }
        else if (type == VARBINARY) {
            VARBINARY.writeSlice(builder, Slices.wrappedBuffer(InlinedArrowValues.binary(vector, row)));
        }
        else if (type == DATE) {
            DATE.writeLong(builder, InlinedArrowValues.epochDay(vector, row));
        }
        else if (type == TIMESTAMP_TZ_MICROS) {
            long micros = InlinedArrowValues.epochMicros(vector, InlinedArrowValues.unit(vector), row);
            TIMESTAMP_TZ_MICROS.writeObject(builder, LongTimestampWithTimeZone.fromEpochMillisAndFraction(
                    Math.floorDiv(micros, 1000), Math.floorMod(micros, 1000) * 1_000_000, UTC_KEY));
        }
        else if (type instanceof DecimalType decimal) {
            BigDecimal value = InlinedArrowValues.decimal(vector, row);
            if (decimal.isShort()) {
                decimal.writeLong(builder, value.unscaledValue().longValueExact());
            }
            else {
                decimal.writeObject(builder, Int128.valueOf(value.unscaledValue()));
            }
        }
        else if (type instanceof UuidType uuid) {
            uuid.writeSlice(builder, UuidType.javaUuidToTrinoUuid(InlinedArrowValues.uuid(vector, row)));
        }
        else {
            throw new TrinoException(NOT_SUPPORTED, "reading inlined values of type " + type + " is not supported yet");
        }
    }

    /**
     * A UBIGINT, or a HUGEINT or UHUGEINT in its lossless form (ArrowHugeint), into the column's DECIMAL(20 or 38, 0), as
     * the legacy Decimal(38, 0) form reads: a value Trino's 128-bit decimal cannot hold (a UHUGEINT of 2^127 or more) fails.
     */
    private static void writeBigInteger(DecimalType decimal, ValueVector vector, int row, BlockBuilder builder)
    {
        java.math.BigInteger value = InlinedArrowValues.bigInteger(vector, row);
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
    private static void writeTimestamp(TimestampType type, ValueVector vector, int row, BlockBuilder builder)
    {
        TimeUnit unit = InlinedArrowValues.unit(vector);
        long epochMicros = InlinedArrowValues.epochMicros(vector, unit, row);
        if (type.isShort()) {
            type.writeLong(builder, epochMicros);
        }
        else {
            type.writeObject(builder, new LongTimestamp(epochMicros, InlinedArrowValues.nanosOfMicro(vector, unit, row) * 1_000));
        }
    }
}
