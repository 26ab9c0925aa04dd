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

    /**
     * The DuckLake column a Trino column of {@code type} is created as, such that it reads back as {@code type}:
     * types without such a column are refused ({@link #supportedWriteType} names the type Trino casts them to first).
     */
    public io.moraine.core.write.ColumnDefinition toColumnDefinition(String name, Type type)
    {
        return switch (type) {
            case ArrayType array -> io.moraine.core.write.ColumnDefinition.list(name, toColumnDefinition("element", array.getElementType()));
            case MapType map -> io.moraine.core.write.ColumnDefinition.map(name, toColumnDefinition("key", map.getKeyType()),
                    toColumnDefinition("value", map.getValueType()));
            case RowType row -> io.moraine.core.write.ColumnDefinition.struct(name, row.getFields().stream()
                    .map(field -> toColumnDefinition(field.getName().orElseThrow(() -> new io.trino.spi.TrinoException(io.trino.spi.StandardErrorCode.NOT_SUPPORTED,
                            "column " + name + " has a row type with an unnamed field; DuckLake struct fields need names")), field.getType()))
                    .toList());
            case DecimalType decimal -> io.moraine.core.write.ColumnDefinition.of(name, "decimal(" + decimal.getPrecision() + "," + decimal.getScale() + ")");
            default -> io.moraine.core.write.ColumnDefinition.of(name, scalarName(type).orElseThrow(() -> new io.trino.spi.TrinoException(
                    io.trino.spi.StandardErrorCode.NOT_SUPPORTED, "column " + name + " has type " + type + ", which moraine cannot write; use one of boolean, "
                    + "tinyint, smallint, integer, bigint, real, double, decimal, varchar, varbinary, date, time(6), timestamp(3|6|9), "
                    + "timestamp(6) with time zone, uuid, array, map or row")));
        };
    }

    private static java.util.Optional<String> scalarName(Type type)
    {
        String name = type == BOOLEAN ? "boolean"
                : type == TINYINT ? "int8"
                : type == SMALLINT ? "int16"
                : type == INTEGER ? "int32"
                : type == BIGINT ? "int64"
                : type == REAL ? "float32"
                : type == DOUBLE ? "float64"
                : type == DATE ? "date"
                : type == TIME_MICROS ? "time"
                : type == TIMESTAMP_MILLIS ? "timestamp_ms"
                : type == TIMESTAMP_MICROS ? "timestamp"
                : type == TIMESTAMP_NANOS ? "timestamp_ns"
                : type == TIMESTAMP_TZ_MICROS ? "timestamptz"
                : type == UUID ? "uuid"
                : type == VARBINARY ? "blob"
                : type instanceof io.trino.spi.type.VarcharType varchar && varchar.isUnbounded() ? "varchar"
                : null;
        return java.util.Optional.ofNullable(name);
    }

    /**
     * The type Trino casts a column of {@code type} to before moraine creates or writes it, when it is not written as
     * it is: bounded varchar and char to varchar, other time and timestamp precisions to the next DuckLake has.
     */
    public java.util.Optional<Type> supportedWriteType(Type type)
    {
        return switch (type) {
            case io.trino.spi.type.VarcharType varchar when !varchar.isUnbounded() -> java.util.Optional.of(VARCHAR);
            case io.trino.spi.type.CharType _ -> java.util.Optional.of(VARCHAR);
            case io.trino.spi.type.TimeType time when time != TIME_MICROS -> java.util.Optional.of(TIME_MICROS);
            case io.trino.spi.type.TimestampType timestamp when timestamp.getPrecision() < 3 -> java.util.Optional.of(TIMESTAMP_MILLIS);
            case io.trino.spi.type.TimestampType timestamp when timestamp.getPrecision() > 3 && timestamp.getPrecision() < 6 -> java.util.Optional.of(TIMESTAMP_MICROS);
            case io.trino.spi.type.TimestampType timestamp when timestamp.getPrecision() > 6 && timestamp.getPrecision() < 9 -> java.util.Optional.of(TIMESTAMP_NANOS);
            case io.trino.spi.type.TimestampWithTimeZoneType timestamp when timestamp != TIMESTAMP_TZ_MICROS -> java.util.Optional.of(TIMESTAMP_TZ_MICROS);
            case ArrayType array -> supportedWriteType(array.getElementType()).map(ArrayType::new);
            default -> java.util.Optional.empty();
        };
    }
}
