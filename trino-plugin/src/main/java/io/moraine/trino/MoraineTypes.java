package io.moraine.trino;

import com.google.inject.Inject;
import io.moraine.core.types.DuckLakeType;
import io.moraine.core.types.TableColumn;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.MapType;
import io.trino.spi.type.RowType;
import io.trino.spi.type.Type;
import io.trino.spi.type.TypeManager;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.BooleanType.BOOLEAN;
import static io.trino.spi.type.DateType.DATE;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.RealType.REAL;
import static io.trino.spi.type.SmallintType.SMALLINT;
import static io.trino.spi.type.TimeType.TIME_MICROS;
import static io.trino.spi.type.TimeType.TIME_NANOS;
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
 * DECIMAL(38,0), json becomes json, interval and timetz become varchar and geometry and variant varbinary (degraded:
 * Trino has no equivalent).
 */
public class MoraineTypes
{
    private final TypeManager typeManager;

    @Inject
    public MoraineTypes(TypeManager typeManager)
    {
        this.typeManager = typeManager;
    }

    public Type toTrino(TableColumn column)
    {
        return switch (column.type()) {
            case DuckLakeType.Decimal decimal -> DecimalType.createDecimalType(decimal.precision(), decimal.scale());
            case DuckLakeType.ListOf list -> new ArrayType(toTrino(list.element()));
            case DuckLakeType.StructOf struct -> RowType.from(struct.fields().stream().map(field -> RowType.field(field.name(), toTrino(field))).toList());
            case DuckLakeType.MapOf map -> new MapType(toTrino(map.key()), toTrino(map.value()), typeManager.getTypeOperators());
            case DuckLakeType.Primitive primitive -> switch (primitive.kind()) {
                case BOOLEAN -> BOOLEAN;
                case INT8 -> TINYINT;
                case INT16, UINT8 -> SMALLINT;
                case INT32, UINT16 -> INTEGER;
                case INT64, UINT32 -> BIGINT;
                case UINT64 -> DecimalType.createDecimalType(20, 0);
                case INT128, UINT128 -> DecimalType.createDecimalType(38, 0);
                case FLOAT32 -> REAL;
                case FLOAT64 -> DOUBLE;
                case DATE -> DATE;
                case TIME -> TIME_MICROS;
                case TIME_NS -> TIME_NANOS;
                case TIMESTAMP -> TIMESTAMP_MICROS;
                case TIMESTAMP_S -> TIMESTAMP_SECONDS;
                case TIMESTAMP_MS -> TIMESTAMP_MILLIS;
                case TIMESTAMP_NS -> TIMESTAMP_NANOS;
                case TIMESTAMPTZ -> TIMESTAMP_TZ_MICROS;
                case VARCHAR, INTERVAL, TIMETZ -> VARCHAR;
                case JSON -> typeManager.fromSqlType("json");
                case BLOB, GEOMETRY, VARIANT -> VARBINARY;
                case UUID -> UUID;
            };
        };
    }
}
