package io.moraine.trino;

import io.moraine.core.types.ColumnProjection;
import io.moraine.core.types.DuckLakeType;
import io.moraine.core.types.TableColumn;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How a scan whose projection holds nested fields ({@link MoraineColumnHandle#isDereference()}) is read: each
 * top-level column once, pruned to the fields asked for ({@link ColumnProjection}), and each projected handle taken
 * from its column's block by field positions in the pruned row.
 *
 * @param columns the top-level columns to read, with their pruned Trino types
 * @param readColumns the core's pruned columns, in the same order
 * @param outputs for each projected handle, which read column and which field positions inside it
 */
record NestedReadLayout(List<MoraineColumnHandle> columns, List<TableColumn> readColumns, List<Output> outputs)
{
    record Output(int column, int[] fieldPositions) {}

    static NestedReadLayout of(List<MoraineColumnHandle> projected, MoraineTableColumns.Columns table, MoraineTypes types)
    {
        return of(projected, table.schema().columns(), types);
    }

    /**
     * @param table the table's top-level columns the projected handles are found in by column id (each may already be
     *         pruned to the fields asked for)
     */
    static NestedReadLayout of(List<MoraineColumnHandle> projected, List<TableColumn> table, MoraineTypes types)
    {
        Map<Long, TableColumn> byId = new LinkedHashMap<>();
        table.forEach(column -> byId.put(column.columnId(), column));
        List<MoraineColumnHandle> columns = new ArrayList<>();
        List<TableColumn> readColumns = new ArrayList<>();
        Map<Long, Integer> indexOf = new LinkedHashMap<>();
        for (TableColumn pruned : prunedColumns(projected, table)) {
            indexOf.put(pruned.columnId(), columns.size());
            columns.add(new MoraineColumnHandle(pruned.columnId(), pruned.name(), types.toTrino(pruned), pruned.type().duckLakeName(), pruned.initialDefault()));
            readColumns.add(pruned);
        }
        List<Output> outputs = new ArrayList<>();
        for (MoraineColumnHandle handle : projected) {
            if (!indexOf.containsKey(handle.columnId())) {
                // Not a column of the table (a connector-made column): read as it is.
                outputs.add(new Output(columns.size(), new int[0]));
                columns.add(handle);
                readColumns.add(byId.get(handle.columnId()));
                continue;
            }
            int index = indexOf.get(handle.columnId());
            outputs.add(new Output(index, fieldPositions(readColumns.get(index), handle.path())));
        }
        return new NestedReadLayout(columns, readColumns, outputs);
    }

    /**
     * The columns of {@code table} the projected handles read, each once, in the order first asked for, pruned to the
     * nested fields asked for (whole when the column itself is asked for); hidden columns are not the table's.
     */
    static List<TableColumn> prunedColumns(List<MoraineColumnHandle> projected, List<TableColumn> table)
    {
        Map<Long, TableColumn> byId = new LinkedHashMap<>();
        table.forEach(column -> byId.put(column.columnId(), column));
        Map<Long, Set<Long>> idsByColumn = new LinkedHashMap<>();
        for (MoraineColumnHandle handle : projected) {
            if (byId.containsKey(handle.columnId())) {
                idsByColumn.computeIfAbsent(handle.columnId(), id -> new LinkedHashSet<>()).add(handle.leafColumnId());
            }
        }
        List<TableColumn> pruned = new ArrayList<>();
        idsByColumn.forEach((columnId, ids) -> pruned.add(ColumnProjection.prune(byId.get(columnId), ids).orElseThrow()));
        return pruned;
    }

    private static int[] fieldPositions(TableColumn column, List<Long> path)
    {
        int[] positions = new int[path.size()];
        TableColumn current = column;
        for (int i = 0; i < path.size(); i++) {
            List<TableColumn> fields = ((DuckLakeType.StructOf) current.type()).fields();
            long fieldId = path.get(i);
            int position = 0;
            while (fields.get(position).columnId() != fieldId) {
                position++;
            }
            positions[i] = position;
            current = fields.get(position);
        }
        return positions;
    }
}
