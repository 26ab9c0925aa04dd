package io.moraine.importer;

import io.moraine.core.row.ColumnNode;
import io.moraine.core.types.DuckLakeType;
import io.moraine.core.types.TableColumn;

import java.util.Locale;
import java.util.stream.Collectors;

/** DuckDB SQL type names for DuckLake column types (reference §7.1), including nested struct, list and map columns. */
public final class DuckDbTypes
{
    private DuckDbTypes() {}

    public static String of(ColumnNode column)
    {
        return of(TableColumn.of(column));
    }

    public static String of(TableColumn column)
    {
        return switch (column.type()) {
            case DuckLakeType.StructOf struct -> "STRUCT(" + struct.fields().stream()
                    .map(field -> quote(field.name()) + " " + of(field))
                    .collect(Collectors.joining(", ")) + ")";
            case DuckLakeType.ListOf list -> of(list.element()) + "[]";
            case DuckLakeType.MapOf map -> "MAP(" + of(map.key()) + ", " + of(map.value()) + ")";
            case DuckLakeType.Decimal decimal -> "DECIMAL(" + decimal.precision() + "," + decimal.scale() + ")";
            case DuckLakeType.Primitive primitive -> switch (primitive.kind()) {
                case BOOLEAN -> "BOOLEAN";
                case INT8 -> "TINYINT";
                case INT16 -> "SMALLINT";
                case INT32 -> "INTEGER";
                case INT64 -> "BIGINT";
                case INT128 -> "HUGEINT";
                case UINT8 -> "UTINYINT";
                case UINT16 -> "USMALLINT";
                case UINT32 -> "UINTEGER";
                case UINT64 -> "UBIGINT";
                case UINT128 -> "UHUGEINT";
                case FLOAT32 -> "FLOAT";
                case FLOAT64 -> "DOUBLE";
                case TIMESTAMP -> "TIMESTAMP";
                // The rest are spelled as DuckLake names them.
                default -> primitive.kind().duckLakeName().toUpperCase(Locale.ROOT);
            };
        };
    }

    static String quote(String identifier)
    {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }
}
