package io.moraine.core.write.maintenance;

import io.moraine.core.catalog.PartitionSpec;
import io.moraine.core.catalog.PartitionTransform;
import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.error.StoreException;
import io.moraine.core.error.UnsupportedFeatureException;
import io.moraine.core.io.LakeFileSystem;
import io.moraine.core.io.ParquetReaders;
import io.moraine.core.types.DuckLakeType;
import io.moraine.core.types.PrimitiveKind;
import io.moraine.core.types.TableColumn;
import io.moraine.core.write.MappedDataFile;
import io.moraine.core.catalog.NameMapEntry;
import io.moraine.core.write.files.FileColumnStatistics;
import io.moraine.core.write.files.ParquetFileStatistics;
import io.moraine.core.write.files.ParquetFooters;
import io.moraine.core.write.files.WrittenDataFile;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.Type;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * One existing Parquet file mapped onto a table by column name, as DuckLake 1.5.5's {@code ducklake_add_data_files}
 * maps it ({@code DuckLakeFileProcessor}): each top-level file column is matched to the table's column of that name
 * (case-insensitive), struct fields, a list's element and a map's key and value likewise, each type checked
 * ({@link ParquetTypeCheck}); a file column the table lacks fails unless {@code ignore_extra_columns}, a table column
 * the file lacks fails unless {@code allow_missing} or a hive directory of the path names it.
 * <p>
 * Hive directories ({@link HivePartitions}, unless {@code hive_partitioning} is off): a directory {@code c=v} naming a
 * column ({@code c} exactly as the file or the table spells it) gives that column its value for every row, whether or
 * not the file holds it (a name-map entry with {@code is_partition}, statistics {@code v..v}); on a partitioned table a
 * directory named as DuckDB names a transform's key ({@code year}, {@code month}, {@code day}, {@code hour},
 * {@code bucket}; {@code <transform>_<column>} for a second one) gives that key's value. A partitioned table's file must
 * give one value per key, each of a partition column, else it is refused as DuckLake refuses it; its values are stored
 * under the key index DuckLake 1.5.5 gives them, the last key of their column.
 * The file's size, footer size and rows, and the statistics of its mapped columns, come from its own footer.
 */
final class ExistingFileMapping
{
    private final String table;
    private final List<TableColumn> columns;
    private final Optional<PartitionSpec> partitionSpec;
    private final AddFilesOptions options;
    private final String path;
    private final Map<String, String> hive;
    /** Parquet leaf path → the table leaf column it holds, for the statistics. */
    private final Map<List<String>, TableColumn> leaves = new HashMap<>();
    /** The values hive directories give, in the order DuckLake finds them: transform keys first, then columns. */
    private final List<HiveValue> hiveValues = new ArrayList<>();

    private record HiveValue(long columnId, String text, PartitionTransform.Kind transform) {}

    private ExistingFileMapping(String table, List<TableColumn> columns, Optional<PartitionSpec> partitionSpec, AddFilesOptions options, String path)
    {
        this.table = table;
        this.columns = columns;
        this.partitionSpec = partitionSpec;
        this.options = options;
        this.path = path;
        this.hive = options.hivePartitioning() ? HivePartitions.parse(path) : Map.of();
    }

