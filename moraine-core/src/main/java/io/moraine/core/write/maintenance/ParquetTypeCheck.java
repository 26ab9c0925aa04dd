package io.moraine.core.write.maintenance;

import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.types.DuckLakeType;
import io.moraine.core.types.PrimitiveKind;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

import java.util.ArrayList;
import java.util.List;

/**
 * Whether a Parquet column may be read as a table column, by DuckLake 1.5.5's {@code DuckLakeParquetTypeChecker}: the
 * file column's DuckDB type (derived as DuckDB's Parquet reader derives it) must equal the column's, or be one DuckLake
 * widens to it: a narrower signed or unsigned integer (an unsigned one into a wider signed one), FLOAT into DOUBLE,
 * another timestamp precision into a timestamp, a decimal of no greater precision and scale.
 */
final class ParquetTypeCheck
{
    private ParquetTypeCheck() {}

    /** Throws a {@link InvalidArgumentException} naming column, file, table and the types accepted when they do not match. */
    static void check(Type column, DuckLakeType target, String columnPath, String file, String table)
    {
        String source = duckDbType(column);
        List<String> accepted = accepted(target, source);
        if (!accepted.contains(source)) {
            throw new InvalidArgumentException("Failed to map column \"" + columnPath + "\" from file \"" + file + "\" to the column in table \"" + table
                    + "\": expected " + (accepted.size() > 1 ? "one of " : "") + String.join(", ", accepted) + ", found type " + source
                    + "; write the file with a type the column accepts, or widen the column first");
        }
    }

    /**
     * The type the file column's statistics are read in: DuckLake prints a file's bounds as DuckDB prints the file
     * column's own type (a SMALLINT's, a FLOAT's), not the table column's.
     */
    static DuckLakeType sourceType(Type column, DuckLakeType target)
    {
        String source = duckDbType(column);
        if (source.startsWith("DECIMAL(")) {
            String[] ps = source.substring(8, source.length() - 1).split(",");
            return new DuckLakeType.Decimal(Integer.parseInt(ps[0]), Integer.parseInt(ps[1]));
        }
        PrimitiveKind kind = switch (source) {
            case "TINYINT" -> PrimitiveKind.INT8;
            case "SMALLINT" -> PrimitiveKind.INT16;
            case "INTEGER" -> PrimitiveKind.INT32;
            case "BIGINT" -> PrimitiveKind.INT64;
            case "UTINYINT" -> PrimitiveKind.UINT8;
            case "USMALLINT" -> PrimitiveKind.UINT16;
            case "UINTEGER" -> PrimitiveKind.UINT32;
            case "UBIGINT" -> PrimitiveKind.UINT64;
            case "FLOAT" -> PrimitiveKind.FLOAT32;
            case "DOUBLE" -> PrimitiveKind.FLOAT64;
            case "TIMESTAMP" -> PrimitiveKind.TIMESTAMP;
            case "TIMESTAMP_MS" -> PrimitiveKind.TIMESTAMP_MS;
            case "TIMESTAMP_NS" -> PrimitiveKind.TIMESTAMP_NS;
            default -> null;
        };
        return kind == null ? target : new DuckLakeType.Primitive(kind);
    }

    private static List<String> accepted(DuckLakeType target, String source)
    {
        List<String> accepted = new ArrayList<>();
        switch (target) {
            case DuckLakeType.StructOf ignored -> accepted.add("STRUCT");
            case DuckLakeType.ListOf ignored -> accepted.add("LIST");
            case DuckLakeType.MapOf ignored -> accepted.add("MAP");
            case DuckLakeType.Decimal decimal -> {
                String same = "DECIMAL(" + decimal.precision() + "," + decimal.scale() + ")";
                if (source.startsWith("DECIMAL(")) {
                    String[] ps = source.substring(8, source.length() - 1).split(",");
                    if (Integer.parseInt(ps[0]) <= decimal.precision() && Integer.parseInt(ps[1]) <= decimal.scale()) {
                        return List.of(source);
                    }
                }
                accepted.add(same + " or a DECIMAL of no greater precision and scale");
            }
            case DuckLakeType.Primitive primitive -> accepted.addAll(accepted(primitive.kind()));
            default -> accepted.add(target.duckLakeName().toUpperCase(java.util.Locale.ROOT));
        }
        return accepted;
    }

