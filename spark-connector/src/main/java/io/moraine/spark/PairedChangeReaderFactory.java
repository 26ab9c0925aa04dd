package io.moraine.spark;

import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.execution.datasources.v2.parquet.ParquetPartitionReaderFactory;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.apache.spark.util.SerializableConfiguration;

import java.util.HashMap;
import java.util.List;

/** Makes the readers of a readChangeFeed scan's change groups on executors. */
final class PairedChangeReaderFactory
        extends ColumnarReaderFactory
{
    private final String table;
    /** The table, {@code schema.table}, for errors about its files. */
    private final String lakeName;
    private final List<ReadColumn> columns;
    private final ParquetPartitionReaderFactory withColumns;
    private final ParquetPartitionReaderFactory keysOnly;
    private final Broadcast<SerializableConfiguration> hadoop;
    /** Each snapshot of the range's time, in micros since the epoch. */
    private final HashMap<Long, Long> commitTimes;

    PairedChangeReaderFactory(String table, String lakeName, List<ReadColumn> columns, ParquetPartitionReaderFactory withColumns, ParquetPartitionReaderFactory keysOnly,
            Broadcast<SerializableConfiguration> hadoop, HashMap<Long, Long> commitTimes)
    {
        this.table = table;
        this.lakeName = lakeName;
        this.columns = List.copyOf(columns);
        this.withColumns = withColumns;
        this.keysOnly = keysOnly;
        this.hadoop = hadoop;
        this.commitTimes = commitTimes;
    }

    @Override
    public PartitionReader<ColumnarBatch> createColumnarReader(InputPartition partition)
    {
        if (!(partition instanceof ChangeGroupPartition group)) {
            throw new IllegalArgumentException("not a moraine change group: " + partition);
        }
        return new PairedChangeReader(table, group, columns.size(), (part, withTableColumns) -> switch (part) {
            case ChangeFilePartition file -> withTableColumns
                    ? ChangeFileBatchReader.open(file, lakeName, columns, withColumns, hadoop.value().value(), commitTimes)
                    : ChangeFileBatchReader.open(file, lakeName, List.of(), keysOnly, hadoop.value().value(), commitTimes);
            case InlinedRowsPartition inlined -> new InlinedBatchReader(inlined);
            default -> throw new IllegalArgumentException("not a part of a moraine change group: " + part);
        });
    }
}
