package io.moraine.core.write;

import io.moraine.core.inline.read.InlinedArrowValues;
import io.moraine.core.types.DuckLakeType;
import io.moraine.core.types.DuckLakeValues;
import io.moraine.core.types.TableColumn;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.BaseListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The statistics DuckLake merges into a table's column statistics for inlined rows: per leaf column, whether a NULL
 * occurs and the min / max as DuckDB casts the values to VARCHAR (so a BOOLEAN is {@code true} / {@code false} here, not
 * the {@code 0} / {@code 1} of Parquet statistics). A struct's fields are NULL where the struct is; a list's or map's
 * leaves count only the slots that exist. Leaves of a type moraine does not order get no bounds.
 */
final class InlinedStatistics
{
    private InlinedStatistics() {}

    static Map<Long, FileColumnStatistics> of(VectorSchemaRoot rows, List<TableColumn> columns)
    {
        Map<Long, Leaf> leaves = new LinkedHashMap<>();
        for (TableColumn column : columns) {
            FieldVector vector = rows.getVector(column.name());
            if (vector != null) {
                visit(column, vector, 0, rows.getRowCount(), null, leaves);
            }
        }
        Map<Long, FileColumnStatistics> statistics = new LinkedHashMap<>();
        leaves.forEach((id, leaf) -> statistics.put(id, leaf.statistics(id)));
        return statistics;
    }

    /** Visits rows [from, to) of {@code vector}; {@code parentStruct} nulls a struct field's slot where the struct is NULL. */
    private static void visit(TableColumn column, ValueVector vector, int from, int to, boolean[] parentNull, Map<Long, Leaf> leaves)
    {
        DuckLakeType type = column.type();
        switch (type) {
            case DuckLakeType.StructOf struct -> {
                StructVector structs = (StructVector) vector;
                boolean[] nulls = new boolean[to - from];
                for (int row = from; row < to; row++) {
                    nulls[row - from] = structs.isNull(row) || (parentNull != null && parentNull[row - from]);
                }
                for (TableColumn field : struct.fields()) {
                    ValueVector child = structs.getChild(field.name());
                    if (child != null) {
                        visit(field, child, from, to, nulls, leaves);
                    }
                }
            }
            case DuckLakeType.ListOf list -> {
                BaseListVector lists = (BaseListVector) vector;
                ListVector listVector = lists instanceof ListVector l ? l : null;
                if (listVector == null) {
                    return;
                }
                int start = listVector.getElementStartIndex(from);
                int end = to > from ? listVector.getElementEndIndex(to - 1) : start;
                visit(list.element(), listVector.getDataVector(), start, end, null, leaves);
            }
            case DuckLakeType.MapOf map -> {
                MapVector maps = (MapVector) vector;
                int start = maps.getElementStartIndex(from);
                int end = to > from ? maps.getElementEndIndex(to - 1) : start;
                StructVector entries = (StructVector) maps.getDataVector();
                visit(map.key(), entries.getChildrenFromFields().get(0), start, end, null, leaves);
                visit(map.value(), entries.getChildrenFromFields().get(1), start, end, null, leaves);
            }
            default -> {
                Leaf leaf = leaves.computeIfAbsent(column.columnId(), id -> new Leaf(type.is(io.moraine.core.types.PrimitiveKind.FLOAT32)));
                InlinedArrowValues.Kind kind = InlinedArrowValues.kind(vector, type);
                for (int row = from; row < to; row++) {
                    if (vector.isNull(row) || (parentNull != null && parentNull[row - from])) {
                        leaf.nulls++;
                        continue;
                    }
                    leaf.values++;
                    if (type.isOrderable()) {
                        value(kind, vector, row, type).ifPresentOrElse(leaf::offer, () -> leaf.unbounded = true);
                    }
                    else {
                        leaf.unbounded = true;
                    }
                }
            }
        }
    }

    private static Optional<Object> value(InlinedArrowValues.Kind kind, ValueVector vector, int row, DuckLakeType type)
    {
        Object value = switch (kind) {
            case BOOLEAN -> InlinedArrowValues.bool(vector, row);
            case INTEGER -> InlinedArrowValues.integer(vector, row);
            case BIG_INTEGER -> InlinedArrowValues.bigInteger(vector, row);
            case FLOATING -> InlinedArrowValues.floating(vector, row);
            case DECIMAL -> InlinedArrowValues.decimal(vector, row);
            case DATE -> LocalDate.ofEpochDay(InlinedArrowValues.epochDay(vector, row));
            case TIMESTAMP -> {
                var unit = InlinedArrowValues.unit(vector);
                yield LocalDateTime.ofInstant(InlinedArrowValues.instant(vector, unit, row), ZoneOffset.UTC);
            }
            case TIMESTAMP_TZ -> InlinedArrowValues.instant(vector, InlinedArrowValues.unit(vector), row);
            case UUID -> InlinedArrowValues.uuid(vector, row);
            case TEXT -> InlinedArrowValues.text(vector, row);
            default -> null;
        };
        return value == null ? Optional.empty() : DuckLakeValues.normalize(type, value);
    }

    private static final class Leaf
    {
        long nulls;
        long values;
        Object min;
        Object max;
        boolean unbounded;
        /** FLOAT values (carried as doubles) print with the float's own digits, as DuckDB prints them. */
        final boolean float32;

        Leaf(boolean float32)
        {
            this.float32 = float32;
        }

        private String text(Object value)
        {
            if (value instanceof Double number) {
                return float32 ? DuckLakeValues.floatText(number.floatValue()) : DuckLakeValues.doubleText(number);
            }
            return DuckLakeValues.text(value);
        }

        void offer(Object value)
        {
            if (value instanceof Double number && number.isNaN()) {
                return;
            }
            if (min == null || DuckLakeValues.compare(value, min) < 0) {
                min = value;
            }
            if (max == null || DuckLakeValues.compare(value, max) > 0) {
                max = value;
            }
        }

        FileColumnStatistics statistics(long columnId)
        {
            boolean bounded = !unbounded && min != null;
            return new FileColumnStatistics(columnId, null, values, nulls, bounded ? text(min) : null,
                    bounded ? text(max) : null, null, null);
        }
    }
}
