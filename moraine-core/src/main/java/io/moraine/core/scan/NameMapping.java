package io.moraine.core.scan;

import io.moraine.core.catalog.NameMapEntry;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The name mapping of a data file without field ids (one added with {@code ducklake_add_data_files}): each of the
 * file's columns named {@code sourceName} under its parent stands for the table's column {@code targetFieldId}.
 * {@link #applyTo} gives the file's schema with those field ids, so that every reader matching by field id
 * ({@link FieldIds}) reads the file unchanged — the way Iceberg applies a name mapping.
 */
public record NameMapping(long mappingId, List<NameMapEntry> columns)
{
    public NameMapping
    {
        columns = List.copyOf(columns);
    }

    /**
     * {@code fileSchema} with field ids from this mapping at every level, as DuckLake matches them: a field by its name
     * under its parent (exactly, else ignoring case as DuckDB does), a list's element and a map's key and value by
     * position. Fields the mapping does not name get no id, so readers treat them as absent.
     */
    public MessageType applyTo(MessageType fileSchema)
    {
        requireNonNull(fileSchema, "fileSchema is null");
        return new MessageType(fileSchema.getName(), mapFields(fileSchema.getFields(), columns));
    }

    private static List<Type> mapFields(List<Type> fields, List<NameMapEntry> entries)
    {
        List<Type> mapped = new ArrayList<>(fields.size());
        for (Type field : fields) {
            Optional<NameMapEntry> entry = entryNamed(entries, field.getName());
            mapped.add(entry.isPresent() ? mapField(field, entry.get()) : withoutIds(field));
        }
        return mapped;
    }

    private static Optional<NameMapEntry> entryNamed(List<NameMapEntry> entries, String name)
    {
        Optional<NameMapEntry> exact = entries.stream().filter(entry -> entry.sourceName().equals(name)).findFirst();
        return exact.isPresent() ? exact : entries.stream().filter(entry -> entry.sourceName().equalsIgnoreCase(name)).findFirst();
    }

    private static Type mapField(Type field, NameMapEntry entry)
    {
        return withChildren(field, entry).withId(Math.toIntExact(entry.targetFieldId()));
    }

    private static Type withChildren(Type field, NameMapEntry entry)
    {
        if (field.isPrimitive()) {
            return field;
        }
        GroupType group = field.asGroupType();
        LogicalTypeAnnotation annotation = group.getLogicalTypeAnnotation();
        if (annotation instanceof LogicalTypeAnnotation.ListLogicalTypeAnnotation && group.getFieldCount() == 1) {
            return group.withNewFields(List.of(listRepeated(group.getType(0), entry.children())));
        }
        if ((annotation instanceof LogicalTypeAnnotation.MapLogicalTypeAnnotation || annotation instanceof LogicalTypeAnnotation.MapKeyValueTypeAnnotation)
                && group.getFieldCount() == 1 && !group.getType(0).isPrimitive()) {
            GroupType keyValue = group.getType(0).asGroupType();
            return group.withNewFields(List.of(keyValue.withNewFields(byPosition(keyValue.getFields(), entry.children()))));
        }
        return group.withNewFields(mapFields(group.getFields(), entry.children()));
    }

    /**
     * A list's repeated field: in the standard three-level layout its one child is the element; in the legacy two-level
     * layout (a repeated primitive, or a repeated group named {@code array} or {@code <list>_tuple}) it is the element.
     */
    private static Type listRepeated(Type repeated, List<NameMapEntry> elements)
    {
        if (elements.isEmpty()) {
            return withoutIds(repeated);
        }
        NameMapEntry element = elements.getFirst();
        if (repeated.isPrimitive() || repeated.asGroupType().getFieldCount() != 1 || repeated.getName().equals("array") || repeated.getName().endsWith("_tuple")) {
            return mapField(repeated, element);
        }
        GroupType group = repeated.asGroupType();
        return group.withNewFields(List.of(mapField(group.getType(0), element)));
    }

    /** A map's key and value: by name when the mapping names them so, else in order (key, then value). */
    private static List<Type> byPosition(List<Type> fields, List<NameMapEntry> entries)
    {
        List<Type> mapped = new ArrayList<>(fields.size());
        for (int i = 0; i < fields.size(); i++) {
            Type field = fields.get(i);
            Optional<NameMapEntry> entry = entryNamed(entries, field.getName());
            if (entry.isEmpty() && i < entries.size()) {
                entry = Optional.of(entries.get(i));
            }
            mapped.add(entry.isPresent() ? mapField(field, entry.get()) : withoutIds(field));
        }
        return mapped;
    }

    /** {@code field} with no field id at any level: the mapping, not stray ids in the file, decides what it holds. */
    private static Type withoutIds(Type field)
    {
        if (!field.isPrimitive()) {
            GroupType group = field.asGroupType();
            return Types.buildGroup(group.getRepetition())
                    .as(group.getLogicalTypeAnnotation())
                    .addFields(group.getFields().stream().map(NameMapping::withoutIds).toArray(Type[]::new))
                    .named(group.getName());
        }
        if (field.getId() == null) {
            return field;
        }
        PrimitiveType primitive = field.asPrimitiveType();
        Types.PrimitiveBuilder<PrimitiveType> builder = Types.primitive(primitive.getPrimitiveTypeName(), primitive.getRepetition())
                .as(primitive.getLogicalTypeAnnotation())
                .columnOrder(primitive.columnOrder());
        if (primitive.getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY) {
            builder = builder.length(primitive.getTypeLength());
        }
        return builder.named(primitive.getName());
    }
}
