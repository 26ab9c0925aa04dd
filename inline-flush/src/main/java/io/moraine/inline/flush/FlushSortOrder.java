package io.moraine.inline.flush;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.row.ColumnNode;
import io.moraine.core.row.Row;
import io.moraine.core.error.UnsupportedFeatureException;
import org.apache.arrow.vector.types.pojo.Field;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * The table's current sort order (reference §2.17, §3.4 a.1) as a row order for flushed files: each key a column of
 * the flushed schema version, ASC/DESC with its NULLS FIRST/LAST, then row id and begin snapshot as tie-breakers.
 * Only plain column names are supported; DuckLake also accepts arbitrary DuckDB expressions, which need DuckDB.
 */
final class FlushSortOrder
{
    private static final Pattern UNQUOTED = Pattern.compile("[A-Za-z_][A-Za-z0-9_$]*");
    private static final Pattern QUOTED = Pattern.compile("\"(?:[^\"]|\"\")+\"");

    private record SortKey(String columnName, String columnType, boolean descending, boolean nullsFirst) {}

    private final List<SortKey> keys;

    private FlushSortOrder(List<SortKey> keys)
    {
        this.keys = keys;
    }

    /**
     * The sort order the table has at {@code head}, its columns resolved (by column id, so renames since) in
     * {@code versionColumns}; empty when the table is not sorted.
     */
    static Optional<FlushSortOrder> current(CatalogSnapshot head, long tableId, List<ColumnNode> versionColumns)
    {
        Optional<Row> info = head.sortInfo(tableId);
        if (info.isEmpty()) {
            return Optional.empty();
        }
        String tableName = head.table(tableId).map(table -> table.getString("table_name")).orElse(Long.toString(tableId));
        List<ColumnNode> currentColumns = head.columnTree(tableId);
        List<Row> expressions = new ArrayList<>(head.sortExpressions(tableId, info.get().getLong("sort_id")));
        expressions.sort(Comparator.comparing(row -> row.getLong("sort_key_index")));
        List<SortKey> keys = new ArrayList<>();
        for (Row expression : expressions) {
            if (!"duckdb".equalsIgnoreCase(expression.getString("dialect"))) {
                continue; // DuckLake sorts by duckdb-dialect expressions only
            }
            String name = columnName(expression.getString("expression"), tableName);
            ColumnNode current = currentColumns.stream().filter(column -> column.name().equalsIgnoreCase(name)).findFirst()
                    .orElseThrow(() -> unsupported(tableName, expression.getString("expression"), "it names no column of the table"));
            ColumnNode written = versionColumns.stream().filter(column -> column.columnId() == current.columnId()).findFirst()
                    .orElseThrow(() -> unsupported(tableName, expression.getString("expression"), "its column did not exist when the rows were inlined"));
            keys.add(new SortKey(written.name(), written.type(), "DESC".equalsIgnoreCase(expression.getString("sort_direction")),
                    "NULLS_FIRST".equalsIgnoreCase(expression.getString("null_order"))));
        }
        return keys.isEmpty() ? Optional.empty() : Optional.of(new FlushSortOrder(List.copyOf(keys)));
    }

    /** The row order over rows of batches with these user fields. */
    Comparator<FlushRow> comparator(List<Field> userFields)
    {
        Comparator<FlushRow> order = (a, b) -> 0;
        for (SortKey key : keys) {
            int vector = indexOf(userFields, key.columnName());
            Comparator<FlushRow> byKey = (a, b) -> compare(
                    FlushCellValues.of(a.columns().get(vector), a.index(), key.columnType()),
                    FlushCellValues.of(b.columns().get(vector), b.index(), key.columnType()), key);
            order = order.thenComparing(byKey);
        }
        return order.thenComparingLong(FlushRow::rowId).thenComparingLong(FlushRow::beginSnapshot);
    }

    private static int compare(Object a, Object b, SortKey key)
    {
        if (a == null || b == null) {
            if (a == b) {
                return 0;
            }
            return (a == null) == key.nullsFirst() ? -1 : 1;
        }
        int order = compareValues(a, b);
        return key.descending() ? -order : order;
    }

    /** As DuckDB orders the values: strings by their UTF-8 bytes, UUIDs by their canonical text. */
    @SuppressWarnings("unchecked")
    private static int compareValues(Object a, Object b)
    {
        return switch (a) {
            case String text -> Arrays.compareUnsigned(text.getBytes(StandardCharsets.UTF_8), ((String) b).getBytes(StandardCharsets.UTF_8));
            case UUID uuid -> uuid.toString().compareTo(b.toString());
            default -> ((Comparable<Object>) a).compareTo(b);
        };
    }

    private static int indexOf(List<Field> fields, String name)
    {
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).getName().equals(name)) {
                return i;
            }
        }
        throw new IllegalStateException("sort column " + name + " is not among the inlined columns " + fields);
    }

    /** The column a sort expression names: a bare identifier or a double-quoted one. */
    private static String columnName(String expression, String tableName)
    {
        String text = expression.strip();
        if (UNQUOTED.matcher(text).matches()) {
            return text;
        }
        if (QUOTED.matcher(text).matches()) {
            return text.substring(1, text.length() - 1).replace("\"\"", "\"");
        }
        throw unsupported(tableName, expression, "it is not a plain column name");
    }

    private static UnsupportedFeatureException unsupported(String tableName, String expression, String why)
    {
        return new UnsupportedFeatureException("table " + tableName + " is sorted by '" + expression + "', which moraine's flush cannot "
                + "evaluate: " + why + ". Flush this table with DuckDB: CALL ducklake_flush_inlined_data(...)");
    }
}
