package io.moraine.core.catalog;

import io.moraine.core.error.CorruptionException;
import io.moraine.core.row.Row;
import io.moraine.core.types.DuckLakeType;
import io.moraine.core.types.PrimitiveKind;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * A table's sort order (reference §2.17, {@code ALTER TABLE ... SET SORTED BY}): the keys of one {@code sort_id} in key
 * order, each a SQL expression in its dialect with its direction and NULL order.
 */
public record SortSpec(long sortId, List<Key> keys)
{
    public SortSpec
    {
        keys = List.copyOf(keys);
    }

    public record Key(int index, String expression, String dialect, boolean descending, boolean nullsFirst)
    {
        /** The column the key's expression names when it is a bare column reference ({@code b}, {@code "My Col"}); empty otherwise. */
        public Optional<String> columnReference()
        {
            String text = expression.strip();
            if (text.length() >= 2 && text.startsWith("\"") && text.endsWith("\"")) {
                String inner = text.substring(1, text.length() - 1);
                if (inner.replace("\"\"", "").contains("\"")) {
                    return Optional.empty();
                }
                return Optional.of(inner.replace("\"\"", "\""));
            }
            if (text.matches("[A-Za-z_][A-Za-z0-9_$]*") && !RESERVED.contains(text.toLowerCase(Locale.ROOT))) {
                return Optional.of(text);
            }
            return Optional.empty();
        }
    }

    /** Bare words DuckDB would not read as a column reference. */
    private static final Set<String> RESERVED = Set.of("null", "true", "false", "default");

    /** Whether the core orders values of {@code type} as DuckDB's ORDER BY does (scalars; not TIMETZ, INTERVAL, VARIANT, GEOMETRY or nested types). */
    public static boolean orderable(DuckLakeType type)
    {
        if (type instanceof DuckLakeType.Decimal) {
            return true;
        }
        return type instanceof DuckLakeType.Primitive(PrimitiveKind kind)
                && !(kind == PrimitiveKind.TIMETZ || kind == PrimitiveKind.INTERVAL || kind == PrimitiveKind.VARIANT || kind == PrimitiveKind.GEOMETRY);
    }

    /** The spec from its {@code ducklake_sort_expression} rows, in any order. */
    static SortSpec of(long sortId, List<Row> expressions)
    {
        return new SortSpec(sortId, expressions.stream()
                .sorted(Comparator.comparing(row -> row.getLong("sort_key_index")))
                .map(row -> new Key(row.getLong("sort_key_index").intValue(), row.getString("expression"), row.getString("dialect"),
                        descending(sortId, row.getString("sort_direction")), nullsFirst(sortId, row.getString("null_order"))))
                .toList());
    }

    private static boolean descending(long sortId, String direction)
    {
        return switch (direction == null ? "" : direction.toUpperCase(Locale.ROOT)) {
            case "ASC" -> false;
            case "DESC" -> true;
            default -> throw new CorruptionException("sort spec " + sortId + " has sort_direction '" + direction + "'; DuckLake writes ASC or DESC");
        };
    }

    private static boolean nullsFirst(long sortId, String nullOrder)
    {
        return switch (nullOrder == null ? "" : nullOrder.toUpperCase(Locale.ROOT).replace(' ', '_')) {
            case "NULLS_FIRST" -> true;
            case "NULLS_LAST" -> false;
            default -> throw new CorruptionException("sort spec " + sortId + " has null_order '" + nullOrder + "'; DuckLake writes NULLS_FIRST or NULLS_LAST");
        };
    }
}
