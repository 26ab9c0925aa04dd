package io.moraine.core.write.files;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.PartitionSpec;
import io.moraine.core.catalog.TableDefinition;
import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.store.StoreFacts;
import io.moraine.core.types.TableSchema;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.schema.MessageType;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.function.Function;
import java.util.function.LongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * How DuckLake 1.5.5 lays out the data files of one table (reference writes §3): where a new file goes
 * ({@code <table path>/[key=value/...]ducklake-<uuidv7>.parquet}, hive directories for a partitioned table unless
 * {@code hive_file_pattern} is false or the lake is encrypted), its Parquet schema with field ids, and the writer
 * settings from the table's options. Engines ask it for a {@link DataFileTarget} per file they write.
 */
public final class DataFileLayout
{
    private final String tablePath;
    private final TableSchema columns;
    private final Optional<PartitionSpec> partitionSpec;
    private final boolean hiveDirectories;
    private final DataFileWriterSettings settings;

    /**
     * @param tablePath the table's resolved path (data path, schema path, table path), ending in {@code /}
     * @param hiveDirectories whether partitioned files go under {@code key=value/} directories
     */
    public DataFileLayout(String tablePath, TableSchema columns, Optional<PartitionSpec> partitionSpec, boolean hiveDirectories,
            DataFileWriterSettings settings)
    {
        requireNonNull(tablePath, "tablePath is null");
        this.tablePath = tablePath.endsWith("/") ? tablePath : tablePath + "/";
        this.columns = requireNonNull(columns, "columns is null");
        this.partitionSpec = requireNonNull(partitionSpec, "partitionSpec is null").filter(spec -> !spec.keys().isEmpty());
        this.hiveDirectories = hiveDirectories;
        this.settings = requireNonNull(settings, "settings is null");
    }

    /** The layout of {@code table} at {@code snapshot}: its path under the lake's data path, its options, whether the lake is encrypted. */
    public static DataFileLayout of(CatalogSnapshot snapshot, TableDefinition table)
    {
        String dataPath = snapshot.facts().get(StoreFacts.DATA_PATH);
        if (dataPath == null) {
            throw new InvalidArgumentException("catalog has no data_path; DuckLake writes data files under the lake's data path, so set one "
                    + "before writing table " + table.table().qualifiedName());
        }
        long schemaId = table.table().schema().id();
        long tableId = table.table().id();
        boolean encrypted = "true".equalsIgnoreCase(snapshot.facts().get(StoreFacts.ENCRYPTED));
        return of(table.table().resolvedPath(dataPath), table, encrypted, key -> snapshot.option(key, schemaId, tableId));
    }

    /** The layout of {@code table} under {@code tablePath}, with its options (table, then schema, then global scope) from {@code option}. */
    public static DataFileLayout of(String tablePath, TableDefinition table, boolean encrypted, Function<String, Optional<String>> option)
    {
        String name = table.table().qualifiedName();
        // DuckLake: UseHiveFilePattern(!is_encrypted, hive_file_pattern), true by default.
        boolean hive = !encrypted && option.apply("hive_file_pattern").map(value -> parseBoolean(name, "hive_file_pattern", value)).orElse(true);
        boolean partitioned = table.partitionSpec().filter(spec -> !spec.keys().isEmpty()).isPresent();
        DataFileWriterSettings settings = new DataFileWriterSettings(
                option.apply("parquet_compression").map(value -> compression(name, value)).orElse(CompressionCodecName.SNAPPY),
                option.apply("parquet_compression_level").map(value -> OptionalInt.of(Math.toIntExact(parseLong(name, "parquet_compression_level", value))))
                        .orElse(OptionalInt.empty()),
                option.apply("parquet_row_group_size").map(value -> parseLong(name, "parquet_row_group_size", value))
                        .orElse(DataFileWriterSettings.DEFAULT_ROW_GROUP_ROWS),
                option.apply("parquet_row_group_size_bytes").map(value -> OptionalLong.of(parseSize(name, "parquet_row_group_size_bytes", value)))
                        .orElse(OptionalLong.empty()),
                option.apply("parquet_version").map(value -> Math.toIntExact(parseLong(name, "parquet_version", value))),
                option.apply("target_file_size").map(value -> parseSize(name, "target_file_size", value)).orElse(DataFileWriterSettings.DEFAULT_TARGET_FILE_SIZE),
                !partitioned);
        return new DataFileLayout(tablePath, table.columns(), table.partitionSpec(), hive, settings);
    }

