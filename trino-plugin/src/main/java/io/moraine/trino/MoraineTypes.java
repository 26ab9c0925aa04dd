package io.moraine.trino;

import com.google.inject.Inject;
import io.moraine.core.catalog.ColumnNode;
import io.trino.spi.TrinoException;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.RowType;
import io.trino.spi.type.Type;
import io.trino.spi.type.TypeManager;

import java.util.Locale;

import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.BooleanType.BOOLEAN;
import static io.trino.spi.type.DateType.DATE;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.RealType.REAL;
import static io.trino.spi.type.SmallintType.SMALLINT;
import static io.trino.spi.type.TimeType.TIME_MICROS;
import static io.trino.spi.type.TimestampType.TIMESTAMP_MICROS;
import static io.trino.spi.type.TimestampType.TIMESTAMP_MILLIS;
import static io.trino.spi.type.TimestampType.TIMESTAMP_NANOS;
import static io.trino.spi.type.TimestampType.TIMESTAMP_SECONDS;
import static io.trino.spi.type.TimestampWithTimeZoneType.TIMESTAMP_TZ_MICROS;
import static io.trino.spi.type.TinyintType.TINYINT;
import static io.trino.spi.type.UuidType.UUID;
import static io.trino.spi.type.VarbinaryType.VARBINARY;
import static io.trino.spi.type.VarcharType.VARCHAR;

/**
 * DuckLake column types as Trino types (reference §7.1), after the mapping the established DuckLake connector for
 * Trino uses: unsigned integers widen to the next signed type (uint64 to DECIMAL(20,0)), 128-bit integers become
 * DECIMAL(38,0), json becomes json, interval becomes varchar (degraded: Trino has no month-day-micro interval).
 */
public class MoraineTypes
{
    private final TypeManager typeManager;

    @Inject
    public MoraineTypes(TypeManager typeManager)
    {
        this.typeManager = typeManager;
    }

    public Type toTrino(ColumnNode column)
    {
        String type = column.type().toLowerCase(Locale.ROOT);
        return switch (type) {
            case "boolean" -> BOOLEAN;
            case "int8" -> TINYINT;
            case "int16", "uint8" -> SMALLINT;
            case "int32", "uint16" -> INTEGER;
            case "int64", "uint32" -> BIGINT;
            case "uint64" -> DecimalType.createDecimalType(20, 0);
            case "int128", "uint128" -> DecimalType.createDecimalType(38, 0);
            case "float32" -> REAL;
            case "float64" -> DOUBLE;
            case "date" -> DATE;
            case "time" -> TIME_MICROS;
            case "timestamp", "timestamp_us" -> TIMESTAMP_MICROS;
            case "timestamp_s" -> TIMESTAMP_SECONDS;
            case "timestamp_ms" -> TIMESTAMP_MILLIS;
            case "timestamp_ns" -> TIMESTAMP_NANOS;
            case "timestamptz" -> TIMESTAMP_TZ_MICROS;
            case "varchar", "interval" -> VARCHAR;
            case "json" -> typeManager.fromSqlType("json");
            case "blob", "geometry", "variant" -> VARBINARY;
            case "uuid" -> UUID;
            case "list" -> new ArrayType(toTrino(column.children().getFirst()));
            case "struct" -> RowType.from(column.children().stream()
                    .map(child -> RowType.field(child.name(), toTrino(child)))
                    .toList());
            case "map" -> new io.trino.spi.type.MapType(toTrino(column.children().get(0)), toTrino(column.children().get(1)), typeManager.getTypeOperators());
            default -> {
                if (type.startsWith("decimal(")) {
                    String[] precisionScale = type.substring("decimal(".length(), type.length() - 1).split(",");
                    yield DecimalType.createDecimalType(Integer.parseInt(precisionScale[0].strip()), Integer.parseInt(precisionScale[1].strip()));
                }
                throw new TrinoException(NOT_SUPPORTED, "column " + column.name() + " has DuckLake type '" + column.type()
                        + "', which the moraine connector does not map yet");
            }
        };
    }
}
