package io.moraine.core.types;

import io.moraine.core.row.ColumnNode;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * One column of a table at a snapshot, top-level or nested: its column id (the Parquet field id), its name, its type,
 * its {@code initial_default} text, the value rows written before the column existed read as (reference §4.7), and
 * whether it allows NULL ({@code nulls_allowed}; a column of no catalog row, such as a hidden one, allows it).
 */
public record TableColumn(long columnId, String name, DuckLakeType type, Optional<String> initialDefault, boolean nullable)
        implements Serializable
{
    public TableColumn
    {
        requireNonNull(name, "name is null");
        requireNonNull(type, "type is null");
        requireNonNull(initialDefault, "initialDefault is null");
    }

    /** A column that allows NULL. */
    public TableColumn(long columnId, String name, DuckLakeType type, Optional<String> initialDefault)
    {
        this(columnId, name, type, initialDefault, true);
    }

    /** The column and its descendants from a catalog column tree. */
    public static TableColumn of(ColumnNode node)
    {
        List<TableColumn> children = new ArrayList<>(node.children().size());
        for (ColumnNode child : node.children()) {
            children.add(of(child));
        }
        Boolean nullsAllowed = (Boolean) node.column().get("nulls_allowed");
        return new TableColumn(node.columnId(), node.name(), DuckLakeType.parse(node.name(), node.type(), children),
                Optional.ofNullable(node.column().getString("initial_default")), nullsAllowed == null || nullsAllowed);
    }

    /** This column with another type (a pruned struct, say), its id, name, default and nullability kept. */
    public TableColumn withType(DuckLakeType newType)
    {
        return new TableColumn(columnId, name, newType, initialDefault, nullable);
    }

    /** The column's children: struct fields, a list's element, a map's key and value; none for a scalar. */
    public List<TableColumn> children()
    {
        return switch (type) {
            case DuckLakeType.ListOf list -> List.of(list.element());
            case DuckLakeType.StructOf struct -> struct.fields();
            case DuckLakeType.MapOf map -> List.of(map.key(), map.value());
            default -> List.of();
        };
    }

    /** The initial default as a value of the column's type ({@link DuckLakeValues}), or empty for NULL. */
    public Optional<Object> initialDefaultValue()
    {
        return initialDefault.map(text -> DuckLakeValues.parseDefault(this, text));
    }

    /** Java serialization (Spark ships columns to executors) goes through the wire format: Optional is not Serializable. */
    @java.io.Serial
    private Object writeReplace()
    {
        return new SerializedColumn(TableColumnCodec.encode(List.of(this)));
    }

    private record SerializedColumn(byte[] encoded)
            implements Serializable
    {
        @java.io.Serial
        private Object readResolve()
        {
            return TableColumnCodec.decode(encoded).getFirst();
        }
    }
}
