package io.moraine.inline.flush;

import io.moraine.core.error.UnsupportedFeatureException;
import io.moraine.core.inline.ArrowHugeint;
import io.moraine.core.write.files.DataFileRowWriteSupport;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.IntervalMonthDayNanoVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.holders.NullableIntervalMonthDayNanoHolder;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

/**
 * Writes the user columns of one row of Arrow batches (its {@link Cells}) with parquet-java's record consumer, nested
 * lists, structs and maps included; the core's {@link DataFileRowWriteSupport} adds the two hidden DuckLake columns.
 */
final class ArrowRowColumns
{
    /** One row: its position in a batch of user columns. */
    record Cells(List<FieldVector> columns, int index) {}

    /** The user columns of a flushed row, as the core's writer of data file rows takes them. */
    static final DataFileRowWriteSupport.UserColumns<Cells> WRITER = (cells, schema, count, consumer) -> new ArrowRowColumns(consumer).write(cells, schema);

    private final RecordConsumer consumer;

    private ArrowRowColumns(RecordConsumer consumer)
    {
        this.consumer = consumer;
    }

    private void write(Cells cells, MessageType schema)
    {
        int field = 0;
        for (FieldVector column : cells.columns()) {
            writeField(schema.getFieldName(field), field, column, cells.index());
            field++;
        }
    }

    private void writeField(String name, int index, ValueVector vector, int row)
    {
        if (vector.isNull(row)) {
            return;
        }
        consumer.startField(name, index);
        writeValue(vector, row);
        consumer.endField(name, index);
    }

    private void writeValue(ValueVector vector, int row)
    {
        switch (vector) {
            case StructVector struct -> {
                consumer.startGroup();
                int child = 0;
                for (String name : struct.getChildFieldNames()) {
                    writeField(name, child++, struct.getChild(name), row);
                }
                consumer.endGroup();
            }
            case ListVector list -> writeRepeated(list, row);
            case BitVector bits -> consumer.addBoolean(bits.get(row) == 1);
            case TinyIntVector tiny -> consumer.addInteger(tiny.get(row));
            case SmallIntVector small -> consumer.addInteger(small.get(row));
            case IntVector integer -> consumer.addInteger(integer.get(row));
            case BigIntVector big -> consumer.addLong(big.get(row));
            case UInt1Vector unsigned -> consumer.addInteger(unsigned.get(row) & 0xFF);
            case UInt2Vector unsigned -> consumer.addInteger(unsigned.get(row));
            case UInt4Vector unsigned -> consumer.addInteger(unsigned.get(row));
            case UInt8Vector unsigned -> consumer.addLong(unsigned.get(row));
            case Float4Vector single -> consumer.addFloat(single.get(row));
            case Float8Vector dbl -> consumer.addDouble(dbl.get(row));
            case DateDayVector date -> consumer.addInteger(date.get(row));
            case TimeStampVector timestamp -> consumer.addLong(timestamp.get(row));
            case TimeMicroVector time -> consumer.addLong(time.get(row));
            case DecimalVector decimal -> writeDecimal(decimal, row);
            case IntervalMonthDayNanoVector interval -> writeInterval(interval, row);
            case FixedSizeBinaryVector binary when ArrowHugeint.isHugeint(binary.getField()) -> writeHugeint(binary, row);
            case FixedSizeBinaryVector binary -> consumer.addBinary(Binary.fromConstantByteArray(binary.get(row)));
            case BaseVariableWidthVector variable -> consumer.addBinary(Binary.fromConstantByteArray(variable.get(row)));
            case BaseFixedWidthVector fixed when fixed.getTypeWidth() == 16 -> consumer.addBinary(Binary.fromConstantByteArray(bytesOf(fixed, row)));
            default -> throw new IllegalStateException("no Parquet writer for " + vector.getClass().getSimpleName());
        }
    }

    /** Lists ({@code list/element}) and maps ({@code key_value/key,value}) share the repeated-group layout. */
    private void writeRepeated(ListVector list, int row)
    {
        consumer.startGroup();
        int start = list.getElementStartIndex(row);
        int end = list.getElementEndIndex(row);
        if (end > start) {
            boolean map = list instanceof org.apache.arrow.vector.complex.MapVector;
            String repeated = map ? "key_value" : "list";
            consumer.startField(repeated, 0);
            ValueVector data = list.getDataVector();
            for (int element = start; element < end; element++) {
                consumer.startGroup();
                if (map) {
                    StructVector entry = (StructVector) data;
                    writeField("key", 0, entry.getChildByOrdinal(0), element);
                    writeField("value", 1, entry.getChildByOrdinal(1), element);
                }
                else {
                    writeField("element", 0, data, element);
                }
                consumer.endGroup();
            }
            consumer.endField(repeated, 0);
        }
        consumer.endGroup();
    }

    private void writeDecimal(DecimalVector decimal, int row)
    {
        BigDecimal value = decimal.getObject(row);
        if (decimal.getPrecision() <= 9) {
            consumer.addInteger(value.unscaledValue().intValueExact());
        }
        else if (decimal.getPrecision() <= 18) {
            consumer.addLong(value.unscaledValue().longValueExact());
        }
        else {
            byte[] unscaled = value.unscaledValue().toByteArray();
            byte[] fixed = new byte[16];
            byte pad = (byte) (value.signum() < 0 ? 0xFF : 0);
            java.util.Arrays.fill(fixed, 0, 16 - unscaled.length, pad);
            System.arraycopy(unscaled, 0, fixed, 16 - unscaled.length, unscaled.length);
            consumer.addBinary(Binary.fromConstantByteArray(fixed));
        }
    }

    /** A HUGEINT or UHUGEINT as DECIMAL(38, 0): its 16 bytes big-endian, two's complement (ParquetSchemas). */
    private void writeHugeint(FixedSizeBinaryVector binary, int row)
    {
        java.math.BigInteger value = ArrowHugeint.value(binary, row);
        if (value.bitLength() > 127) {
            throw new UnsupportedFeatureException("cannot flush column " + binary.getField().getName() + ": its UHUGEINT value " + value
                    + " is 2^127 or more, which no Parquet type that DuckDB reads back as an integer holds (moraine writes UHUGEINT as "
                    + "DECIMAL(38, 0); DuckDB's own flush, CALL ducklake_flush_inlined_data(...), writes it as DOUBLE, rounding it). "
                    + "Nothing was committed; the rows stay inlined");
        }
        byte[] bigEndian = new byte[ArrowHugeint.BYTE_WIDTH];
        byte[] littleEndian = binary.get(row);
        for (int i = 0; i < bigEndian.length; i++) {
            bigEndian[i] = littleEndian[bigEndian.length - 1 - i];
        }
        consumer.addBinary(Binary.fromConstantByteArray(bigEndian));
    }

    /** Parquet INTERVAL: months, days, milliseconds as three little-endian uint32 (DuckDB's writer does the same). */
    private void writeInterval(IntervalMonthDayNanoVector interval, int row)
    {
        NullableIntervalMonthDayNanoHolder holder = new NullableIntervalMonthDayNanoHolder();
        interval.get(row, holder);
        ByteBuffer bytes = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
        bytes.putInt(holder.months).putInt(holder.days).putInt((int) (holder.nanoseconds / 1_000_000));
        consumer.addBinary(Binary.fromConstantByteArray(bytes.array()));
    }

    private static byte[] bytesOf(BaseFixedWidthVector vector, int row)
    {
        byte[] bytes = new byte[vector.getTypeWidth()];
        vector.getDataBuffer().getBytes((long) row * vector.getTypeWidth(), bytes);
        return bytes;
    }
}