    public String tablePath()
    {
        return tablePath;
    }

    public TableSchema columns()
    {
        return columns;
    }

    /** The partition spec files are written under, empty for an unpartitioned table. */
    public Optional<PartitionSpec> partitionSpec()
    {
        return partitionSpec;
    }

    /** Whether partitioned files go under {@code key=value/} directories (engines shipping the layout to workers pass it on). */
    public boolean hiveDirectories()
    {
        return hiveDirectories;
    }

    public DataFileWriterSettings settings()
    {
        return settings;
    }

    /** The Parquet schema of a data file; with {@code rowIds}, also the hidden row-id column (update outputs keep their rows' ids). */
    public MessageType schema(boolean rowIds)
    {
        return DataFileSchema.of(columns.columns(), rowIds);
    }

    /** The partition key values of a row, given its top-level column values by column id; empty when unpartitioned. */
    public List<String> partitionValues(LongFunction<Object> columnValue)
    {
        return partitionSpec.map(spec -> spec.valueTexts(columnValue)).orElse(List.of());
    }

    /** A new file of an unpartitioned table. */
    public DataFileTarget target()
    {
        return target(List.of(), false);
    }

    /**
     * A new file holding rows with partition key values {@code partitionValues} (as {@link #partitionValues} gives them;
     * empty for an unpartitioned table), with the hidden row-id column when {@code rowIds}.
     */
    public DataFileTarget target(List<String> partitionValues, boolean rowIds)
    {
        int keys = partitionSpec.map(spec -> spec.keys().size()).orElse(0);
        if (partitionValues.size() != keys) {
            throw new InvalidArgumentException("a data file of this table takes " + keys + " partition values (one per key of its "
                    + (keys == 0 ? "absent " : "") + "partition spec), not " + partitionValues.size() + "; compute them with partitionValues(row)");
        }
        String directory = hiveDirectories ? partitionSpec.map(spec -> spec.hiveDirectory(partitionValues)).orElse("") : "";
        String path = directory + DataFileNames.dataFileName();
        OptionalLong partitionId = partitionSpec.map(spec -> OptionalLong.of(spec.partitionId())).orElse(OptionalLong.empty());
        return new DataFileTarget(tablePath + path, path, true, partitionId, partitionValues, schema(rowIds), settings);
    }

    private static CompressionCodecName compression(String table, String value)
    {
        return switch (value.strip().toLowerCase(Locale.ROOT)) {
            case "uncompressed" -> CompressionCodecName.UNCOMPRESSED;
            case "snappy" -> CompressionCodecName.SNAPPY;
            case "gzip" -> CompressionCodecName.GZIP;
            case "zstd" -> CompressionCodecName.ZSTD;
            case "brotli" -> CompressionCodecName.BROTLI;
            case "lz4" -> CompressionCodecName.LZ4;
            case "lz4_raw" -> CompressionCodecName.LZ4_RAW;
            default -> throw new InvalidArgumentException("table " + table + " has parquet_compression '" + value + "'; DuckLake writes "
                    + "uncompressed, snappy, gzip, zstd, brotli, lz4 or lz4_raw: set one of those");
        };
    }

    private static boolean parseBoolean(String table, String key, String value)
    {
        return switch (value.strip().toLowerCase(Locale.ROOT)) {
            case "true", "1" -> true;
            case "false", "0" -> false;
            default -> throw new InvalidArgumentException("table " + table + " has option " + key + " = '" + value + "'; it takes true or false");
        };
    }

    private static long parseLong(String table, String key, String value)
    {
        try {
            return Long.parseLong(value.strip());
        }
        catch (NumberFormatException e) {
            throw new InvalidArgumentException("table " + table + " has option " + key + " = '" + value + "'; it takes a whole number", e);
        }
    }

    /** A byte size as DuckDB parses one: a number with an optional unit (KB = 1000 bytes, KiB = 1024, ... up to TB and TiB). */
    static long parseSize(String table, String key, String value)
    {
        return ByteSizes.parse(value).orElseThrow(() -> new InvalidArgumentException("table " + table + " has option " + key + " = '" + value
                + "'; it takes a byte size such as 536870912, 512MiB or 100MB"));
    }
}
