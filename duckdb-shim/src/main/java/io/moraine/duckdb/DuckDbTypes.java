package io.moraine.duckdb;

import io.moraine.core.catalog.ColumnNode;
import io.moraine.core.error.UnsupportedFeatureException;

import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** DuckDB SQL type names for DuckLake column types (reference §7.1), including nested struct, list and map columns. */
final class DuckDbTypes
{
    private static final Map<String, String> SCALARS = Map.ofEntries(
            Map.entry("boolean", "BOOLEAN"), Map.entry("int8", "TINYINT"), Map.entry("int16", "SMALLINT"),
            Map.entry("int32", "INTEGER"), Map.entry("int64", "BIGINT"), Map.entry("int128", "HUGEINT"),
            Map.entry("uint8", "UTINYINT"), Map.entry("uint16", "USMALLINT"), Map.entry("uint32", "UINTEGER"),
            Map.entry("uint64", "UBIGINT"), Map.entry("uint128", "UHUGEINT"), Map.entry("float32", "FLOAT"),
            Map.entry("float64", "DOUBLE"), Map.entry("date", "DATE"), Map.entry("time", "TIME"), Map.entry("time_ns", "TIME_NS"),
            Map.entry("timetz", "TIMETZ"), Map.entry("timestamp", "TIMESTAMP"), Map.entry("timestamp_us", "TIMESTAMP"),
            Map.entry("timestamp_s", "TIMESTAMP_S"), Map.entry("timestamp_ms", "TIMESTAMP_MS"), Map.entry("timestamp_ns", "TIMESTAMP_NS"),
            Map.entry("timestamptz", "TIMESTAMPTZ"), Map.entry("interval", "INTERVAL"), Map.entry("varchar", "VARCHAR"),
            Map.entry("blob", "BLOB"), Map.entry("json", "JSON"), Map.entry("uuid", "UUID"), Map.entry("variant", "VARIANT"),
            Map.entry("geometry", "GEOMETRY"));

    private DuckDbTypes() {}

    static String of(ColumnNode column)
    {
        String type = column.type().toLowerCase(Locale.ROOT);
        return switch (type) {
            case "struct" -> "STRUCT(" + column.children().stream()
                    .map(child -> quote(child.name()) + " " + of(child))
                    .collect(Collectors.joining(", ")) + ")";
            case "list" -> of(column.children().getFirst()) + "[]";
            case "map" -> "MAP(" + of(column.children().get(0)) + ", " + of(column.children().get(1)) + ")";
            default -> {
                if (type.startsWith("decimal")) {
                    yield type.toUpperCase(Locale.ROOT);
                }
                String scalar = SCALARS.get(type);
                if (scalar == null) {
                    throw new UnsupportedFeatureException("column " + column.name() + " has DuckLake type '" + column.type()
                            + "', which moraine does not know; DuckLake 1.0's types are " + SCALARS.keySet());
                }
                yield scalar;
            }
        };
    }

    static String quote(String identifier)
    {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }
}
