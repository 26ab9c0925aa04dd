package io.moraine.core.row;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The order in which DuckLake inserted a kind's rows, as far as the rows themselves tell it: the order a DuckDB-file
 * catalog returns them in for a query without ORDER BY (DuckDB appends inserted rows, updates in place and leaves
 * the rest where it was when a row is deleted). The store keeps no insertion sequence, so the order is derived from
 * the columns DuckLake fills in commit order: the snapshot a versioned row began at (an ended row stays where it
 * was), or an id DuckLake allocates ascending (data_file_id, delete_file_id, mapping_id...), then the ids a commit
 * inserts its rows by. Rows that agree on all of them keep the order they are given in (the key order). Kinds none
 * of whose columns follow insertion are ordered by their key columns; ducklake_metadata keeps its served order (the
 * store facts first, then key order).
 */
public final class InsertionOrder
{
    private static final Map<TableKind, List<String>> COLUMNS = new EnumMap<>(TableKind.class);

    static {
        order(TableKind.SNAPSHOT, "snapshot_id");
        order(TableKind.SNAPSHOT_CHANGES, "snapshot_id");
        order(TableKind.SCHEMA, "begin_snapshot", "schema_id");
        order(TableKind.TABLE, "begin_snapshot", "table_id");
        order(TableKind.VIEW, "begin_snapshot", "view_id");
        order(TableKind.TAG, "begin_snapshot", "object_id");
        order(TableKind.COLUMN_TAG, "begin_snapshot", "table_id", "column_id");
        // a compacted file may take over the begin_snapshot of the files it replaces, but always gets a new id
        order(TableKind.DATA_FILE, "data_file_id");
        order(TableKind.FILE_COLUMN_STATS, "data_file_id", "column_id");
        order(TableKind.FILE_VARIANT_STATS, "data_file_id", "column_id");
        order(TableKind.DELETE_FILE, "delete_file_id");
        order(TableKind.COLUMN, "begin_snapshot", "table_id", "column_id");
        order(TableKind.PARTITION_INFO, "begin_snapshot", "partition_id");
        order(TableKind.PARTITION_COLUMN, "partition_id", "partition_key_index");
        order(TableKind.FILE_PARTITION_VALUE, "data_file_id", "partition_key_index");
        order(TableKind.COLUMN_MAPPING, "mapping_id");
        order(TableKind.NAME_MAPPING, "mapping_id", "column_id");
        order(TableKind.SCHEMA_VERSIONS, "begin_snapshot", "table_id");
        order(TableKind.MACRO, "begin_snapshot", "macro_id");
        order(TableKind.SORT_INFO, "begin_snapshot", "sort_id");
        order(TableKind.SORT_EXPRESSION, "sort_id", "sort_key_index");
        // no column follows insertion (stats rows are updated in place, tables first inline at any schema version): key order
        order(TableKind.TABLE_STATS, "table_id");
        order(TableKind.TABLE_COLUMN_STATS, "table_id", "column_id");
        order(TableKind.FILES_SCHEDULED_FOR_DELETION, "data_file_id");
        order(TableKind.INLINED_DATA_TABLES, "table_id", "schema_version");
        order(TableKind.MACRO_IMPL, "macro_id", "impl_id");
        order(TableKind.MACRO_PARAMETERS, "macro_id", "impl_id", "column_id");
    }

    private InsertionOrder() {}

    private static void order(TableKind kind, String... columns)
    {
        COLUMNS.put(kind, List.of(columns));
    }

    /** The BIGINT columns {@code kind}'s rows are ordered by, most significant first; empty when they keep their order. */
    public static int[] columns(TableKind kind)
    {
        return COLUMNS.getOrDefault(kind, List.of()).stream().mapToInt(kind::columnIndex).toArray();
    }

    /** {@code rows} (of {@code kind}) in insertion order: a new unmodifiable list, or {@code rows} itself when they are in it already. */
    public static List<Row> sort(TableKind kind, List<Row> rows)
    {
        int[] columns = columns(kind);
        if (columns.length == 0 || isKeyOrder(kind, columns)) {
            return rows;
        }
        Comparator<Row> order = comparator(columns);
        for (int i = 1; i < rows.size(); i++) {
            if (order.compare(rows.get(i - 1), rows.get(i)) > 0) {
                List<Row> sorted = new ArrayList<>(rows);
                sorted.sort(order); // stable: rows that tie keep their key order
                return java.util.Collections.unmodifiableList(sorted);
            }
        }
        return rows;
    }

    /** Whether rows served in key order are in this order already: a kind that is not versioned, ordered by a prefix of its key. */
    private static boolean isKeyOrder(TableKind kind, int[] columns)
    {
        int[] key = kind.keyColumnIndexes();
        return !kind.isVersioned() && columns.length <= key.length && java.util.Arrays.equals(columns, 0, columns.length, key, 0, columns.length);
    }

    /** Ascending by each column in turn, a NULL before every value. */
    private static Comparator<Row> comparator(int[] columns)
    {
        return (left, right) -> {
            for (int column : columns) {
                Long a = (Long) left.get(column);
                Long b = (Long) right.get(column);
                int order = a == null ? (b == null ? 0 : -1) : b == null ? 1 : Long.compare(a, b);
                if (order != 0) {
                    return order;
                }
            }
            return 0;
        };
    }
}