    /** The file mapped onto the table; empty when it holds no row (DuckLake adds no such file). */
    static Optional<MappedDataFile> map(LakeFileSystem files, String path, String table, List<TableColumn> columns, Optional<PartitionSpec> partitionSpec,
            AddFilesOptions options)
    {
        ExistingFileMapping mapping = new ExistingFileMapping(table, columns, partitionSpec, options, path);
        InputFile input = files.newInputFile(path, OptionalLong.empty());
        ParquetMetadata footer;
        long size;
        long footerSize;
        try (ParquetFileReader reader = ParquetReaders.open(input)) {
            footer = reader.getFooter();
            size = input.getLength();
            footerSize = ParquetFooters.footerSize(input);
        }
        catch (FileNotFoundException | NoSuchFileException e) {
            throw FileGlob.noMatch(path, e);
        }
        catch (IOException | RuntimeException e) {
            if (e instanceof io.moraine.core.error.MoraineException moraine) {
                throw moraine;
            }
            throw new StoreException("reading the Parquet footer of \"" + path + "\" to add to table \"" + table + "\" failed: " + e.getMessage()
                    + "; check that it is a complete Parquet file", e);
        }
        mapping.mapTransformKeys();
        List<NameMapEntry> nameMap = mapping.mapColumns(footer.getFileMetaData().getSchema().getFields(), columns, "", List.of());
        long rows = footer.getBlocks().stream().mapToLong(BlockMetaData::getRowCount).sum();
        // DuckLake reads these from parquet_metadata(), which reports no NaN: contains_nan stays NULL.
        List<FileColumnStatistics> statistics = new ArrayList<>(ParquetFileStatistics.fromFooter(footer, chunk -> mapping.leaves.get(Arrays.asList(chunk.getPath().toArray())))
                .stream()
                .map(column -> new FileColumnStatistics(column.columnId(), column.columnSizeBytes(), column.valueCount(), column.nullCount(),
                        column.minValue(), column.maxValue(), null, column.extraStats()))
                .toList());
        Set<Long> keyTyped = mapping.addHiveStatistics(statistics, rows);
        List<Long> keyIndexes = new ArrayList<>();
        List<String> partitionValues = mapping.partitionValues(keyIndexes);
        if (rows == 0) {
            return Optional.empty();
        }
        return Optional.of(new MappedDataFile(new WrittenDataFile(path, size, footerSize, rows, statistics, partitionValues), nameMap, keyIndexes, keyTyped));
    }

    /** DuckLake's {@code MapPartitionColumns}: the values of the table's transform keys the path's directories give. */
    private void mapTransformKeys()
    {
        if (partitionSpec.isEmpty()) {
            return;
        }
        Set<String> used = new HashSet<>();
        for (PartitionSpec.Key key : partitionSpec.get().keys()) {
            PartitionTransform.Kind kind = key.transform().kind();
            Optional<TableColumn> column = columns.stream().filter(candidate -> candidate.columnId() == key.columnId()).findFirst();
            if (kind == PartitionTransform.Kind.IDENTITY || column.isEmpty()) {
                continue; // identity keys are mapped with the columns
            }
            // DuckLake 1.5.5's GetPartitionKeyName, with only the transform keys counted as used
            String prefix = kind.name().toLowerCase(Locale.ROOT);
            String name = used.contains(prefix) ? prefix + "_" + column.get().name() : prefix;
            used.add(name.toLowerCase(Locale.ROOT));
            String raw = hive.get(name);
            if (raw == null) {
                continue;
            }
            DuckLakeType keyType = new DuckLakeType.Primitive(kind == PartitionTransform.Kind.BUCKET ? PrimitiveKind.INT32 : PrimitiveKind.INT64);
            hiveValues.add(new HiveValue(key.columnId(), HivePartitions.valueText(name, raw, keyType, path), kind));
        }
    }

