package io.moraine.core.write;

import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.types.DuckLakeType;

import java.util.List;

/**
 * The {@code ducklake_column} rows of new columns, as DuckLake writes them: ids depth-first in pre-order (a parent
 * before its children) from the table's next column id, {@code column_order} equal to the id, a default as
 * {@code initial_default} and {@code default_value} of type {@code literal}, dialect {@code duckdb}; nested parents
 * carry no default type.
 */
final class ColumnRows
{
    private ColumnRows() {}

    static void addAll(TableDraft table, List<ColumnDefinition> columns, long snapshotId)
    {
        for (ColumnDefinition column : columns) {
            add(table, column, null, snapshotId);
        }
    }

    static void add(TableDraft table, ColumnDefinition column, Long parentId, long snapshotId)
    {
        validateType(column);
        long columnId = table.nextColumnId++;
        boolean nested = !column.children().isEmpty();
        String defaultValue = column.defaultValue().orElse(null);
        Row row = Row.of(TableKind.COLUMN, columnId, snapshotId, null, table.tableId, columnId, column.name(), column.type(),
                defaultValue, defaultValue == null ? "NULL" : defaultValue, column.nullable(), parentId, nested ? "" : "literal", "duckdb");
        table.columns.add(row);
        table.addedColumns.add(row);
        for (ColumnDefinition child : column.children()) {
            add(table, child, columnId, snapshotId);
        }
    }

    /** Refuses a type name DuckLake does not know, naming the column. */
    private static void validateType(ColumnDefinition column)
    {
        if (column.children().isEmpty()) {
            try {
                DuckLakeType.parseScalar(column.name(), column.type());
            }
            catch (RuntimeException e) {
                throw new io.moraine.core.error.InvalidArgumentException("column " + column.name() + " has type '" + column.type()
                        + "', which is not a DuckLake type; use one of DuckLake's type names (int32, varchar, decimal(10,2), timestamptz, ...)", e);
            }
        }
    }

    /** Whether {@code type} names a nested DuckLake type. */
    static boolean isNested(DuckLakeType type)
    {
        return !(type instanceof DuckLakeType.Primitive) && !(type instanceof DuckLakeType.Decimal);
    }
}
