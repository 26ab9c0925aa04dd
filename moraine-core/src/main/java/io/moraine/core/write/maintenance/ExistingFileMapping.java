package io.moraine.core.write.maintenance;

import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.error.NotFoundException;
import io.moraine.core.error.StoreException;
import io.moraine.core.error.UnsupportedFeatureException;
import io.moraine.core.io.LakeFileSystem;
import io.moraine.core.io.ParquetReaders;
import io.moraine.core.types.DuckLakeType;
import io.moraine.core.types.TableColumn;
import io.moraine.core.write.files.FileColumnStatistics;
import io.moraine.core.write.MappedDataFile;
import io.moraine.core.write.NameMapEntry;
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
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One existing Parquet file mapped onto a table by column name, as DuckLake 1.5.5's {@code ducklake_add_data_files}
 * maps it ({@code DuckLakeFileProcessor}): each top-level file column is matched to the table's column of that name
 * (case-insensitive), struct fields likewise, each type checked ({@link ParquetTypeCheck}); a file column the table
 * lacks fails unless {@code ignore_extra_columns}, a table column the file lacks fails unless {@code allow_missing}.
 * The file's size, footer size and rows, and the statistics of its mapped columns, come from its own footer.
 */
final class ExistingFileMapping
{
    private final String table;
    private final List<TableColumn> columns;
    private final AddFilesOptions options;
    private final String path;
    /** Parquet leaf path → the table leaf column it holds, for the statistics. */
    private final Map<List<String>, TableColumn> leaves = new HashMap<>();

    private ExistingFileMapping(String table, List<TableColumn> columns, AddFilesOptions options, String path)
    {
        this.table = table;
        this.columns = columns;
        this.options = options;
        this.path = path;
    }

    /** The file mapped onto the table; empty when it holds no row (DuckLake adds no such file). */
    static Optional<MappedDataFile> map(LakeFileSystem files, String path, String table, List<TableColumn> columns, AddFilesOptions options)
    {
        ExistingFileMapping mapping = new ExistingFileMapping(table, columns, options, path);
        mapping.refuseHivePartitions();
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
            throw new NotFoundException("file \"" + path + "\" to add to table \"" + table + "\" does not exist; check the path", e);
        }
        catch (IOException | RuntimeException e) {
            if (e instanceof io.moraine.core.error.MoraineException moraine) {
                throw moraine;
            }
            throw new StoreException("reading the Parquet footer of \"" + path + "\" to add to table \"" + table + "\" failed: " + e.getMessage()
                    + "; check that it is a complete Parquet file", e);
        }
        List<NameMapEntry> nameMap = mapping.mapColumns(footer.getFileMetaData().getSchema().getFields(), columns, "", List.of());
        long rows = footer.getBlocks().stream().mapToLong(BlockMetaData::getRowCount).sum();
        if (rows == 0) {
            return Optional.empty();
        }
        // DuckLake reads these from parquet_metadata(), which reports no NaN: contains_nan stays NULL.
        var statistics = ParquetFileStatistics.fromFooter(footer, chunk -> mapping.leaves.get(Arrays.asList(chunk.getPath().toArray()))).stream()
                .map(column -> new FileColumnStatistics(column.columnId(), column.columnSizeBytes(), column.valueCount(), column.nullCount(),
                        column.minValue(), column.maxValue(), null, column.extraStats()))
                .toList();
        return Optional.of(new MappedDataFile(new WrittenDataFile(path, size, footerSize, rows, statistics, List.of()), nameMap));
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
            entries.add(mapColumn(fileColumn, target, prefix, parquetPath));
        }
        if (!unmatched.isEmpty() && !options.allowMissing()) {
            TableColumn missing = unmatched.values().iterator().next();
            throw new InvalidArgumentException("Column \"" + prefix + missing.name() + "\" exists in table \"" + table + "\" but was not found in file \""
                    + path + "\"; set allowMissing (allow_missing => true) to allow missing fields and columns");
        }
        return entries;
    }

    private NameMapEntry mapColumn(Type fileColumn, TableColumn target, String prefix, List<String> parquetPath)
    {
        String columnPath = prefix + fileColumn.getName();
        ParquetTypeCheck.check(fileColumn, target.type(), columnPath, path, table);
        List<String> leafPath = new ArrayList<>(parquetPath);
        leafPath.add(fileColumn.getName());
        List<NameMapEntry> children = switch (target.type()) {
            case DuckLakeType.StructOf struct -> mapColumns(((GroupType) fileColumn).getFields(), struct.fields(), columnPath + ".", leafPath);
            case DuckLakeType.ListOf ignored -> throw nested(columnPath, "LIST");
            case DuckLakeType.MapOf ignored -> throw nested(columnPath, "MAP");
            default -> {
                leaves.put(List.copyOf(leafPath), target.withType(ParquetTypeCheck.sourceType(fileColumn, target.type())));
                yield List.of();
            }
        };
        return new NameMapEntry(fileColumn.getName(), target.columnId(), children);
    }

    private UnsupportedFeatureException nested(String columnPath, String kind)
    {
        return new UnsupportedFeatureException("column \"" + columnPath + "\" of table \"" + table + "\" is a " + kind + "; the core adds files with "
                + "scalar and STRUCT columns only so far — add \"" + path + "\" through DuckDB's ducklake_add_data_files");
    }

    /** DuckLake reads key=value directories of the path as hive partition values of the columns they name; the core does not yet. */
    private void refuseHivePartitions()
    {
        String[] segments = path.split("/");
        for (int i = 0; i < segments.length - 1; i++) {
            int equals = segments[i].indexOf('=');
            if (equals > 0) {
                String key = segments[i].substring(0, equals).toLowerCase(Locale.ROOT);
                if (columns.stream().anyMatch(column -> column.name().toLowerCase(Locale.ROOT).equals(key))) {
                    throw new UnsupportedFeatureException("file \"" + path + "\" lies in hive partition directory \"" + segments[i]
                            + "\", which DuckLake reads as a value of column " + key + "; the core does not map hive partitions yet — add it through "
                            + "DuckDB's ducklake_add_data_files");
                }
            }
        }
    }
}
