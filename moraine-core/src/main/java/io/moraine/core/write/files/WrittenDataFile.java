package io.moraine.core.write.files;

import io.moraine.core.error.StoreException;
import io.moraine.core.io.LakeFileSystem;
import io.moraine.core.io.ParquetReaders;
import io.moraine.core.types.TableColumn;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.io.InputFile;

import java.io.IOException;
import java.util.List;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * A Parquet data file an engine wrote where {@link DataFileTarget} told it to, handed back with what its writer
 * measured: the core turns it into DuckLake's {@code ducklake_data_file}, {@code ducklake_file_column_stats} and
 * {@code ducklake_file_partition_value} rows at commit.
 *
 * @param path the target's path, as {@link DataFileTarget#path()} gave it
 * @param fileSizeBytes bytes written
 * @param footerSize length of the Parquet footer (the thrift file metadata), never 0
 * @param recordCount rows in the file
 * @param columnStatistics one entry per leaf column (field id = column id), see {@link ParquetFileStatistics}
 * @param partitionValues the partition key values as DuckLake writes them ({@code Value::ToString()}), in key order;
 *         empty for an unpartitioned table
 */
public record WrittenDataFile(String path, long fileSizeBytes, long footerSize, long recordCount, List<FileColumnStatistics> columnStatistics,
        List<String> partitionValues)
{
    public WrittenDataFile
    {
        requireNonNull(path, "path is null");
        columnStatistics = List.copyOf(columnStatistics);
        partitionValues = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(partitionValues));
    }

    /**
     * The file an engine wrote at {@code target}, measured from its own footer (one ranged read): size, footer size,
     * rows and DuckDB's statistics of every leaf column of {@code columns}. For writers that do not hand their footer back.
     */
    public static WrittenDataFile measure(LakeFileSystem files, DataFileTarget target, List<TableColumn> columns)
    {
        InputFile input = files.newInputFile(target.location(), OptionalLong.empty());
        try (ParquetFileReader reader = ParquetReaders.open(input)) {
            long rows = reader.getFooter().getBlocks().stream().mapToLong(BlockMetaData::getRowCount).sum();
            return new WrittenDataFile(target.location(), input.getLength(), ParquetFooters.footerSize(input), rows,
                    ParquetFileStatistics.fromFooter(reader.getFooter(), columns), target.partitionValues());
        }
        catch (IOException e) {
            throw new StoreException("reading the footer of written data file " + target.location() + " failed: " + e.getMessage()
                    + "; check that the file was written completely, then add it again", e);
        }
    }
}
