package io.moraine.cli.cat;

import io.moraine.core.error.UnsupportedFeatureException;
import io.moraine.core.inline.read.InlinedArrowValues;
import io.moraine.core.types.DuckLakeType;
import io.moraine.core.types.TableColumn;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.complex.BaseListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * One cell of an Arrow batch of inlined rows (DuckDB's Arrow types, as the import stored them) as {@link CellValues}: the
 * inline reader's {@link InlinedArrowValues} decodes each value, this maps it to cat's classes (infinities, intervals).
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
            case DuckLakeType.StructOf struct -> struct(struct, written, (StructVector) vector, row);
            case DuckLakeType.MapOf map -> map(map, (DuckLakeType.MapOf) written.type(), (MapVector) vector, row);
            case DuckLakeType.ListOf list -> list(list, (DuckLakeType.ListOf) written.type(), (BaseListVector) vector, row);
            default -> CellValues.conform(column.type(), scalar(column, vector, row));
        };
    }

    private static List<Object> struct(DuckLakeType.StructOf struct, TableColumn written, StructVector vector, int row)
    {
        List<Object> values = new ArrayList<>(struct.fields().size());
        for (TableColumn field : struct.fields()) {
            TableColumn writtenField = InlinedArrowValues.writtenField(written, field);
            ValueVector child = writtenField == null ? null : vector.getChild(writtenField.name());
            values.add(child == null ? CellValues.missing(field) : value(field, writtenField, child, row));
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

    private static Object scalar(TableColumn column, ValueVector vector, int row)
    {
        return switch (InlinedArrowValues.kind(vector, column.type())) {
            case BOOLEAN -> InlinedArrowValues.bool(vector, row);
            case INTEGER -> InlinedArrowValues.integer(vector, row);
            case BIG_INTEGER -> InlinedArrowValues.bigInteger(vector, row);
            case FLOATING -> InlinedArrowValues.floating(vector, row);
            case DECIMAL -> InlinedArrowValues.decimal(vector, row);
            case DATE -> {
                TemporalInfinity infinity = infinity(vector, row);
                yield infinity != null ? infinity : LocalDate.ofEpochDay(InlinedArrowValues.epochDay(vector, row));
            }
            case TIME -> LocalTime.ofNanoOfDay(InlinedArrowValues.timeNanos(vector, row));
            // With a time zone (timestamptz) an instant, without one a local date-time.
            case TIMESTAMP -> {
                TemporalInfinity infinity = infinity(vector, row);
                yield infinity != null ? infinity : LocalDateTime.ofInstant(InlinedArrowValues.instant(vector, InlinedArrowValues.unit(vector), row), ZoneOffset.UTC);
            }
            case TIMESTAMP_TZ -> {
                TemporalInfinity infinity = infinity(vector, row);
                yield infinity != null ? infinity : InlinedArrowValues.instant(vector, InlinedArrowValues.unit(vector), row);
            }
            case INTERVAL -> {
                InlinedArrowValues.Interval interval = InlinedArrowValues.interval(vector, row);
                yield new IntervalValue(interval.months(), interval.days(), interval.micros());
            }
            case UUID -> InlinedArrowValues.uuid(vector, row);
            case TEXT -> InlinedArrowValues.text(vector, row);
            case BINARY -> InlinedArrowValues.binary(vector, row);
            case LIST, MAP, STRUCT, UNSUPPORTED -> throw new UnsupportedFeatureException("inlined column " + vector.getField().getName() + " has Arrow type "
                    + vector.getField().getType() + ", which bin/moraine cat does not read; read the table with DuckDB or Trino");
        };
    }

    private static TemporalInfinity infinity(ValueVector vector, int row)
    {
        return switch (InlinedArrowValues.isInfinite(vector, row)) {
            case 1 -> TemporalInfinity.INFINITY;
            case -1 -> TemporalInfinity.MINUS_INFINITY;
            default -> null;
        };
    }
}
