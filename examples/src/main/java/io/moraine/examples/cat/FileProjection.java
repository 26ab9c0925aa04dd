package io.moraine.examples.cat;

import io.moraine.core.error.CorruptionException;
import io.moraine.core.scan.DataFileTask;
import io.moraine.core.types.DuckLakeType;
import io.moraine.core.types.TableColumn;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The fields of one data file a scan reads, matched to the read columns by Parquet field id (a column's id is its
 * field id at every nesting level, so renamed columns still match and dropped ones are left out). Struct fields the
 * read column does not have are pruned; lists and maps are read whole.
 *
 * @param requested the schema to read the file with: the matched fields, then the hidden snapshot column if asked for
 * @param fields per read column, its (pruned) field in {@code requested}, or empty when the file predates the column
 * @param rowIdField the hidden row id column, when asked for and the file has it
 */
record FileProjection(MessageType requested, List<Optional<Type>> fields, Optional<String> snapshotField, Optional<String> rowIdField)
{
    static FileProjection of(MessageType file, List<TableColumn> columns, boolean withRowSnapshots, String path)
    {
        return of(file, columns, withRowSnapshots, false, path);
    }

    /** As {@link #of(MessageType, List, boolean, String)}, also reading the embedded row ids if asked and the file has them. */
    static FileProjection of(MessageType file, List<TableColumn> columns, boolean withRowSnapshots, boolean withRowIds, String path)
    {
        List<Type> requested = new ArrayList<>();
        List<Optional<Type>> fields = new ArrayList<>();
        for (TableColumn column : columns) {
            Optional<Type> field = childWithId(file, column.columnId()).map(match -> pruned(column, match));
            field.ifPresent(requested::add);
            fields.add(field);
        }
        Optional<String> snapshotField = Optional.empty();
        if (withRowSnapshots) {
            Type snapshots = childWithId(file, DataFileTask.SNAPSHOT_ID_FIELD_ID).orElseThrow(() -> new CorruptionException("data file " + path
                    + " holds rows of several snapshots (partial_max is set) but has no _ducklake_internal_snapshot_id column (field id "
                    + DataFileTask.SNAPSHOT_ID_FIELD_ID + ")"));
            requested.add(snapshots);
            snapshotField = Optional.of(snapshots.getName());
        }
        Optional<String> rowIdField = Optional.empty();
        if (withRowIds) {
            Optional<Type> rowIds = childWithId(file, DataFileTask.ROW_ID_FIELD_ID);
            rowIds.ifPresent(requested::add);
            rowIdField = rowIds.map(Type::getName);
        }
        return new FileProjection(new MessageType(file.getName(), requested), List.copyOf(fields), snapshotField, rowIdField);
    }

    /** The child of {@code group} whose field id is {@code id}. */
    /** The values of {@code columns} in one record read with this projection; a column the file lacks reads as its default. */
    Object[] values(org.apache.parquet.example.data.Group record, List<TableColumn> columns)
    {
        Object[] values = new Object[columns.size()];
        for (int i = 0; i < values.length; i++) {
            Optional<Type> field = fields.get(i);
            TableColumn column = columns.get(i);
            values[i] = field.isPresent()
                    ? ParquetValues.value(column, field.get(), record, requested.getFieldIndex(field.get().getName()))
                    : CellValues.missing(column);
        }
        return values;
    }

    static Optional<Type> childWithId(GroupType group, long id)
    {
        return group.getFields().stream().filter(field -> field.getId() != null && field.getId().intValue() == id).findFirst();
    }

    /** The file's field of {@code column}, its struct fields pruned to those the column has (all, when it has none of them). */
    private static Type pruned(TableColumn column, Type field)
    {
        if (!(column.type() instanceof DuckLakeType.StructOf struct) || field.isPrimitive()) {
            return field;
        }
        GroupType group = field.asGroupType();
        List<Type> kept = new ArrayList<>();
        for (TableColumn child : struct.fields()) {
            childWithId(group, child.columnId()).ifPresent(match -> kept.add(pruned(child, match)));
        }
        // A group needs a field; one the column lacks still tells whether the struct is NULL.
        return kept.isEmpty() ? group : group.withNewFields(kept);
    }
}
