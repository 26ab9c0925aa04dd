package io.moraine.core.types;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A top-level column pruned to the nested columns a reader asks for by id: a struct keeps only the fields on a path to
 * an asked-for id (an asked-for struct is kept whole), so a Parquet reader matching fields by id reads only those
 * leaves. Lists and maps are kept whole when anything inside them is asked for: their elements cannot be pruned.
 */
public final class ColumnProjection
{
    private ColumnProjection() {}

    /** {@code column} pruned to the ids in {@code columnIds}, or empty when none of them is in it. */
    public static Optional<TableColumn> prune(TableColumn column, Set<Long> columnIds)
    {
        if (columnIds.contains(column.columnId())) {
            return Optional.of(column);
        }
        if (column.type() instanceof DuckLakeType.StructOf struct) {
            List<TableColumn> fields = new ArrayList<>();
            for (TableColumn field : struct.fields()) {
                prune(field, columnIds).ifPresent(fields::add);
            }
            return fields.isEmpty()
                    ? Optional.empty()
                    : Optional.of(column.withType(new DuckLakeType.StructOf(fields)));
        }
        if (column.children().stream().anyMatch(child -> prune(child, columnIds).isPresent())) {
            return Optional.of(column);
        }
        return Optional.empty();
    }
}