    private List<NameMapEntry> mapColumns(List<Type> fileColumns, List<TableColumn> tableColumns, String prefix, List<String> parquetPath)
    {
        Map<String, TableColumn> unmatched = new LinkedHashMap<>();
        tableColumns.forEach(column -> unmatched.put(column.name().toLowerCase(Locale.ROOT), column));
        List<NameMapEntry> entries = new ArrayList<>();
        for (Type fileColumn : fileColumns) {
            TableColumn target = unmatched.remove(fileColumn.getName().toLowerCase(Locale.ROOT));
            if (target == null) {
                if (options.ignoreExtraColumns()) {
                    continue;
                }
                throw new InvalidArgumentException("Column \"" + prefix + fileColumn.getName() + "\" exists in file \"" + path
                        + "\" but was not found in table \"" + table + "\"; set ignoreExtraColumns (ignore_extra_columns => true) to add the file anyway");
            }
            String hiveValue = hive.get(fileColumn.getName());
            entries.add(hiveValue != null
                    ? mapHiveColumn(target, fileColumn.getName(), hiveValue)
                    : mapColumn(fileColumn, fileColumn.getName(), target, prefix, append(parquetPath, fileColumn.getName())));
        }
        for (TableColumn missing : unmatched.values()) {
            String hiveValue = hive.get(missing.name());
            if (hiveValue != null) {
                entries.add(mapHiveColumn(missing, missing.name(), hiveValue));
                continue;
            }
            if (!options.allowMissing()) {
                throw new InvalidArgumentException("Column \"" + prefix + missing.name() + "\" exists in table \"" + table + "\" but was not found in file \""
                        + path + "\"; set allowMissing (allow_missing => true) to allow missing fields and columns");
            }
        }
        return entries;
    }

    /**
     * {@code fileColumn} (at {@code leafPath} in the file) mapped as {@code sourceName} onto {@code target}: a list's
     * element is mapped as {@code list} through Parquet's repeated group (or directly, in the legacy {@code array}
     * layout), a map's key and value by name through its repeated {@code key_value} group.
     */
    private NameMapEntry mapColumn(Type fileColumn, String sourceName, TableColumn target, String prefix, List<String> leafPath)
    {
        String columnPath = prefix + sourceName;
        ParquetTypeCheck.check(fileColumn, target.type(), columnPath, path, table);
        List<NameMapEntry> children = switch (target.type()) {
            case DuckLakeType.StructOf struct -> mapColumns(((GroupType) fileColumn).getFields(), struct.fields(), columnPath + ".", leafPath);
            case DuckLakeType.ListOf list -> {
                Type repeated = ((GroupType) fileColumn).getType(0);
                if (repeated.getName().equals("array")) {
                    yield List.of(mapColumn(repeated, "array", list.element(), columnPath + ".", append(leafPath, "array")));
                }
                if (repeated.isPrimitive()) {
                    throw new UnsupportedFeatureException("list column \"" + columnPath + "\" of file \"" + path + "\" has the two-level Parquet layout "
                            + "(a repeated " + repeated.getName() + " without an element group), which DuckLake does not map; rewrite the file with "
                            + "the standard three-level list layout (as DuckDB, Spark or Arrow write it)");
                }
                Type element = repeated.asGroupType().getType(0);
                yield List.of(mapColumn(element, "list", list.element(), columnPath + ".", append(append(leafPath, repeated.getName()), element.getName())));
            }
            case DuckLakeType.MapOf map -> {
                Type keyValue = ((GroupType) fileColumn).getType(0);
                if (keyValue.isPrimitive()) {
                    throw new UnsupportedFeatureException("map column \"" + columnPath + "\" of file \"" + path + "\" has no key_value group, which "
                            + "DuckLake does not map; rewrite the file with the standard Parquet map layout");
                }
                yield mapColumns(keyValue.asGroupType().getFields(), List.of(map.key(), map.value()), columnPath + ".", append(leafPath, keyValue.getName()));
            }
            default -> {
                leaves.put(List.copyOf(leafPath), target.withType(ParquetTypeCheck.sourceType(fileColumn, target.type())));
                yield List.of();
            }
        };
        return new NameMapEntry(sourceName, target.columnId(), children);
    }

