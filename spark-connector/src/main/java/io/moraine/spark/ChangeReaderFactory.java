package io.moraine.spark;

import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.execution.datasources.v2.parquet.ParquetPartitionReaderFactory;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.apache.spark.util.SerializableConfiguration;

import java.util.HashMap;
import java.util.List;

/** Makes the columnar readers of a change feed's partitions on executors. */
final class ChangeReaderFactory
        extends ColumnarReaderFactory
{
    /** The table, {@code schema.table}, for errors about its files. */
    private final String table;
    private final List<ReadColumn> columns;
    private final ParquetPartitionReaderFactory withPositions;
    private final Broadcast<SerializableConfiguration> hadoop;
    /** Each snapshot of the range's time, in micros since the epoch. */
    private final HashMap<Long, Long> commitTimes;

    ChangeReaderFactory(String table, List<ReadColumn> columns, ParquetPartitionReaderFactory withPositions, Broadcast<SerializableConfiguration> hadoop,
            HashMap<Long, Long> commitTimes)
    {
        this.table = table;
        this.columns = List.copyOf(columns);
        this.withPositions = withPositions;
        this.hadoop = hadoop;
        this.commitTimes = commitTimes;
    }

    @Override
    public PartitionReader<ColumnarBatch> createColumnarReader(InputPartition partition)
    {
        return switch (partition) {
            case ChangeFilePartition file -> ChangeFileBatchReader.open(file, table, columns, withPositions, hadoop.value().value(), commitTimes);
            case InlinedRowsPartition inlined -> new InlinedBatchReader(inlined);
            default -> throw new IllegalArgumentException("not a moraine change-feed partition: " + partition);
        };
    }
}
