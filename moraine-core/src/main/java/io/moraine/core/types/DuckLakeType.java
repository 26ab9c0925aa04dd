package io.moraine.core.types;

import io.moraine.core.error.CorruptionException;
import io.moraine.core.error.UnsupportedFeatureException;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * A DuckLake column type, parsed once from a {@code ducklake_column} row and its children (reference §7.1). Nested
 * types hold their children as {@link TableColumn}s: struct fields, a list's {@code element}, a map's {@code key} and
 * {@code value}, each with its own column id (the Parquet field id).
 */
public sealed interface DuckLakeType
        permits DuckLakeType.Primitive, DuckLakeType.Decimal, DuckLakeType.ListOf, DuckLakeType.StructOf, DuckLakeType.MapOf
{
    /** The type's name as DuckLake writes it in {@code column_type} (for nested types, the parent's name only). */
    String duckLakeName();

    /** Whether values of this type have an order moraine compares (for pruning by statistics and partition values). */
    default boolean isOrderable()
    {
        return false;
    }

    /** Whether this is the scalar type {@code kind} (engines ask this rather than compare type names). */
    default boolean is(PrimitiveKind kind)
    {
        return this instanceof Primitive primitive && primitive.kind() == kind;
    }

    record Primitive(PrimitiveKind kind)
            implements DuckLakeType
    {
        public Primitive
        {
            requireNonNull(kind, "kind is null");
        }

        @Override
        public String duckLakeName()
        {
            return kind.duckLakeName();
        }

        @Override
        public boolean isOrderable()
        {
            return switch (kind) {
                case TIMETZ, INTERVAL, BLOB, VARIANT, GEOMETRY -> false;
                default -> true;
            };
        }
    }

    record Decimal(int precision, int scale)
            implements DuckLakeType
    {
        @Override
        public String duckLakeName()
        {
            return "decimal(" + precision + "," + scale + ")";
        }

        @Override
        public boolean isOrderable()
        {
            return true;
        }
    }

    record ListOf(TableColumn element)
            implements DuckLakeType
    {
        @Override
        public String duckLakeName()
        {
            return "list";
        }
    }

    record StructOf(List<TableColumn> fields)
            implements DuckLakeType
    {
        public StructOf
        {
            fields = List.copyOf(fields);
        }

        @Override
        public String duckLakeName()
        {
            return "struct";
        }
    }

    record MapOf(TableColumn key, TableColumn value)
            implements DuckLakeType
    {
        @Override
        public String duckLakeName()
        {
            return "map";
        }
    }

    Pattern DECIMAL = Pattern.compile("decimal\\s*\\(\\s*(\\d+)\\s*,\\s*(\\d+)\\s*\\)");

    static Primitive of(PrimitiveKind kind)
    {
        return new Primitive(kind);
    }

    /**
     * The type named {@code name} for column {@code column}, with its already parsed {@code children} for the nested
     * types. An unknown name is refused, naming the column.
     */
    public static DuckLakeType parse(String column, String name, List<TableColumn> children)
    {
        String lower = name.strip().toLowerCase(Locale.ROOT);
        switch (lower) {
            case "list" -> {
                requireChildren(column, name, children, 1);
                return new ListOf(children.getFirst());
            }
            case "struct" -> {
                return new StructOf(children);
            }
            case "map" -> {
                requireChildren(column, name, children, 2);
                return new MapOf(children.get(0), children.get(1));
            }
            default -> {
                Matcher decimal = DECIMAL.matcher(lower);
                if (decimal.matches()) {
                    return new Decimal(Integer.parseInt(decimal.group(1)), Integer.parseInt(decimal.group(2)));
                }
                return PrimitiveKind.byName(lower).map(DuckLakeType::of)
                        .orElseThrow(() -> new UnsupportedFeatureException("column " + column + " has DuckLake type '" + name
                                + "', which moraine does not know; DuckLake 1.0 writes only the types of its type table"));
            }
        }
    }

    /** A scalar type from its name alone (stats and partition values name no children). */
    static DuckLakeType parseScalar(String column, String name)
    {
        return parse(column, name, List.of());
    }

    private static void requireChildren(String column, String name, List<TableColumn> children, int count)
    {
        if (children.size() != count) {
            throw new CorruptionException("column " + column + " of type " + name + " has " + children.size()
                    + " child columns in the catalog, where DuckLake writes " + count);
        }
    }
}
