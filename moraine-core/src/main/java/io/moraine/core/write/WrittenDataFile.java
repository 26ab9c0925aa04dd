package io.moraine.core.write;

import java.util.List;

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
}
