package io.moraine.spark;

import io.moraine.core.catalog.PartitionSpec;
import io.moraine.core.catalog.PartitionTransform;
import io.moraine.core.types.DuckLakeType;
import io.moraine.core.types.TableColumn;
import io.moraine.core.types.TableSchema;
import io.moraine.core.write.files.DataFileLayout;
import io.moraine.core.write.files.DataFileWriterSettings;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

import java.io.Serializable;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * What an executor needs to write data files of one table as the driver's {@link DataFileLayout} says, in a form Spark
 * can ship: the layout's parts (rebuilt into the core's layout on the executor) and the Spark schema of the files, whose
 * fields carry the column ids as Parquet field ids for Spark's Parquet writer.
 */
record WriteRecipe(String tablePath, List<ColumnRecipe> columnRecipes, boolean hiveDirectories, long partitionId, List<Key> keys, String compression,
        long rowGroupRows, long rowGroupBytes, int parquetVersion, long targetFileSizeBytes, boolean rollOver, StructType fileSchema)
        implements Serializable
{
    /** A column and its nested children, shipped without its {@code Optional} default (not serializable): writes do not use it. */
    record ColumnRecipe(long columnId, String name, String type, boolean nullable, List<ColumnRecipe> fields)
            implements Serializable
    {
        static ColumnRecipe of(TableColumn column)
        {
            return new ColumnRecipe(column.columnId(), column.name(), column.type().duckLakeName(), column.nullable(),
                    column.children().stream().map(ColumnRecipe::of).toList());
        }

        TableColumn column()
        {
            DuckLakeType type = DuckLakeType.parse(name, this.type, fields.stream().map(ColumnRecipe::column).toList());
            return new TableColumn(columnId, name, type, Optional.empty(), nullable);
        }
    }

    TableSchema columns()
    {
        return new TableSchema(columnRecipes.stream().map(ColumnRecipe::column).toList());
    }

    record Key(int index, long columnId, String columnType, String transform, String hiveName)
            implements Serializable {}

    static WriteRecipe of(DataFileLayout layout, String table)
    {
        DataFileWriterSettings settings = layout.settings();
        List<Key> keys = layout.partitionSpec().map(spec -> spec.keys().stream()
                .map(key -> new Key(key.index(), key.columnId(), key.columnType(), key.transform().text(), key.hiveName())).toList()).orElse(List.of());
        return new WriteRecipe(layout.tablePath(), layout.columns().columns().stream().map(ColumnRecipe::of).toList(), !layout.partitionSpec().isPresent() || hive(layout),
                layout.partitionSpec().map(PartitionSpec::partitionId).orElse(-1L), keys, settings.compression().name(), settings.rowGroupRows(),
                settings.rowGroupBytes().orElse(-1), settings.parquetVersion().orElse(-1), settings.targetFileSizeBytes(), settings.rollOver(),
                fileSchema(layout.columns().columns(), table));
    }

    /** Whether the layout puts partitioned files in hive directories (the target's path says so). */
    private static boolean hive(DataFileLayout layout)
    {
        List<String> nulls = new java.util.ArrayList<>();
        layout.partitionSpec().get().keys().forEach(key -> nulls.add(null));
        return !layout.target(nulls, false).hiveDirectory().isEmpty();
    }

    DataFileLayout layout()
    {
        Optional<PartitionSpec> spec = keys.isEmpty() ? Optional.empty() : Optional.of(new PartitionSpec(partitionId, keys.stream()
                .map(key -> new PartitionSpec.Key(key.index(), key.columnId(), key.columnType(), PartitionTransform.parse(key.transform()), key.hiveName()))
                .toList()));
        DataFileWriterSettings settings = new DataFileWriterSettings(CompressionCodecName.valueOf(compression), OptionalInt.empty(), rowGroupRows,
                rowGroupBytes < 0 ? OptionalLong.empty() : OptionalLong.of(rowGroupBytes), parquetVersion < 0 ? Optional.empty() : Optional.of(parquetVersion),
                targetFileSizeBytes, rollOver);
        return new DataFileLayout(tablePath, columns(), spec, hiveDirectories, settings);
    }

    /** The Spark schema of the table's data files, with field ids; refuses columns Spark cannot write as DuckLake reads them. */
    static StructType fileSchema(List<TableColumn> columns, String table)
    {
        return new StructType(columns.stream().map(column -> field(column, table)).toArray(StructField[]::new));
    }

    private static StructField field(TableColumn column, String table)
    {
        DataType type = switch (column.type()) {
            case DuckLakeType.StructOf struct -> new StructType(column.children().stream().map(child -> field(child, table)).toArray(StructField[]::new));
            case DuckLakeType.ListOf list -> DataTypes.createArrayType(field(list.element(), table).dataType(), true);
            case DuckLakeType.MapOf map -> DataTypes.createMapType(field(map.key(), table).dataType(), field(map.value(), table).dataType(), true);
            case DuckLakeType.Decimal decimal -> SparkTypes.logical(column);
            case DuckLakeType.Primitive primitive -> switch (primitive.kind()) {
                case BOOLEAN, INT8, INT16, INT32, INT64, FLOAT32, FLOAT64, DATE, TIMESTAMP, TIMESTAMPTZ, VARCHAR, BLOB -> SparkTypes.logical(column);
                default -> throw unwritable(column, table, primitive.kind().duckLakeName());
            };
        };
        return new StructField(column.name(), type, true, new MetadataBuilder().putLong(SparkTypes.FIELD_ID, column.columnId()).build());
    }

    private static RuntimeException unwritable(TableColumn column, String table, String what)
    {
        return SparkErrors.unsupported("column " + column.name() + " of " + table + " is " + what + ", which moraine's Spark connector does not write yet; "
                + "write this table through DuckDB, or write a table of BOOLEAN, integer, floating, DECIMAL, DATE, TIMESTAMP, STRING, BINARY, STRUCT, "
                + "ARRAY and MAP columns");
    }
}
