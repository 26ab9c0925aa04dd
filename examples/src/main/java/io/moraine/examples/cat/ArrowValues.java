package io.moraine.examples.cat;

import io.moraine.core.error.UnsupportedFeatureException;
import io.moraine.core.inline.ArrowHugeint;
import io.moraine.core.types.DuckLakeType;
import io.moraine.core.types.TableColumn;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.Decimal256Vector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntervalDayVector;
import org.apache.arrow.vector.IntervalMonthDayNanoVector;
import org.apache.arrow.vector.IntervalYearVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VariableWidthFieldVector;
import org.apache.arrow.vector.complex.BaseListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.holders.NullableIntervalDayHolder;
import org.apache.arrow.vector.holders.NullableIntervalMonthDayNanoHolder;
import org.apache.arrow.vector.types.pojo.ArrowType;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One cell of an Arrow batch of inlined rows (DuckDB's Arrow types, as the import stored them) as {@link CellValues}.
 * A batch names its columns and struct fields as its schema version did: each value is read as {@code column} (the read
 * schema) from a vector laid out as {@code written} (the same column in the batch's version), struct fields matched by id.
 */
final class ArrowValues
{
    private ArrowValues() {}

    static Object value(TableColumn column, TableColumn written, ValueVector vector, int row)
    {
        if (vector.isNull(row)) {
            return null;
        }
        return switch (column.type()) {
            case DuckLakeType.StructOf struct -> struct(struct, (DuckLakeType.StructOf) written.type(), (StructVector) vector, row);
            case DuckLakeType.MapOf map -> map(map, (DuckLakeType.MapOf) written.type(), (MapVector) vector, row);
            case DuckLakeType.ListOf list -> list(list, (DuckLakeType.ListOf) written.type(), (BaseListVector) vector, row);
            default -> CellValues.conform(column.type(), scalar(vector, row));
        };
    }

    private static List<Object> struct(DuckLakeType.StructOf struct, DuckLakeType.StructOf written, StructVector vector, int row)
    {
        List<Object> values = new ArrayList<>(struct.fields().size());
        for (TableColumn field : struct.fields()) {
            Optional<TableColumn> writtenField = written.fields().stream().filter(candidate -> candidate.columnId() == field.columnId()).findFirst();
            ValueVector child = writtenField.map(candidate -> (ValueVector) vector.getChild(candidate.name())).orElse(null);
            values.add(child == null ? CellValues.missing(field) : value(field, writtenField.get(), child, row));
        }
        return values;
    }

    private static List<Object> list(DuckLakeType.ListOf list, DuckLakeType.ListOf written, BaseListVector vector, int row)
    {
        ValueVector elements = vector.getChildrenFromFields().getFirst();
        List<Object> values = new ArrayList<>();
        for (int i = vector.getElementStartIndex(row); i < vector.getElementEndIndex(row); i++) {
            values.add(value(list.element(), written.element(), elements, i));
        }
        return values;
    }

    private static List<Object> map(DuckLakeType.MapOf map, DuckLakeType.MapOf written, MapVector vector, int row)
    {
        StructVector entries = (StructVector) vector.getDataVector();
        ValueVector keys = entries.getChildByOrdinal(0);
        ValueVector values = entries.getChildByOrdinal(1);
        List<Object> pairs = new ArrayList<>();
        for (int i = vector.getElementStartIndex(row); i < vector.getElementEndIndex(row); i++) {
            pairs.add(CellValues.mapEntry(value(map.key(), written.key(), keys, i), value(map.value(), written.value(), values, i)));
        }
        return pairs;
    }

    private static Object scalar(ValueVector vector, int row)
    {
        return switch (vector) {
            case BitVector bool -> bool.get(row) == 1;
            case UInt8Vector unsigned -> unsigned.getObjectNoOverflow(row);
            case BaseIntVector integer -> integer.getValueAsLong(row);
            case Float4Vector real -> (double) real.get(row);
            case Float8Vector real -> real.get(row);
            case DecimalVector decimal -> decimal.getObject(row);
            case Decimal256Vector decimal -> decimal.getObject(row);
            case DateDayVector date -> {
                TemporalInfinity infinity = TemporalInfinity.of(date.get(row), Integer.MAX_VALUE);
                yield infinity != null ? infinity : LocalDate.ofEpochDay(date.get(row));
            }
            case TimeSecVector time -> LocalTime.ofSecondOfDay(time.get(row));
            case TimeMilliVector time -> LocalTime.ofNanoOfDay(time.get(row) * 1_000_000L);
            case TimeMicroVector time -> LocalTime.ofNanoOfDay(time.get(row) * 1_000L);
            case TimeNanoVector time -> LocalTime.ofNanoOfDay(time.get(row));
            case TimeStampVector timestamp -> timestamp(timestamp, row);
            case IntervalMonthDayNanoVector interval -> {
                NullableIntervalMonthDayNanoHolder holder = new NullableIntervalMonthDayNanoHolder();
                interval.get(row, holder);
                yield new IntervalValue(holder.months, holder.days, holder.nanoseconds / 1000);
            }
            case IntervalDayVector interval -> {
                NullableIntervalDayHolder holder = new NullableIntervalDayHolder();
                interval.get(row, holder);
                yield new IntervalValue(0, holder.days, holder.milliseconds * 1000L);
            }
            case IntervalYearVector interval -> new IntervalValue(interval.get(row), 0, 0);
            case FixedSizeBinaryVector binary when ArrowHugeint.isHugeint(binary.getField()) -> ArrowHugeint.value(binary, row);
            case FixedSizeBinaryVector binary -> binary.get(row);
            case VariableWidthFieldVector variable when variable.getField().getType() instanceof ArrowType.Utf8
                    || variable.getField().getType() instanceof ArrowType.LargeUtf8 || variable.getField().getType() instanceof ArrowType.Utf8View ->
                    new String(variable.get(row), StandardCharsets.UTF_8);
            case VariableWidthFieldVector binary -> binary.get(row);
            default -> throw new UnsupportedFeatureException("inlined column " + vector.getField().getName() + " has Arrow type "
                    + vector.getField().getType() + ", which bin/moraine cat does not read; read the table with DuckDB or Trino");
        };
    }

    /** Any unit; with a time zone (timestamptz) an instant, without one a local date-time. */
    private static Object timestamp(TimeStampVector vector, int row)
    {
        long value = vector.get(row);
        TemporalInfinity infinity = TemporalInfinity.of(value, Long.MAX_VALUE);
        if (infinity != null) {
            return infinity;
        }
        ArrowType.Timestamp type = (ArrowType.Timestamp) vector.getField().getType();
        long nanosPerUnit = switch (type.getUnit()) {
            case SECOND -> 1_000_000_000L;
            case MILLISECOND -> 1_000_000L;
            case MICROSECOND -> 1_000L;
            case NANOSECOND -> 1L;
        };
        long perSecond = 1_000_000_000L / nanosPerUnit;
        Instant instant = Instant.ofEpochSecond(Math.floorDiv(value, perSecond), Math.floorMod(value, perSecond) * nanosPerUnit);
        return type.getTimezone() == null ? LocalDateTime.ofInstant(instant, ZoneOffset.UTC) : instant;
    }
}
