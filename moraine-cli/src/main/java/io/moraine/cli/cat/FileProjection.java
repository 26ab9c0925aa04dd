package io.moraine.cli.cat;

import io.moraine.core.scan.FieldIds;
import io.moraine.core.scan.HiddenFields;
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
 * @param requested the schema to read the file with: the matched fields, then the hidden columns asked for
 * @param fields per read column, its (pruned) field in {@code requested}, or empty when the file predates the column
 * @param snapshotField the hidden snapshot column, when asked for (the file has it)
 * @param rowIdField the hidden row id column, when asked for (the file has it)
 */
record FileProjection(MessageType requested, List<Optional<Type>> fields, Optional<String> snapshotField, Optional<String> rowIdField)
{
    /**
     * Reads {@code columns} of {@code file} and the hidden fields given (as the core's {@link HiddenFields#in} found
     * them, each empty when not to be read).
     */
    static FileProjection of(MessageType file, List<TableColumn> columns, Optional<Type> snapshots, Optional<Type> rowIds)
    {
        List<Type> requested = new ArrayList<>();
        List<Optional<Type>> fields = new ArrayList<>();
        for (TableColumn column : columns) {
            Optional<Type> field = FieldIds.find(file, column.columnId()).map(match -> pruned(column, match));
            field.ifPresent(requested::add);
            fields.add(field);
        }
        snapshots.ifPresent(requested::add);
        rowIds.ifPresent(requested::add);
        return new FileProjection(new MessageType(file.getName(), requested), List.copyOf(fields), snapshots.map(Type::getName), rowIds.map(Type::getName));
    }

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

    /** The file's field of {@code column}, its struct fields pruned to those the column has (all, when it has none of them). */
    private static Type pruned(TableColumn column, Type field)
    {
        if (!(column.type() instanceof DuckLakeType.StructOf struct) || field.isPrimitive()) {
            return field;
        }
        GroupType group = field.asGroupType();
        List<Type> kept = new ArrayList<>();
        for (TableColumn child : struct.fields()) {
            FieldIds.find(group, child.columnId()).ifPresent(match -> kept.add(pruned(child, match)));
        }
        // A group needs a field; one the column lacks still tells whether the struct is NULL.
        return kept.isEmpty() ? group : group.withNewFields(kept);
    }
}
