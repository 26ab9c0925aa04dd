package io.moraine.duckdb.ext;

import io.moraine.core.inline.ArrowHugeint;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntervalMonthDayNanoVector;
import org.apache.arrow.vector.PeriodDuration;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Java values written into Arrow vectors of a table's inlined schema, as an engine fills a batch for
 * {@code WriteTransaction.insertInlined}: integers as any {@link Number} (UBIGINT, HUGEINT, UHUGEINT as
 * {@link BigInteger}), {@link BigDecimal}, {@link LocalDate}, {@link LocalTime}, {@link LocalDateTime} (TIMESTAMP of
 * any unit), {@link Instant} (TIMESTAMPTZ), {@link PeriodDuration} (INTERVAL), {@link String} (VARCHAR, JSON, and UUID
 * as text), {@link UUID}, {@code byte[]}, {@link Boolean}; a struct as a {@code Map} of field name to value, a list as a
 * {@code List}, a map as a {@code Map}; {@code null} for NULL.
 */
final class WriteOracleRows
{
    private WriteOracleRows() {}

    static VectorSchemaRoot of(Schema schema, List<List<Object>> rows, BufferAllocator allocator)
    {
        VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
        try {
            for (FieldVector vector : root.getFieldVectors()) {
                vector.allocateNew();
            }
            for (int row = 0; row < rows.size(); row++) {
                List<Object> values = rows.get(row);
                if (values.size() != schema.getFields().size()) {
                    throw new IllegalArgumentException("row " + row + " has " + values.size() + " values for " + schema.getFields().size() + " columns");
                }
                for (int column = 0; column < values.size(); column++) {
                    write(root.getVector(column), row, values.get(column));
                }
            }
            root.setRowCount(rows.size());
            return root;
        }
        catch (RuntimeException e) {
            root.close();
            throw e;
        }
    }

    private static void write(FieldVector vector, int index, Object value)
    {
        if (value == null) {
            setNull(vector, index);
            return;
        }
        switch (vector) {
            case MapVector map -> {
                Map<?, ?> entries = (Map<?, ?>) value;
                int offset = map.startNewValue(index);
                StructVector struct = (StructVector) map.getDataVector();
                int slot = offset;
                for (Map.Entry<?, ?> entry : entries.entrySet()) {
                    struct.setIndexDefined(slot);
                    write((FieldVector) struct.getChildrenFromFields().get(0), slot, entry.getKey());
                    write((FieldVector) struct.getChildrenFromFields().get(1), slot, entry.getValue());
                    slot++;
                }
                map.endValue(index, entries.size());
            }
            case ListVector list -> {
                List<?> elements = (List<?>) value;
                int offset = list.startNewValue(index);
                for (int i = 0; i < elements.size(); i++) {
                    write(list.getDataVector(), offset + i, elements.get(i));
                }
                list.endValue(index, elements.size());
            }
            case StructVector struct -> {
                Map<?, ?> fields = (Map<?, ?>) value;
                struct.setIndexDefined(index);
                for (FieldVector child : struct.getChildrenFromFields()) {
                    write(child, index, fields.get(child.getName()));
                }
            }
            case FixedSizeBinaryVector binary -> {
                ArrowHugeint.Kind kind = ArrowHugeint.kind(binary.getField()).orElseThrow();
                binary.setSafe(index, ArrowHugeint.bytes(toBigInteger(value), kind));
            }
            case UInt8Vector unsigned -> unsigned.setSafe(index, toBigInteger(value).longValue());
            case BaseIntVector integer -> integer.setUnsafeWithPossibleTruncate(index, ((Number) value).longValue());
            case Float4Vector floats -> floats.setSafe(index, ((Number) value).floatValue());
            case Float8Vector doubles -> doubles.setSafe(index, ((Number) value).doubleValue());
            case DecimalVector decimal -> decimal.setSafe(index, ((BigDecimal) value).setScale(decimal.getScale(), RoundingMode.UNNECESSARY));
            case DateDayVector date -> date.setSafe(index, (int) ((LocalDate) value).toEpochDay());
            case TimeMicroVector time -> time.setSafe(index, ((LocalTime) value).toNanoOfDay() / 1000);
            case TimeStampVector timestamp -> timestamp.setSafe(index, epoch(value, ((ArrowType.Timestamp) timestamp.getField().getType()).getUnit()));
            case IntervalMonthDayNanoVector interval -> {
                PeriodDuration period = (PeriodDuration) value;
                interval.setSafe(index, (int) period.getPeriod().toTotalMonths(), period.getPeriod().getDays(), period.getDuration().toNanos());
            }
            case BitVector bool -> bool.setSafe(index, (Boolean) value ? 1 : 0);
            case BaseVariableWidthVector bytes -> bytes.setSafe(index, value instanceof byte[] raw ? raw : value.toString().getBytes(StandardCharsets.UTF_8));
            default -> throw new IllegalArgumentException("no writer for " + vector.getField());
        }
    }

    private static void setNull(FieldVector vector, int index)
    {
        switch (vector) {
            case ListVector list -> list.setNull(index);
            case StructVector struct -> {
                struct.setNull(index);
                struct.getChildrenFromFields().forEach(child -> setNull(child, index));
            }
            case BaseFixedWidthVector fixed -> {
                if (index >= fixed.getValueCapacity()) {
                    fixed.reAlloc();
                }
                fixed.setNull(index);
            }
            case BaseVariableWidthVector variable -> variable.setNull(index);
            default -> throw new IllegalArgumentException("no null writer for " + vector.getField());
        }
    }

    private static BigInteger toBigInteger(Object value)
    {
        return value instanceof BigInteger big ? big : BigInteger.valueOf(((Number) value).longValue());
    }

    private static long epoch(Object value, TimeUnit unit)
    {
        Instant instant = value instanceof LocalDateTime local ? local.toInstant(ZoneOffset.UTC) : (Instant) value;
        return switch (unit) {
            case SECOND -> instant.getEpochSecond();
            case MILLISECOND -> instant.toEpochMilli();
            case MICROSECOND -> Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1000);
            case NANOSECOND -> Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000_000L), instant.getNano());
        };
    }
}
