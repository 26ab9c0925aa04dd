package io.moraine.trino;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.moraine.core.catalog.PartitionSpec;
import io.moraine.core.catalog.PartitionTransform;
import io.moraine.core.types.DuckLakeType;
import io.moraine.core.types.TableColumn;
import io.moraine.core.types.TableSchema;
import io.moraine.core.write.files.DataFileLayout;
import io.moraine.core.write.files.DataFileWriterSettings;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * The core's {@link DataFileLayout} of one table as JSON, so that workers write files where and how the coordinator's
 * write transaction said, even for a table that exists only in that transaction (CREATE TABLE AS). A plain copy of
 * the layout's parts; every rule stays in the core.
 *
 * @param physicalTablePath where the table's files are written: {@code tablePath}, or under {@code moraine.data-path} when set
 */
public record WriteLayout(String tablePath, String physicalTablePath, List<Column> columns, Optional<Partitioning> partitioning, boolean hiveDirectories,
        Settings settings)
{
    @JsonCreator
    public WriteLayout(@JsonProperty("tablePath") String tablePath, @JsonProperty("physicalTablePath") String physicalTablePath,
            @JsonProperty("columns") List<Column> columns, @JsonProperty("partitioning") Optional<Partitioning> partitioning,
            @JsonProperty("hiveDirectories") boolean hiveDirectories, @JsonProperty("settings") Settings settings)
    {
        this.tablePath = tablePath;
        this.physicalTablePath = physicalTablePath;
        this.columns = List.copyOf(columns);
        this.partitioning = partitioning;
        this.hiveDirectories = hiveDirectories;
        this.settings = settings;
    }

    public record Column(@JsonProperty("columnId") long columnId, @JsonProperty("name") String name, @JsonProperty("type") String type,
            @JsonProperty("nullable") boolean nullable, @JsonProperty("children") List<Column> children)
    {
        @JsonCreator
        public Column {}
    }

    public record Key(@JsonProperty("index") int index, @JsonProperty("columnId") long columnId, @JsonProperty("columnType") String columnType,
            @JsonProperty("transform") String transform, @JsonProperty("hiveName") String hiveName)
    {
        @JsonCreator
        public Key {}
    }

    public record Partitioning(@JsonProperty("partitionId") long partitionId, @JsonProperty("keys") List<Key> keys)
    {
        @JsonCreator
        public Partitioning {}
    }

    public record Settings(@JsonProperty("compression") String compression, @JsonProperty("compressionLevel") Optional<Integer> compressionLevel,
            @JsonProperty("rowGroupRows") long rowGroupRows, @JsonProperty("rowGroupBytes") Optional<Long> rowGroupBytes,
            @JsonProperty("parquetVersion") Optional<Integer> parquetVersion, @JsonProperty("targetFileSizeBytes") long targetFileSizeBytes,
            @JsonProperty("rollOver") boolean rollOver)
    {
        @JsonCreator
        public Settings {}
    }

    /** {@code layout}, its files written under {@code dataPathOverride} instead of {@code catalogDataPath} when set. */
    static WriteLayout of(DataFileLayout layout, String catalogDataPath, Optional<String> dataPathOverride)
    {
        String physical = layout.tablePath();
        if (dataPathOverride.isPresent() && catalogDataPath != null && physical.startsWith(catalogDataPath)) {
            String root = dataPathOverride.get().endsWith("/") ? dataPathOverride.get() : dataPathOverride.get() + "/";
            String rest = physical.substring(catalogDataPath.length());
            physical = root + (rest.startsWith("/") ? rest.substring(1) : rest);
        }
        DataFileWriterSettings settings = layout.settings();
        return new WriteLayout(layout.tablePath(), physical, layout.columns().columns().stream().map(WriteLayout::column).toList(),
                layout.partitionSpec().map(spec -> new Partitioning(spec.partitionId(), spec.keys().stream()
                        .map(key -> new Key(key.index(), key.columnId(), key.columnType(), key.transform().text(), key.hiveName())).toList())),
                layout.hiveDirectories(),
                new Settings(settings.compression().name(), settings.compressionLevel().isPresent() ? Optional.of(settings.compressionLevel().getAsInt()) : Optional.empty(),
                        settings.rowGroupRows(), settings.rowGroupBytes().isPresent() ? Optional.of(settings.rowGroupBytes().getAsLong()) : Optional.empty(),
                        settings.parquetVersion(), settings.targetFileSizeBytes(), settings.rollOver()));
    }

    /** The core's layout again, on a worker. */
    DataFileLayout toLayout()
    {
        TableSchema schema = new TableSchema(columns.stream().map(WriteLayout::tableColumn).toList());
        Optional<PartitionSpec> spec = partitioning.map(value -> new PartitionSpec(value.partitionId(), value.keys().stream()
                .map(key -> new PartitionSpec.Key(key.index(), key.columnId(), key.columnType(), PartitionTransform.parse(key.transform()), key.hiveName()))
                .toList()));
        DataFileWriterSettings writerSettings = new DataFileWriterSettings(CompressionCodecName.valueOf(settings.compression()),
                settings.compressionLevel().map(OptionalInt::of).orElse(OptionalInt.empty()), settings.rowGroupRows(),
                settings.rowGroupBytes().map(OptionalLong::of).orElse(OptionalLong.empty()), settings.parquetVersion(), settings.targetFileSizeBytes(),
                settings.rollOver());
        return new DataFileLayout(tablePath, schema, spec, hiveDirectories, writerSettings);
    }

    /** Where a file the core placed at {@code location} is written. */
    String physicalLocation(String location)
    {
        return location.startsWith(tablePath) ? physicalTablePath + location.substring(tablePath.length()) : location;
    }

    private static Column column(TableColumn column)
    {
        return new Column(column.columnId(), column.name(), column.type().duckLakeName(), column.nullable(),
                column.children().stream().map(WriteLayout::column).toList());
    }

    private static TableColumn tableColumn(Column column)
    {
        List<TableColumn> children = column.children().stream().map(WriteLayout::tableColumn).toList();
        return new TableColumn(column.columnId(), column.name(), DuckLakeType.parse(column.name(), column.type(), children), Optional.empty(),
                column.nullable());
    }
}
