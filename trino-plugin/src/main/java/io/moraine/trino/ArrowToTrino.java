package io.moraine.trino;

import io.airlift.slice.Slices;
import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.Int128;
import io.trino.spi.type.LongTimestampWithTimeZone;
import io.trino.spi.type.Type;
import io.trino.spi.type.UuidType;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;

import java.math.BigDecimal;
import java.nio.ByteBuffer;

import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.BooleanType.BOOLEAN;
import static io.trino.spi.type.DateType.DATE;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.RealType.REAL;
import static io.trino.spi.type.SmallintType.SMALLINT;
import static io.trino.spi.type.TimeZoneKey.UTC_KEY;
import static io.trino.spi.type.TimestampType.TIMESTAMP_MICROS;
import static io.trino.spi.type.TimestampWithTimeZoneType.TIMESTAMP_TZ_MICROS;
import static io.trino.spi.type.TinyintType.TINYINT;
import static io.trino.spi.type.VarbinaryType.VARBINARY;
import static io.trino.spi.type.VarcharType.VARCHAR;

/** Converts one Arrow column of inlined rows into a Trino block of the column's Trino type (scalar types). */
final class ArrowToTrino
{
    private ArrowToTrino() {}

    static Block block(Type type, FieldVector vector, int rows)
    {
        BlockBuilder builder = type.createBlockBuilder(null, rows);
        for (int row = 0; row < rows; row++) {
            if (vector.isNull(row)) {
                builder.appendNull();
            }
            else {
                write(type, vector, row, builder);
            }
        }
        return builder.build();
    }

    /** The block of a column a file or chunk lacks: its initial_default on every row, or NULL. */
    static Block missing(MoraineColumnHandle column, int rows)
    {
        Type type = column.type();
        if (column.initialDefault().isEmpty()) {
            return io.trino.spi.block.RunLengthEncodedBlock.create(type, null, rows);
        }
        return io.trino.spi.block.RunLengthEncodedBlock.create(type, constant(type, column.initialDefault().get(), column.name()), rows);
    }

    private static Object constant(Type type, String text, String column)
    {
        if (type == BIGINT || type == INTEGER || type == SMALLINT || type == TINYINT) {
            return Long.parseLong(text);
        }
        if (type == BOOLEAN) {
            return Boolean.parseBoolean(text);
        }
        if (type == DOUBLE) {
            return Double.parseDouble(text);
        }
        if (type == REAL) {
            return (long) Float.floatToIntBits(Float.parseFloat(text));
        }
        if (type == VARCHAR) {
            return Slices.utf8Slice(text);
        }
        if (type == DATE) {
            return java.time.LocalDate.parse(text).toEpochDay();
        }
        if (type instanceof DecimalType decimal) {
            BigDecimal value = new BigDecimal(text).setScale(decimal.getScale());
            return decimal.isShort() ? (Object) value.unscaledValue().longValueExact() : Int128.valueOf(value.unscaledValue());
        }
        throw new TrinoException(NOT_SUPPORTED, "column " + column + " has initial default '" + text + "' of type " + type
                + ", which the connector cannot apply yet");
    }

    private static void write(Type type, FieldVector vector, int row, BlockBuilder builder)
    {
        if (type == BIGINT || type == INTEGER || type == SMALLINT || type == TINYINT) {
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
        else if (type == VARCHAR) {
            VARCHAR.writeSlice(builder, Slices.wrappedBuffer(vector instanceof VarCharVector text ? text.get(row) : vector.getObject(row).toString().getBytes()));
        }
        else if (type == VARBINARY) {
            VARBINARY.writeSlice(builder, Slices.wrappedBuffer(((VarBinaryVector) vector).get(row)));
        }
        else if (type == DATE) {
            DATE.writeLong(builder, ((DateDayVector) vector).get(row));
        }
        else if (type == TIMESTAMP_MICROS) {
            TIMESTAMP_MICROS.writeLong(builder, ((TimeStampVector) vector).get(row));
        }
        else if (type == TIMESTAMP_TZ_MICROS) {
            long micros = ((TimeStampVector) vector).get(row);
            TIMESTAMP_TZ_MICROS.writeObject(builder, LongTimestampWithTimeZone.fromEpochMillisAndFraction(
                    Math.floorDiv(micros, 1000), Math.floorMod(micros, 1000) * 1_000_000, UTC_KEY));
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
                    ? uuidOf(binary.get(row))
                    : java.util.UUID.fromString(vector.getObject(row).toString());
            uuid.writeSlice(builder, UuidType.javaUuidToTrinoUuid(value));
        }
        else {
            throw new TrinoException(NOT_SUPPORTED, "reading inlined values of type " + type + " is not supported yet");
        }
    }

    private static java.util.UUID uuidOf(byte[] bytes)
    {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        return new java.util.UUID(buffer.getLong(), buffer.getLong());
    }
}
