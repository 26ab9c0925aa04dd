package io.moraine.core.types;

import io.moraine.core.row.ColumnNode;

import java.io.Serializable;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A table's columns at a snapshot, in column order, with every column (nested ones included) findable by id. */
public record TableSchema(List<TableColumn> columns)
        implements Serializable
{
    public TableSchema
    {
        columns = List.copyOf(columns);
    }

    /** The schema from the catalog's column trees ({@code CatalogSnapshot.columnTree}). */
    public static TableSchema of(List<ColumnNode> columnTree)
    {
        return new TableSchema(columnTree.stream().map(TableColumn::of).toList());
    }

    /** The column (top-level or nested) with this id. */
    public Optional<TableColumn> column(long columnId)
    {
        return Optional.ofNullable(byId().get(columnId));
    }

    /** The top-level column named {@code name} (case-insensitively, as DuckDB resolves names). */
    public Optional<TableColumn> column(String name)
    {
        return columns.stream().filter(column -> column.name().equalsIgnoreCase(name)).findFirst();
    }

    /** Every column by id, nested ones included. */
    public Map<Long, TableColumn> byId()
    {
        Map<Long, TableColumn> byId = new HashMap<>();
        columns.forEach(column -> collect(column, byId));
        return byId;
    }

    private static void collect(TableColumn column, Map<Long, TableColumn> byId)
    {
        byId.put(column.columnId(), column);
        column.children().forEach(child -> collect(child, byId));
    }
}