    /** DuckLake's {@code MapHiveColumn}: the column's value is the directory {@code key=raw} of the path. */
    private NameMapEntry mapHiveColumn(TableColumn target, String key, String raw)
    {
        if (!target.children().isEmpty() || target.type() instanceof DuckLakeType.StructOf) {
            throw new InvalidArgumentException("Type \"" + HivePartitions.typeName(target.type()) + "\" is not supported for hive partitioning: "
                    + "directory " + key + "=" + raw + " of file \"" + path + "\" names nested column " + target.name()
                    + "; rename the directory, or add the file with hivePartitioning off (hive_partitioning => false)");
        }
        hiveValues.add(new HiveValue(target.columnId(), HivePartitions.valueText(key, raw, target.type(), path), PartitionTransform.Kind.IDENTITY));
        return NameMapEntry.hivePartition(target.name(), target.columnId());
    }

    /**
     * The statistics of the columns hive directories give, for columns without statistics from the file (bucket keys
     * give none): every row holds the directory's value (or NULL), so {@code v..v}, no size. A calendar key's value
     * (DuckLake 1.5.5 takes it too) is typed as the key, not the column: returns those columns.
     */
    private Set<Long> addHiveStatistics(List<FileColumnStatistics> statistics, long rows)
    {
        Set<Long> keyTyped = new HashSet<>();
        Set<Long> present = new HashSet<>();
        statistics.forEach(column -> present.add(column.columnId()));
        for (HiveValue value : hiveValues) {
            if (value.transform() == PartitionTransform.Kind.BUCKET || !present.add(value.columnId())) {
                continue;
            }
            long nulls = value.text() == null ? rows : 0;
            statistics.add(new FileColumnStatistics(value.columnId(), 0L, rows - nulls, nulls, value.text(), value.text(), null, null));
            if (value.transform() != PartitionTransform.Kind.IDENTITY) {
                keyTyped.add(value.columnId());
            }
        }
        statistics.sort(Comparator.comparingLong(FileColumnStatistics::columnId));
        return keyTyped;
    }

    /**
     * The file's partition values (DuckLake's {@code AddFileToTable}): on a partitioned table one per key, each of a
     * partition column, stored under the index of the column's last key ({@code keyIndexes}); none otherwise.
     */
    private List<String> partitionValues(List<Long> keyIndexes)
    {
        if (partitionSpec.isEmpty()) {
            return List.of();
        }
        List<PartitionSpec.Key> keys = partitionSpec.get().keys();
        Map<Long, Long> lastKeyOfColumn = new HashMap<>();
        keys.forEach(key -> lastKeyOfColumn.put(key.columnId(), (long) key.index()));
        if (hiveValues.size() != keys.size() || hiveValues.stream().anyMatch(value -> !lastKeyOfColumn.containsKey(value.columnId()))) {
            throw new InvalidArgumentException("File \"" + path + "\" contains an invalid partition value for the table configuration: table \"" + table
                    + "\" is partitioned by " + keys.stream().map(this::describe).toList() + ", so the file must lie in one hive "
                    + "directory per key (" + String.join("/", keys.stream().map(key -> hiveName(key) + "=<value>").toList())
                    + "/) and in none naming another column");
        }
        List<String> values = new ArrayList<>();
        for (HiveValue value : hiveValues) {
            values.add(value.text());
            keyIndexes.add(lastKeyOfColumn.get(value.columnId()));
        }
        return values;
    }

    private String hiveName(PartitionSpec.Key key)
    {
        if (key.transform().kind() == PartitionTransform.Kind.IDENTITY) {
            return columns.stream().filter(column -> column.columnId() == key.columnId()).map(TableColumn::name).findFirst().orElse(key.hiveName());
        }
        return key.hiveName();
    }

    private String describe(PartitionSpec.Key key)
    {
        String column = columns.stream().filter(candidate -> candidate.columnId() == key.columnId()).map(TableColumn::name).findFirst().orElse("?");
        return key.transform().kind() == PartitionTransform.Kind.IDENTITY ? column : key.transform().text() + "(" + column + ")";
    }

    private static List<String> append(List<String> path, String name)
    {
        List<String> appended = new ArrayList<>(path);
        appended.add(name);
        return appended;
    }
}
