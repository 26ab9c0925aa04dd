package io.moraine.core.write;

import io.moraine.core.error.InvalidArgumentException;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A column to create, before it has an id: its name, its DuckLake type name ({@code int32}, {@code varchar},
 * {@code decimal(10,2)}, {@code struct}, {@code list}, {@code map}, ...), the children of a nested type (struct
 * fields; a list's {@code element}; a map's {@code key} and {@code value}), whether it takes NULL, and its default as
 * a DuckDB literal (a constant; null for none).
 */
public record ColumnDefinition(String name, String type, List<ColumnDefinition> children, boolean nullable, Optional<String> defaultValue)
{
    public ColumnDefinition
    {
        requireNonNull(name, "name is null");
        requireNonNull(type, "type is null");
        children = List.copyOf(children);
        requireNonNull(defaultValue, "defaultValue is null");
        type = type.strip().toLowerCase(Locale.ROOT);
        int expected = switch (type) {
            case "list" -> 1;
            case "map" -> 2;
            case "struct" -> -1;
            default -> 0;
        };
        if (expected >= 0 && children.size() != expected) {
            throw new InvalidArgumentException("column " + name + " of type " + type + " needs " + expected + " child column(s) but has "
                    + children.size() + "; give a list its element, a map its key and value, and scalars none");
        }
        if (expected < 0 && children.isEmpty()) {
            throw new InvalidArgumentException("struct column " + name + " has no fields; give it at least one");
        }
        if (!children.isEmpty() && defaultValue.isPresent()) {
            throw new InvalidArgumentException("nested column " + name + " cannot have a default; only scalar columns take one");
        }
    }

    public static ColumnDefinition of(String name, String type)
    {
        return new ColumnDefinition(name, type, List.of(), true, Optional.empty());
    }

    public static ColumnDefinition list(String name, ColumnDefinition element)
    {
        return new ColumnDefinition(name, "list", List.of(element.renamed("element")), true, Optional.empty());
    }

    public static ColumnDefinition struct(String name, List<ColumnDefinition> fields)
    {
        return new ColumnDefinition(name, "struct", fields, true, Optional.empty());
    }

    public static ColumnDefinition map(String name, ColumnDefinition key, ColumnDefinition value)
    {
        return new ColumnDefinition(name, "map", List.of(key.renamed("key"), value.renamed("value")), true, Optional.empty());
    }

    public ColumnDefinition notNull()
    {
        return new ColumnDefinition(name, type, children, false, defaultValue);
    }

    public ColumnDefinition withDefault(String literal)
    {
        return new ColumnDefinition(name, type, children, nullable, Optional.of(literal));
    }

    public ColumnDefinition renamed(String newName)
    {
        return new ColumnDefinition(newName, type, children, nullable, defaultValue);
    }
}