    private static List<String> accepted(PrimitiveKind kind)
    {
        return switch (kind) {
            case INT64 -> List.of("BIGINT", "UINTEGER", "INTEGER", "USMALLINT", "SMALLINT", "UTINYINT", "TINYINT");
            case INT32 -> List.of("INTEGER", "USMALLINT", "SMALLINT", "UTINYINT", "TINYINT");
            case INT16 -> List.of("SMALLINT", "UTINYINT", "TINYINT");
            case INT8 -> List.of("TINYINT");
            case UINT64 -> List.of("UBIGINT", "UINTEGER", "USMALLINT", "UTINYINT");
            case UINT32 -> List.of("UINTEGER", "USMALLINT", "UTINYINT");
            case UINT16 -> List.of("USMALLINT", "UTINYINT");
            case UINT8 -> List.of("UTINYINT");
            case FLOAT64 -> List.of("DOUBLE", "FLOAT");
            case FLOAT32 -> List.of("FLOAT");
            case TIMESTAMP, TIMESTAMP_NS -> List.of("TIMESTAMP_NS", "TIMESTAMP", "TIMESTAMP_MS", "TIMESTAMP_S");
            case TIMESTAMP_MS, TIMESTAMP_S -> List.of("TIMESTAMP", "TIMESTAMP_MS", "TIMESTAMP_S");
            case BOOLEAN -> List.of("BOOLEAN");
            case VARCHAR -> List.of("VARCHAR");
            case JSON -> List.of("JSON");
            case BLOB -> List.of("BLOB");
            case DATE -> List.of("DATE");
            case TIME -> List.of("TIME");
            case TIMESTAMPTZ -> List.of("TIMESTAMP WITH TIME ZONE");
            case UUID -> List.of("UUID");
            case INTERVAL -> List.of("INTERVAL");
            case INT128 -> List.of("HUGEINT");
            case UINT128 -> List.of("UHUGEINT");
            case TIME_NS -> List.of("TIME_NS");
            case TIMETZ -> List.of("TIME WITH TIME ZONE");
            case VARIANT -> List.of("VARIANT");
            case GEOMETRY -> List.of("GEOMETRY");
        };
    }

    /** The DuckDB type DuckDB's Parquet reader gives {@code column} (DuckLake's {@code DeriveLogicalType}). */
    static String duckDbType(Type column)
    {
        LogicalTypeAnnotation logical = column.getLogicalTypeAnnotation();
        if (!column.isPrimitive()) {
            if (logical instanceof LogicalTypeAnnotation.ListLogicalTypeAnnotation) {
                return "LIST";
            }
            if (logical instanceof LogicalTypeAnnotation.MapLogicalTypeAnnotation || logical instanceof LogicalTypeAnnotation.MapKeyValueTypeAnnotation) {
                return "MAP";
            }
            return "STRUCT";
        }
        PrimitiveType primitive = column.asPrimitiveType();
        switch (logical) {
            case LogicalTypeAnnotation.TimestampLogicalTypeAnnotation ts -> {
                if (ts.isAdjustedToUTC()) {
                    return "TIMESTAMP WITH TIME ZONE";
                }
                return switch (ts.getUnit()) {
                    case MILLIS -> "TIMESTAMP_MS";
                    case MICROS -> "TIMESTAMP";
                    case NANOS -> "TIMESTAMP_NS";
                };
            }
            case LogicalTypeAnnotation.TimeLogicalTypeAnnotation ignored -> {
                return "TIME";
            }
            case LogicalTypeAnnotation.UUIDLogicalTypeAnnotation ignored -> {
                return "UUID";
            }
            case LogicalTypeAnnotation.IntLogicalTypeAnnotation integer -> {
                String name = switch (integer.getBitWidth()) {
                    case 8 -> "TINYINT";
                    case 16 -> "SMALLINT";
                    case 32 -> "INTEGER";
                    default -> "BIGINT";
                };
                return integer.isSigned() ? name : "U" + name;
            }
            case LogicalTypeAnnotation.DateLogicalTypeAnnotation ignored -> {
                return "DATE";
            }
            case LogicalTypeAnnotation.DecimalLogicalTypeAnnotation decimal -> {
                return "DECIMAL(" + decimal.getPrecision() + "," + decimal.getScale() + ")";
            }
            case LogicalTypeAnnotation.StringLogicalTypeAnnotation ignored -> {
                return "VARCHAR";
            }
            case LogicalTypeAnnotation.EnumLogicalTypeAnnotation ignored -> {
                return "VARCHAR";
            }
            case LogicalTypeAnnotation.JsonLogicalTypeAnnotation ignored -> {
                return "JSON";
            }
            case LogicalTypeAnnotation.IntervalLogicalTypeAnnotation ignored -> {
                return "INTERVAL";
            }
            case null, default -> {
                return switch (primitive.getPrimitiveTypeName()) {
                    case BOOLEAN -> "BOOLEAN";
                    case INT32 -> "INTEGER";
                    case INT64 -> "BIGINT";
                    case INT96 -> "TIMESTAMP";
                    case FLOAT -> "FLOAT";
                    case DOUBLE -> "DOUBLE";
                    case BINARY, FIXED_LEN_BYTE_ARRAY -> "BLOB";
                };
            }
        }
    }
}
