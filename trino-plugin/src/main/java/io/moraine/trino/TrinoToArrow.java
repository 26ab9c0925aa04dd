package io.moraine.trino;

import io.airlift.slice.Slice;
import io.moraine.core.write.InlinedStreams;
import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.Int128;
import io.trino.spi.type.LongTimestamp;
import io.trino.spi.type.LongTimestampWithTimeZone;
import io.trino.spi.type.Type;
import io.trino.spi.type.UuidType;
import io.trino.spi.type.VarcharType;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.vector.TimeStampNanoVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.UUID;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.BooleanType.BOOLEAN;
import static io.trino.spi.type.DateType.DATE;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.RealType.REAL;
import static io.trino.spi.type.SmallintType.SMALLINT;
import static io.trino.spi.type.TimeType.TIME_MICROS;
import static io.trino.spi.type.TimestampType.TIMESTAMP_MICROS;
import static io.trino.spi.type.TimestampType.TIMESTAMP_MILLIS;
import static io.trino.spi.type.TimestampType.TIMESTAMP_NANOS;
import static io.trino.spi.type.TimestampWithTimeZoneType.TIMESTAMP_TZ_MICROS;
import static io.trino.spi.type.TinyintType.TINYINT;
import static io.trino.spi.type.VarbinaryType.VARBINARY;

/**
 * Trino pages as one Arrow IPC stream in the table's inlined-row schema ({@code InlinedArrowSchema}), for rows the
 * coordinator inlines. Scalar columns only: {@link #supports} says whether a table's columns all are.
 */
final class TrinoToArrow
{
    private TrinoToArrow() {}

    static boolean supports(List<Type> types)
    {
        return types.stream().allMatch(type -> type == BOOLEAN || type == TINYINT || type == SMALLINT || type == INTEGER || type == BIGINT || type == REAL
                || type == DOUBLE || type instanceof DecimalType || type instanceof VarcharType || type == VARBINARY || type == DATE || type == TIME_MICROS
                || type == TIMESTAMP_MILLIS || type == TIMESTAMP_MICROS || type == TIMESTAMP_NANOS || type == TIMESTAMP_TZ_MICROS || type instanceof UuidType);
    }

    /** The rows of {@code pages} (channels in {@code schema}'s field order) as Arrow IPC stream bytes. */
    static byte[] toIpc(Schema schema, List<Type> types, List<Page> pages, BufferAllocator allocator)
    {
        int rows = pages.stream().mapToInt(Page::getPositionCount).sum();
        try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
            root.allocateNew();
            for (int channel = 0; channel < types.size(); channel++) {
                FieldVector vector = root.getVector(channel);
                int row = 0;
                for (Page page : pages) {
                    Block block = page.getBlock(channel);
                    for (int position = 0; position < page.getPositionCount(); position++, row++) {
                        if (block.isNull(position)) {
                            vector.setNull(row);
                        }
                        else {
                            set(vector, types.get(channel), block, position, row);
                        }
                    }
                }
                vector.setValueCount(rows);
            }
            root.setRowCount(rows);
            return InlinedStreams.encode(root);
        }
    }

    private static void set(FieldVector vector, Type type, Block block, int position, int row)
    {
        switch (vector) {
            case BitVector bits -> bits.setSafe(row, BOOLEAN.getBoolean(block, position) ? 1 : 0);
            case TinyIntVector tiny -> tiny.setSafe(row, (byte) TINYINT.getLong(block, position));
            case SmallIntVector small -> small.setSafe(row, (short) SMALLINT.getLong(block, position));
            case IntVector integer -> integer.setSafe(row, (int) INTEGER.getLong(block, position));
            case BigIntVector big -> big.setSafe(row, BIGINT.getLong(block, position));
            case Float4Vector real -> real.setSafe(row, REAL.getFloat(block, position));
            case Float8Vector doubles -> doubles.setSafe(row, DOUBLE.getDouble(block, position));
            case DecimalVector decimal -> {
                DecimalType decimalType = (DecimalType) type;
                BigDecimal value = decimalType.isShort()
                        ? BigDecimal.valueOf(decimalType.getLong(block, position), decimalType.getScale())
                        : new BigDecimal(((Int128) decimalType.getObject(block, position)).toBigInteger(), decimalType.getScale());
                decimal.setSafe(row, value);
            }
            case VarCharVector varchar -> {
                Slice slice = type.getSlice(block, position);
                varchar.setSafe(row, slice.getBytes());
            }
            case VarBinaryVector binary -> binary.setSafe(row, type.getSlice(block, position).getBytes());
            case DateDayVector date -> date.setSafe(row, (int) DATE.getLong(block, position));
            case TimeMicroVector time -> time.setSafe(row, TIME_MICROS.getLong(block, position) / 1_000_000);
            case TimeStampMicroTZVector timestamp -> {
                LongTimestampWithTimeZone value = (LongTimestampWithTimeZone) TIMESTAMP_TZ_MICROS.getObject(block, position);
                timestamp.setSafe(row, value.getEpochMillis() * 1000 + value.getPicosOfMilli() / 1_000_000);
            }
            case TimeStampMilliVector timestamp -> timestamp.setSafe(row, Math.floorDiv(TIMESTAMP_MILLIS.getLong(block, position), 1000));
            case TimeStampMicroVector timestamp -> timestamp.setSafe(row, TIMESTAMP_MICROS.getLong(block, position));
            case TimeStampNanoVector timestamp -> {
                LongTimestamp value = (LongTimestamp) TIMESTAMP_NANOS.getObject(block, position);
                timestamp.setSafe(row, value.getEpochMicros() * 1000 + value.getPicosOfMicro() / 1000);
            }
            case FixedSizeBinaryVector uuid -> {
                UUID value = UuidType.trinoUuidToJavaUuid(type.getSlice(block, position));
                uuid.setSafe(row, ByteBuffer.allocate(16).putLong(value.getMostSignificantBits()).putLong(value.getLeastSignificantBits()).array());
            }
            default -> throw new IllegalStateException("no inlined-row writer for " + type + " into " + vector.getClass().getSimpleName());
        }
    }

}
