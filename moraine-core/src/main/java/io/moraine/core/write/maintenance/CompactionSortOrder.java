package io.moraine.core.write.maintenance;

import io.moraine.core.catalog.SortSpec;
import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.error.UnsupportedFeatureException;
import io.moraine.core.types.DuckLakeType;
import io.moraine.core.types.TableColumn;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The table's sort order as DuckLake 1.5.5's compaction applies it ({@code DuckLakeCompactor::InsertSort}): the
 * {@code duckdb}-dialect keys of the table's current sort spec (other dialects are skipped), each bound to a column of
 * the table at the sources' schema version, compared with DuckDB's ordering: NULLs where the key puts them, strings and
 * blobs by their bytes, -0.0 equal to 0.0 and NaN above every other float. The core evaluates column references only
 * (the keys its write API sets); any other expression is refused.
 */
final class CompactionSortOrder
{
    private record Key(String expression, TableColumn column, boolean descending, boolean nullsFirst) {}

    private final List<Key> keys;

    private CompactionSortOrder(List<Key> keys)
    {
        this.keys = keys;
    }

    /** The order for sources whose columns are {@code columns}; empty when the spec has no DuckDB key. */
    static Optional<CompactionSortOrder> of(Optional<SortSpec> spec, List<TableColumn> columns, String table, String call)
    {
        if (spec.isEmpty()) {
            return Optional.empty();
        }
        List<Key> keys = new ArrayList<>();
        for (SortSpec.Key key : spec.get().keys()) {
            if (!key.dialect().equals("duckdb")) {
                continue;
            }
            String name = columnName(key.expression()).orElseThrow(() -> new UnsupportedFeatureException("table " + table + " is sorted by the "
                    + "expression '" + key.expression() + "', which the core cannot evaluate (it sorts by column references only) — run " + call
                    + " through DuckDB"));
            TableColumn column = column(columns, name).orElseThrow(() -> new InvalidArgumentException("table " + table + " is sorted by '"
                    + key.expression() + "', but the files to compact have no column of that name (as DuckDB, " + call + " binds the sort order "
                    + "to the columns the files were written with); set a sort order of existing columns with ALTER TABLE ... SET SORTED BY"));
            if (!sortable(column.type())) {
                throw new UnsupportedFeatureException("table " + table + " is sorted by column " + column.name() + " of type " + column.type().duckLakeName()
                        + ", which the core does not order as DuckDB does — run " + call + " through DuckDB");
            }
            keys.add(new Key(key.expression(), column, key.descending(), key.nullsFirst()));
        }
        return keys.isEmpty() ? Optional.empty() : Optional.of(new CompactionSortOrder(keys));
    }

    /** Where each key's column is among the top-level fields of {@code schema} (by field id, else by name). */
    int[] fieldsOf(MessageType schema)
    {
        int[] fields = new int[keys.size()];
        for (int index = 0; index < keys.size(); index++) {
            TableColumn column = keys.get(index).column();
            fields[index] = -1;
            for (int field = 0; field < schema.getFieldCount(); field++) {
                Type type = schema.getType(field);
                if (type.getId() != null ? type.getId().intValue() == column.columnId() : type.getName().equalsIgnoreCase(column.name())) {
                    fields[index] = field;
                    break;
                }
            }
            if (fields[index] < 0 || !schema.getType(fields[index]).isPrimitive()) {
                throw new UnsupportedFeatureException("a file to compact holds sort column " + column.name() + " in a form the core does not read "
                        + "for sorting (" + (fields[index] < 0 ? "absent" : schema.getType(fields[index])) + ") — compact this table through DuckDB");
            }
        }
        return fields;
    }

    /** The sort key of one row: each key column's value, comparable, or null. */
    Comparable<?>[] keyOf(Group row, MessageType schema, int[] fields)
    {
        Comparable<?>[] values = new Comparable<?>[fields.length];
        for (int index = 0; index < fields.length; index++) {
            int field = fields[index];
            values[index] = row.getFieldRepetitionCount(field) == 0 ? null : value(row, field, schema.getType(field).asPrimitiveType());
        }
        return values;
    }

    /** Compares sort keys as DuckDB's ORDER BY does with the table's keys. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    Comparator<Comparable<?>[]> comparator()
    {
        return (left, right) -> {
            for (int index = 0; index < keys.size(); index++) {
                Key key = keys.get(index);
                Comparable a = left[index];
                Comparable b = right[index];
                int result;
                if (a == null || b == null) {
                    result = a == b ? 0 : (a == null) == key.nullsFirst() ? -1 : 1;
                }
                else {
                    result = a.compareTo(b);
                    if (key.descending()) {
                        result = -result;
                    }
                }
                if (result != 0) {
                    return result;
                }
            }
            return 0;
        };
    }

    private static Comparable<?> value(Group row, int field, PrimitiveType type)
    {
        LogicalTypeAnnotation logical = type.getLogicalTypeAnnotation();
        boolean unsigned = logical instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation integer && !integer.isSigned();
        return switch (type.getPrimitiveTypeName()) {
            case BOOLEAN -> row.getBoolean(field, 0);
            case INT32 -> unsigned ? Integer.toUnsignedLong(row.getInteger(field, 0)) : (long) row.getInteger(field, 0);
            // unsigned 64-bit values keep their order as signed ones once the sign bit is flipped
            case INT64 -> unsigned ? row.getLong(field, 0) ^ Long.MIN_VALUE : row.getLong(field, 0);
            case FLOAT -> canonical(row.getFloat(field, 0));
            case DOUBLE -> canonical(row.getDouble(field, 0));
            case BINARY, FIXED_LEN_BYTE_ARRAY -> {
                byte[] bytes = row.getBinary(field, 0).getBytes();
                yield logical instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation ? new BigInteger(bytes) : new Bytes(bytes);
            }
            case INT96 -> throw new UnsupportedFeatureException("a file to compact holds sort column " + type.getName() + " as INT96, which the core "
                    + "does not order — compact this table through DuckDB");
        };
    }

    /** DuckDB orders -0.0 equal to 0.0 and every NaN above +infinity; {@link Double#compareTo} does once they are folded. */
    private static Double canonical(double value)
    {
        if (Double.isNaN(value)) {
            return Double.NaN;
        }
        return value == 0.0 ? 0.0 : value;
    }

    private record Bytes(byte[] bytes)
            implements Comparable<Bytes>
    {
        @Override
        public int compareTo(Bytes other)
        {
            return Arrays.compareUnsigned(bytes, other.bytes);
        }
    }

    private static boolean sortable(DuckLakeType type)
    {
        return SortSpec.orderable(type);
    }

    private static Optional<TableColumn> column(List<TableColumn> columns, String name)
    {
        return columns.stream().filter(column -> column.name().equals(name)).findFirst()
                .or(() -> columns.stream().filter(column -> column.name().equalsIgnoreCase(name)).findFirst());
    }

    /** The column an expression names when it is a bare column reference ({@code b}, {@code "My Col"}); empty otherwise. */
    static Optional<String> columnName(String expression)
    {
        return new SortSpec.Key(0, expression, "duckdb", false, false).columnReference();
    }
}
