package io.moraine.core.row;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/** A column with its nested children: struct fields, a list's {@code element}, a map's {@code key} and {@code value}. */
public record ColumnNode(Row column, List<ColumnNode> children)
{
    public ColumnNode
    {
        requireNonNull(column, "column is null");
        children = List.copyOf(children);
    }

    public long columnId()
    {
        return column.getLong("column_id");
    }

    public String name()
    {
        return column.getString("column_name");
    }

    public String type()
    {
        return column.getString("column_type");
    }

    /** Builds the forest from rows sorted parents first (as {@code CatalogSnapshot#columns} returns them). */
    public static List<ColumnNode> assemble(List<Row> sortedColumns)
    {
        Map<Long, List<Row>> childrenByParent = new LinkedHashMap<>();
        List<Row> roots = new ArrayList<>();
        for (Row row : sortedColumns) {
            Long parent = row.getLong("parent_column");
            if (parent == null) {
                roots.add(row);
            }
            else {
                childrenByParent.computeIfAbsent(parent, ignored -> new ArrayList<>()).add(row);
            }
        }
        return roots.stream().map(root -> build(root, childrenByParent)).toList();
    }

    private static ColumnNode build(Row row, Map<Long, List<Row>> childrenByParent)
    {
        List<ColumnNode> children = childrenByParent.getOrDefault(row.getLong("column_id"), List.of()).stream()
                .map(child -> build(child, childrenByParent))
                .toList();
        return new ColumnNode(row, children);
    }
}
