package io.moraine.core.write;

import io.moraine.core.row.ColumnNode;
import io.moraine.core.row.Row;
import io.moraine.core.types.TableColumn;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** A draft's current column rows as the core's typed column tree. */
final class ColumnTree
{
    private ColumnTree() {}

    static List<TableColumn> of(List<Row> columnRows)
    {
        return ColumnNode.assemble(sorted(columnRows)).stream().map(TableColumn::of).toList();
    }

    /** The rows in column order (DuckLake's column_order is the column id). */
    static List<Row> sorted(List<Row> columnRows)
    {
        List<Row> sorted = new ArrayList<>(columnRows);
        sorted.sort(Comparator.comparingLong(row -> row.getLong("column_id")));
        return sorted;
    }
}
