package io.moraine.spark;

import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.apache.spark.util.SerializableConfiguration;

import org.apache.spark.sql.sources.Filter;

import java.util.HashMap;
import java.util.List;

/**
 * Makes the columnar readers of a scan's partitions on executors: Spark's Parquet reader for data files (one for the
 * data columns alone, each made per file with the row-group filters of that file's column names, one that also reads DuckLake's hidden columns and row positions, used for files with deletes or
 * newer rows and when metadata columns are asked for), and Arrow batches for inlined rows.
 */
final class MoraineReaderFactory
        extends ColumnarReaderFactory
{
    /** The table, {@code schema.table}, for errors about its files. */
    private final String table;
    private final List<ReadColumn> columns;
    private final List<MetadataColumns.Kind> metadata;
    private final SparkParquetReaders.Template dataOnly;
    private final SparkParquetReaders.Template withPositions;
    private final Broadcast<SerializableConfiguration> hadoop;
    /** The scan's column domains that row groups are pruned by, per file (see {@link RowGroupFilters}). */
    private final HashMap<Long, Filter> rowGroupFilters;

    MoraineReaderFactory(String table, List<ReadColumn> columns, List<MetadataColumns.Kind> metadata, SparkParquetReaders.Template dataOnly,
            SparkParquetReaders.Template withPositions, Broadcast<SerializableConfiguration> hadoop, HashMap<Long, Filter> rowGroupFilters)
    {
        this.table = table;
        this.columns = List.copyOf(columns);
        this.metadata = List.copyOf(metadata);
        this.dataOnly = dataOnly;
        this.withPositions = withPositions;
        this.hadoop = hadoop;
        this.rowGroupFilters = rowGroupFilters;
    }

    @Override
    public PartitionReader<ColumnarBatch> createColumnarReader(InputPartition partition)
    {
        return switch (partition) {
            case DataFilePartition file -> open(file);
            case DataFileGroupPartition group -> new DataFileGroupReader(group, this::open);
            case InlinedPiecePartition inlined -> new InlinedPieceBatchReader(inlined);
            default -> throw new IllegalArgumentException("not a moraine partition: " + partition);
        };
    }

    private DataFileBatchReader open(DataFilePartition file)
    {
        return DataFileBatchReader.open(file, table, columns, metadata, dataOnly, withPositions, hadoop.value().value(), rowGroupFilters);
    }
}
