package io.moraine.core.write;

import io.moraine.core.error.AlreadyExistsException;
import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.error.NotFoundException;
import io.moraine.core.row.Row;
import io.moraine.core.types.DuckLakeType;
import io.moraine.core.types.TypePromotion;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Column changes of an existing table, as DuckLake writes them: a changed column keeps its id, its current row is
 * ended and a new row begins at the commit's snapshot; a dropped column ends with every descendant; a new column takes
 * the table's next id (the largest id ever used + 1). Columns are addressed by path: {@code ["st", "y"]} is field
 * {@code y} of struct {@code st}.
 */
final class ColumnChanges
{
    private ColumnChanges() {}

    static void add(TableDraft table, List<String> parentPath, ColumnDefinition column, long snapshotId)
    {
        Long parentId = null;
        if (!parentPath.isEmpty()) {
            Row parent = find(table, parentPath);
            if (!"struct".equals(parent.getString("column_type"))) {
                throw new InvalidArgumentException("column " + String.join(".", parentPath) + " of " + table.qualifiedName() + " is a "
                        + parent.getString("column_type") + ", not a struct; fields can be added to structs only");
            }
            parentId = parent.getLong("column_id");
        }
        Long parent = parentId;
        boolean taken = table.columns.stream().anyMatch(row -> java.util.Objects.equals(row.get("parent_column"), parent)
                && row.getString("column_name").equalsIgnoreCase(column.name()));
        if (taken) {
            throw new AlreadyExistsException("column " + pathText(parentPath, column.name()) + " already exists in " + table.qualifiedName()
                    + "; choose another name");
        }
        ColumnRows.add(table, column, parentId, snapshotId);
        changed(table, true);
    }

    static void drop(TableDraft table, List<String> path)
    {
        Row column = find(table, path);
        if (column.get("parent_column") == null && table.columns.stream().filter(row -> row.get("parent_column") == null).count() == 1) {
            throw new InvalidArgumentException("column " + pathText(path) + " is the only column of " + table.qualifiedName()
                    + "; a table keeps at least one column (drop the table instead)");
        }
        for (Row row : subtree(table, column.getLong("column_id"))) {
            end(table, row);
        }
        changed(table, true);
    }

    static void rename(TableDraft table, List<String> path, String newName, long snapshotId)
    {
        Row column = find(table, path);
        Object parent = column.get("parent_column");
        if (table.columns.stream().anyMatch(row -> java.util.Objects.equals(row.get("parent_column"), parent) && row.getString("column_name").equalsIgnoreCase(newName)
                && !row.getLong("column_id").equals(column.getLong("column_id")))) {
            throw new AlreadyExistsException("column " + newName + " already exists in " + table.qualifiedName() + "; choose another name");
        }
        replace(table, column, Map.of("column_name", newName), snapshotId);
        changed(table, true);
    }

    static void setType(TableDraft table, List<String> path, String newType, long snapshotId)
    {
        Row column = find(table, path);
        DuckLakeType from = DuckLakeType.parseScalar(pathText(path), column.getString("column_type"));
        DuckLakeType to;
        try {
            to = DuckLakeType.parseScalar(pathText(path), newType);
        }
        catch (RuntimeException e) {
            throw new InvalidArgumentException("'" + newType + "' is not a DuckLake type; use one of DuckLake's type names (int64, decimal(18,2), ...)", e);
        }
        if (!TypePromotion.isAllowed(from, to)) {
            throw new InvalidArgumentException("cannot change the type of column " + pathText(path) + " of " + table.qualifiedName() + " from "
                    + from.duckLakeName() + " to " + to.duckLakeName() + ": only widening type promotions are allowed (e.g. int32 to int64, "
                    + "float32 to float64, decimal(10,2) to decimal(12,2))");
        }
        replace(table, column, Map.of("column_type", to.duckLakeName()), snapshotId);
        changed(table, true);
    }

    /** Sets the column's default ({@code literal} null drops it); the initial default stays as it was. */
    static void setDefault(TableDraft table, List<String> path, String literal, long snapshotId)
    {
        Row column = find(table, path);
        if ("".equals(column.getString("default_value_type"))) {
            throw new InvalidArgumentException("column " + pathText(path) + " of " + table.qualifiedName() + " is nested; only scalar columns take a default");
        }
        java.util.HashMap<String, Object> changes = new java.util.HashMap<>();
        changes.put("default_value", literal == null ? "NULL" : literal);
        replace(table, column, changes, snapshotId);
        changed(table, false);
    }

    static void setNullable(TableDraft table, List<String> path, boolean nullable, long snapshotId)
    {
        Row column = find(table, path);
        replace(table, column, Map.of("nulls_allowed", nullable), snapshotId);
        changed(table, false);
    }

    static Row find(TableDraft table, List<String> path)
    {
        if (path.isEmpty()) {
            throw new InvalidArgumentException("no column named; give a column name, or a path such as [\"struct_column\", \"field\"]");
        }
        Long parent = null;
        Row found = null;
        for (String name : path) {
            Long parentId = parent;
            found = table.columns.stream()
                    .filter(row -> java.util.Objects.equals(row.get("parent_column"), parentId) && row.getString("column_name").equalsIgnoreCase(name))
                    .findFirst()
                    .orElseThrow(() -> new NotFoundException("column " + pathText(path) + " does not exist in " + table.qualifiedName()
                            + "; check the name"));
            parent = found.getLong("column_id");
        }
        return found;
    }

    private static List<Row> subtree(TableDraft table, long columnId)
    {
        List<Row> rows = new ArrayList<>();
        for (Row row : List.copyOf(table.columns)) {
            if (row.getLong("column_id") == columnId) {
                rows.add(row);
            }
        }
        for (Row row : List.copyOf(table.columns)) {
            if (java.util.Objects.equals(row.get("parent_column"), columnId)) {
                rows.addAll(subtree(table, row.getLong("column_id")));
            }
        }
        return rows;
    }

    /** Ends the column's current row: a row this commit added is simply withdrawn. */
    private static void end(TableDraft table, Row row)
    {
        table.columns.remove(row);
        if (!table.addedColumns.remove(row)) {
            table.endedColumns.add(row);
        }
    }

    private static void replace(TableDraft table, Row row, Map<String, Object> changes, long snapshotId)
    {
        int index = table.columns.indexOf(row);
        Row replacement = row.with(changes).with("begin_snapshot", snapshotId);
        table.columns.set(index, replacement);
        if (table.addedColumns.remove(row)) {
            table.addedColumns.add(replacement);
        }
        else {
            table.endedColumns.add(row);
            table.addedColumns.add(replacement);
        }
    }

    /** Marks the table altered; {@code layout} when its inlined rows' layout changes too (a new inlined-data table). */
    private static void changed(TableDraft table, boolean layout)
    {
        table.altered = true;
        table.columnsChanged = true;
        table.inlinedLayoutChanged |= layout;
    }

    private static String pathText(List<String> path)
    {
        return String.join(".", path);
    }

    private static String pathText(List<String> parentPath, String name)
    {
        List<String> path = new ArrayList<>(parentPath);
        path.add(name);
        return pathText(path);
    }
}
