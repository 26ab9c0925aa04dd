package io.moraine.core.write;

import io.moraine.core.write.files.FileColumnStatistics;

import io.moraine.core.inline.read.InlinedArrowValues;
import io.moraine.core.types.DuckLakeType;
import io.moraine.core.types.DuckLakeValues;
import io.moraine.core.types.PrimitiveKind;
import io.moraine.core.types.TableColumn;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.BaseListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.Arrays;
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
                Leaf leaf = leaves.computeIfAbsent(column.columnId(), id -> new Leaf(type));
                InlinedArrowValues.Kind kind = InlinedArrowValues.kind(vector, type);
                for (int row = from; row < to; row++) {
                    if (vector.isNull(row) || (parentNull != null && parentNull[row - from])) {
                        leaf.nulls++;
                        continue;
                    }
                    leaf.values++;
                    if (hasBounds(type)) {
                        bound(kind, vector, row, type).ifPresentOrElse(leaf::offer, () -> leaf.unbounded = true);
                    }
                    else {
                        leaf.unbounded = true;
                    }
                }
            }
        }
    }

    /** DuckDB keeps bounds of inlined values of every orderable type, and of intervals and blobs too. */
    private static boolean hasBounds(DuckLakeType type)
    {
        return type.isOrderable() || type.is(PrimitiveKind.INTERVAL) || type.is(PrimitiveKind.BLOB);
    }

    /** A value as what orders it ({@code key}) and as DuckDB prints it ({@code text}). */
    private record Bound(Object key, String text)
    {
        int compareTo(Bound other)
        {
            if (key instanceof byte[] bytes) {
                return Arrays.compareUnsigned(bytes, (byte[]) other.key);
            }
            return DuckLakeValues.compare(key, other.key);
        }
    }

    private static Optional<Bound> bound(InlinedArrowValues.Kind kind, ValueVector vector, int row, DuckLakeType type)
    {
        Object value = switch (kind) {
            case BOOLEAN -> InlinedArrowValues.bool(vector, row);
            case INTEGER -> InlinedArrowValues.integer(vector, row);
            case BIG_INTEGER -> InlinedArrowValues.bigInteger(vector, row);
            case FLOATING -> InlinedArrowValues.floating(vector, row);
            case DECIMAL -> InlinedArrowValues.decimal(vector, row);
            case DATE -> LocalDate.ofEpochDay(InlinedArrowValues.epochDay(vector, row));
            case TIME -> LocalTime.ofNanoOfDay(InlinedArrowValues.timeNanos(vector, row));
            case TIMESTAMP -> {
                var unit = InlinedArrowValues.unit(vector);
                yield LocalDateTime.ofInstant(InlinedArrowValues.instant(vector, unit, row), ZoneOffset.UTC);
            }
            case TIMESTAMP_TZ -> InlinedArrowValues.instant(vector, InlinedArrowValues.unit(vector), row);
            case UUID -> InlinedArrowValues.uuid(vector, row);
            case TEXT -> InlinedArrowValues.text(vector, row);
            case INTERVAL -> {
                InlinedArrowValues.Interval interval = InlinedArrowValues.interval(vector, row);
                yield new Bound(orderOf(interval), interval.text());
            }
            case BINARY -> {
                byte[] bytes = InlinedArrowValues.binary(vector, row);
                yield new Bound(bytes, blobText(bytes));
            }
            default -> null;
        };
        if (value instanceof Bound bound) {
            return Optional.of(bound);
        }
        if (value instanceof LocalTime time) {
            return Optional.of(new Bound(time, DuckLakeValues.text(time)));
        }
        return value == null ? Optional.empty() : DuckLakeValues.normalize(type, value).map(normal -> new Bound(normal, text(type, normal)));
    }

    /** An interval's place in DuckDB's order: its length in micros, a month counted as 30 days and a day as 24 hours. */
    private static BigInteger orderOf(InlinedArrowValues.Interval interval)
    {
        long microsPerDay = 86_400_000_000L;
        return BigInteger.valueOf(interval.months()).multiply(BigInteger.valueOf(30 * microsPerDay))
                .add(BigInteger.valueOf(interval.days()).multiply(BigInteger.valueOf(microsPerDay)))
                .add(BigInteger.valueOf(interval.micros()));
    }

    /** A blob as DuckDB prints it: printable ASCII as it is, other bytes (and backslash and quotes) as {@code \xAB}. */
    static String blobText(byte[] bytes)
    {
        StringBuilder text = new StringBuilder();
        for (byte b : bytes) {
            int c = b & 0xFF;
            if (c >= 32 && c <= 126 && c != '\\' && c != '\'' && c != '"') {
                text.append((char) c);
            }
            else {
                text.append("\\x").append(String.format(java.util.Locale.ROOT, "%02X", c));
            }
        }
        return text.toString();
    }

    private static final class Leaf
    {
        final DuckLakeType type;
        long nulls;
        long values;
        Bound min;
        Bound max;
        boolean unbounded;

        Leaf(DuckLakeType type)
        {
            this.type = type;
        }

        /** NaN takes part: DuckDB orders it above every other value, so a column holding one has max {@code nan}. */
        void offer(Bound value)
        {
            if (min == null || value.compareTo(min) < 0) {
                min = value;
            }
            if (max == null || value.compareTo(max) > 0) {
                max = value;
            }
        }

        FileColumnStatistics statistics(long columnId)
        {
            boolean bounded = !unbounded && min != null;
            return new FileColumnStatistics(columnId, null, values, nulls, bounded ? min.text() : null, bounded ? max.text() : null, null, null);
        }
    }

    /** A bound as DuckDB casts it to VARCHAR. */
    private static String text(DuckLakeType type, Object value)
    {
        if (value instanceof LocalDateTime timestamp && type.is(PrimitiveKind.TIMESTAMP_NS) && timestamp.getNano() % 1000 != 0) {
            String nanos = String.format(java.util.Locale.ROOT, "%09d", timestamp.getNano()).replaceAll("0+$", "");
            return timestamp.toLocalDate() + " " + String.format(java.util.Locale.ROOT, "%02d:%02d:%02d", timestamp.getHour(), timestamp.getMinute(),
                    timestamp.getSecond()) + "." + nanos;
        }
        if (value instanceof Double number) {
            boolean single = type instanceof DuckLakeType.Primitive primitive && primitive.kind() == PrimitiveKind.FLOAT32;
            return floatingText(number, single);
        }
        return DuckLakeValues.text(value);
    }

    /**
     * A FLOAT or DOUBLE as DuckDB prints it: the shortest digits that read back as the value, plain between 1e-4 and
     * 1e16 with at least one decimal ({@code 3.25}, {@code 1.0}), else {@code 1e+20} / {@code 1.5e-07}; {@code inf},
     * {@code -inf}.
     */
    static String floatingText(double value, boolean single)
    {
        if (Double.isNaN(value)) {
            return "nan";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "inf" : "-inf";
        }
        String shortest = single ? Float.toString((float) value) : Double.toString(value);
        BigDecimal decimal = new BigDecimal(shortest);
        if (decimal.signum() == 0) {
            return shortest.startsWith("-") ? "-0.0" : "0.0";
        }
        decimal = decimal.stripTrailingZeros();
        int exponent = decimal.precision() - decimal.scale() - 1;
        String sign = decimal.signum() < 0 ? "-" : "";
        if (exponent < -4 || exponent >= 16) {
            String digits = decimal.unscaledValue().abs().toString();
            String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
            return sign + mantissa + "e" + (exponent < 0 ? "-" : "+") + String.format(java.util.Locale.ROOT, "%02d", Math.abs(exponent));
        }
        String plain = decimal.toPlainString();
        return plain.contains(".") ? plain : plain + ".0";
    }
}
