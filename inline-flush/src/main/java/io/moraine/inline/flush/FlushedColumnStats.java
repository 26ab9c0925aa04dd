package io.moraine.inline.flush;

import io.moraine.core.row.ColumnNode;
import io.moraine.core.row.Row;
import io.moraine.core.types.DuckLakeType;
import io.moraine.core.types.TableColumn;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code ducklake_file_column_stats} rows of a flushed file, gathered while its rows are written: one per leaf
 * column (a top-level scalar, or the scalar leaves of structs, lists and maps), none for nested parents, as DuckLake's
 * own flush writes them. The rows are walked as the Parquet writer shreds them into leaf slots.
 * <p>
 * A top-level VARIANT column is one leaf (its metadata and value binaries together), as DuckLake 1.5 writes an
 * unshredded one: size and counts, no min/max, and no {@code ducklake_file_variant_stats} rows.
 */
final class FlushedColumnStats
{
    private final Map<String, TableColumn> topLevel = new HashMap<>();
    private final Map<Long, LeafColumnStats> leaves = new HashMap<>();

    FlushedColumnStats(List<ColumnNode> tableColumns)
    {
        for (ColumnNode node : tableColumns) {
            TableColumn column = TableColumn.of(node);
            topLevel.put(column.name(), column);
            addLeaves(column);
        }
    }

    private void addLeaves(TableColumn column)
    {
        if (column.children().isEmpty()) {
            leaves.put(column.columnId(), new LeafColumnStats(column.columnId(), column.type()));
        }
        column.children().forEach(this::addLeaves);
    }

    /** Counts row {@code row} of every tracked column among {@code vectors}. */
    void add(List<FieldVector> vectors, int row)
    {
        for (FieldVector vector : vectors) {
            TableColumn column = topLevel.get(vector.getField().getName());
            if (column != null) {
                visit(column, vector, row, false);
            }
        }
    }

    /** One row per leaf column; {@code sizes} maps column ids to their bytes in the file. */
    List<Row> rows(long dataFileId, long tableId, Map<Long, Long> sizes)
    {
        List<Row> rows = new ArrayList<>();
        leaves.values().stream()
                .sorted(Comparator.comparingLong(LeafColumnStats::columnId))
                .forEach(leaf -> rows.add(leaf.row(dataFileId, tableId, sizes.get(leaf.columnId()))));
        return rows;
    }

    /** Entry {@code index} of {@code vector}, the values of {@code node}; {@code repeated} when inside a list or map. */
    private void visit(TableColumn node, ValueVector vector, int index, boolean repeated)
    {
        if (node.children().isEmpty()) {
            leaves.get(node.columnId()).add(vector, index);
            return;
        }
        if (vector.isNull(index)) {
            absent(node, repeated && isStruct(node) ? 2 : 1);
            return;
        }
        switch (vector) {
            case MapVector map -> entries(node, map, index);
            case ListVector list -> elements(node, list, index);
            case StructVector struct -> node.children().forEach(child -> visit(child, struct.getChild(child.name()), index, repeated));
            default -> throw new IllegalStateException("column " + node.name() + " of type " + node.type().duckLakeName() + " is not nested in Arrow: "
                    + vector.getClass().getSimpleName());
        }
    }

    private void elements(TableColumn node, ListVector list, int index)
    {
        int start = list.getElementStartIndex(index);
        int end = list.getElementEndIndex(index);
        if (start == end) {
            absent(node, 1);
        }
        TableColumn element = node.children().getFirst();
        for (int i = start; i < end; i++) {
            visit(element, list.getDataVector(), i, true);
        }
    }

    private void entries(TableColumn node, MapVector map, int index)
    {
        int start = map.getElementStartIndex(index);
        int end = map.getElementEndIndex(index);
        if (start == end) {
            absent(node, 1);
        }
        StructVector entries = (StructVector) map.getDataVector();
        for (int i = start; i < end; i++) {
            for (TableColumn child : node.children()) {
                visit(child, entries.getChildByOrdinal(child.name().equals("key") ? 0 : 1), i, true);
            }
        }
    }

    /**
     * One slot left NULL (or empty) at {@code node} for each of its leaves. A NULL struct's own count reaches the
     * leaves below it through struct children only, so its doubled count stops at the next list or map.
     */
    private void absent(TableColumn node, int nullsCounted)
    {
        if (node.children().isEmpty()) {
            leaves.get(node.columnId()).addAbsent(nullsCounted);
            return;
        }
        int below = isStruct(node) ? nullsCounted : 1;
        node.children().forEach(child -> absent(child, below));
    }

    private static boolean isStruct(TableColumn node)
    {
        return node.type() instanceof DuckLakeType.StructOf;
    }
}
