package io.moraine.spark;

import io.moraine.core.write.ColumnDefinition;
import org.apache.spark.sql.connector.catalog.Column;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;

import java.util.Arrays;
import java.util.List;

/**
 * Spark column types as the DuckLake types a table is created with: the inverse of {@link SparkTypes#logical} for the
 * types Spark writes faithfully (TIMESTAMP is {@code timestamptz}, TIMESTAMP_NTZ {@code timestamp}, STRING, CHAR and
 * VARCHAR {@code varchar}, BINARY {@code blob}). Other Spark types are refused, naming the column.
 */
final class SparkColumnDefinitions
{
    private SparkColumnDefinitions() {}

    static List<ColumnDefinition> of(Column[] columns, String table)
    {
        return Arrays.stream(columns).map(column -> {
            if (column.defaultValue() != null) {
                throw SparkErrors.unsupported("column " + column.name() + " of " + table + " has a DEFAULT; moraine's Spark connector does not "
                        + "create columns with defaults yet. Create the column without one, or set the default through DuckDB");
            }
            ColumnDefinition definition = of(column.name(), column.dataType(), table);
            return column.nullable() ? definition : definition.notNull();
        }).toList();
    }

    static ColumnDefinition of(String name, DataType type, String table)
    {
        return switch (type) {
            case StructType struct -> ColumnDefinition.struct(name, Arrays.stream(struct.fields()).map(field -> field(field, table)).toList());
            case ArrayType array -> ColumnDefinition.list(name, of("element", array.elementType(), table));
            case MapType map -> ColumnDefinition.map(name, of("key", map.keyType(), table), of("value", map.valueType(), table));
            default -> ColumnDefinition.of(name, scalar(name, type, table));
        };
    }

    /** The DuckLake type name of a Spark scalar type. */
    static String scalar(String name, DataType type, String table)
    {
        return switch (type) {
            case BooleanType ignored -> "boolean";
            case ByteType ignored -> "int8";
            case ShortType ignored -> "int16";
            case IntegerType ignored -> "int32";
            case LongType ignored -> "int64";
            case FloatType ignored -> "float32";
            case DoubleType ignored -> "float64";
            case DecimalType decimal -> "decimal(" + decimal.precision() + "," + decimal.scale() + ")";
            case DateType ignored -> "date";
            case TimestampType ignored -> "timestamptz";
            case TimestampNTZType ignored -> "timestamp";
            case StringType ignored -> "varchar";
            case BinaryType ignored -> "blob";
            default -> throw SparkErrors.unsupported("column " + name + " of " + table + " has Spark type " + type.sql()
                    + ", which has no DuckLake type moraine's Spark connector writes; use BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, "
                    + "DECIMAL, DATE, TIMESTAMP, TIMESTAMP_NTZ, STRING, BINARY, STRUCT, ARRAY or MAP");
        };
    }

    private static ColumnDefinition field(StructField field, String table)
    {
        ColumnDefinition definition = of(field.name(), field.dataType(), table);
        return field.nullable() ? definition : definition.notNull();
    }
}
