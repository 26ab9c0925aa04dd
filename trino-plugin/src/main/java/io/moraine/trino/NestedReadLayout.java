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
        Map<Long, MoraineColumnHandle> topLevel = new LinkedHashMap<>();
        table.handles().forEach(handle -> topLevel.put(handle.columnId(), handle));
        Map<Long, Set<Long>> idsByColumn = new LinkedHashMap<>();
        for (MoraineColumnHandle handle : projected) {
            if (topLevel.containsKey(handle.columnId())) {
                idsByColumn.computeIfAbsent(handle.columnId(), id -> new LinkedHashSet<>()).add(handle.leafColumnId());
            }
        }
        Map<Long, TableColumn> byId = table.schema().byId();
        List<MoraineColumnHandle> columns = new ArrayList<>();
        List<TableColumn> readColumns = new ArrayList<>();
        Map<Long, Integer> indexOf = new LinkedHashMap<>();
        idsByColumn.forEach((columnId, ids) -> {
            TableColumn pruned = ColumnProjection.prune(byId.get(columnId), ids).orElseThrow();
            MoraineColumnHandle column = topLevel.get(columnId);
            indexOf.put(columnId, columns.size());
            columns.add(new MoraineColumnHandle(columnId, column.name(), types.toTrino(pruned), column.duckLakeType(), column.initialDefault()));
            readColumns.add(pruned);
        });
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
