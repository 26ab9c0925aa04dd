package io.moraine.spark;

import io.moraine.core.types.DuckLakeType;
import io.moraine.core.types.PrimitiveKind;
import io.moraine.core.types.TableColumn;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

import java.util.List;

/**
 * DuckLake column types as Spark types. Unsigned integers widen to the next signed type (uint64 to DECIMAL(20,0), as
 * Spark's Parquet reader reads UINT_64); uuid and interval become strings (uuid in its canonical text, interval as
 * DuckDB prints it), json a string, geometry binary (its WKB). Spark's Parquet reader cannot read uuid and interval
 * columns as such: they are read as the fixed-length binary they are stored as ({@link #physical}) and converted per
 * batch ({@link ConvertedColumnVector}). Types with no faithful Spark reading are refused when a scan reads them.
 */
final class SparkTypes
{
    /** The Parquet field-id key Spark's reader matches columns by. */
    static final String FIELD_ID = "parquet.field.id";

    private SparkTypes() {}

    /** The Spark type of a column as queries see it. */
    static DataType logical(TableColumn column)
    {
        return switch (column.type()) {
            case DuckLakeType.Decimal decimal -> DataTypes.createDecimalType(decimal.precision(), decimal.scale());
            case DuckLakeType.ListOf list -> DataTypes.createArrayType(logical(list.element()), true);
            case DuckLakeType.MapOf map -> DataTypes.createMapType(logical(map.key()), logical(map.value()), true);
            case DuckLakeType.StructOf struct -> new StructType(struct.fields().stream()
                    .map(field -> new StructField(field.name(), logical(field), true, Metadata.empty()))
                    .toArray(StructField[]::new));
            case DuckLakeType.Primitive primitive -> switch (primitive.kind()) {
                case BOOLEAN -> DataTypes.BooleanType;
                case INT8 -> DataTypes.ByteType;
                case INT16, UINT8 -> DataTypes.ShortType;
                case INT32, UINT16 -> DataTypes.IntegerType;
                case INT64, UINT32 -> DataTypes.LongType;
                case UINT64 -> DataTypes.createDecimalType(20, 0);
                case INT128, UINT128 -> DataTypes.createDecimalType(38, 0);
                case FLOAT32 -> DataTypes.FloatType;
                case FLOAT64 -> DataTypes.DoubleType;
                case DATE -> DataTypes.DateType;
                case TIMESTAMP, TIMESTAMP_S, TIMESTAMP_MS, TIMESTAMP_NS -> DataTypes.TimestampNTZType;
                case TIMESTAMPTZ -> DataTypes.TimestampType;
                case VARCHAR, JSON, UUID, INTERVAL, TIME, TIME_NS, TIMETZ -> DataTypes.StringType;
                case BLOB, GEOMETRY, VARIANT -> DataTypes.BinaryType;
            };
        };
    }

    /** The table's columns as a Spark schema (what {@code SELECT *} shows). */
    static StructType logical(List<TableColumn> columns)
    {
        return new StructType(columns.stream().map(column -> new StructField(column.name(), logical(column), true, Metadata.empty()))
                .toArray(StructField[]::new));
    }

    /**
     * The field a scan asks Spark's Parquet reader for: the column's Spark type with uuid and interval as binary, and the
     * column id as Parquet field id on it and on every struct field inside (taken from the catalog, never from a schema
     * that went through Spark's optimizer). List elements and map entries are matched by position.
     */
    static StructField physical(TableColumn column)
    {
        return new StructField(column.name(), physicalType(column), true, fieldId(column.columnId()));
    }

    /** A field with a Parquet field id (DuckLake's hidden columns have fixed ids). */
    static StructField withFieldId(String name, DataType type, long fieldId)
    {
        return new StructField(name, type, true, fieldId(fieldId));
    }

    private static DataType physicalType(TableColumn column)
    {
        return switch (column.type()) {
            case DuckLakeType.ListOf list -> DataTypes.createArrayType(physicalType(list.element()), true);
            case DuckLakeType.MapOf map -> DataTypes.createMapType(physicalType(map.key()), physicalType(map.value()), true);
            case DuckLakeType.StructOf struct -> new StructType(struct.fields().stream().map(SparkTypes::physical).toArray(StructField[]::new));
            default -> readAsBinary(column) ? DataTypes.BinaryType : logical(column);
        };
    }

    /** Whether Spark's reader reads the column as the binary it is stored as, converted per batch. */
    static boolean readAsBinary(TableColumn column)
    {
        return column.type().is(PrimitiveKind.UUID) || column.type().is(PrimitiveKind.INTERVAL);
    }

    /**
     * Why Spark's Parquet reader cannot read the column faithfully (searched through nested types), or null when it can.
     */
    static String unreadable(TableColumn column)
    {
        for (TableColumn child : column.children()) {
            if (column.type() instanceof DuckLakeType.ListOf || column.type() instanceof DuckLakeType.MapOf) {
                if (readAsBinary(child)) {
                    return child.type().duckLakeName() + " inside a list or map";
                }
            }
            String nested = unreadable(child);
            if (nested != null) {
                return nested;
            }
        }
        if (column.type() instanceof DuckLakeType.Primitive primitive) {
            return switch (primitive.kind()) {
                case INT128, UINT128, TIME, TIME_NS, TIMETZ, TIMESTAMP_NS, VARIANT -> primitive.kind().duckLakeName();
                default -> null;
            };
        }
        return null;
    }

    private static Metadata fieldId(long id)
    {
        return new MetadataBuilder().putLong(FIELD_ID, id).build();
    }
}
