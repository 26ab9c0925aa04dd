package io.moraine.spark;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;

/** A reader factory whose partitions are read only as columnar batches, as every moraine read is. */
abstract class ColumnarReaderFactory
        implements PartitionReaderFactory
{
    @Override
    public final PartitionReader<InternalRow> createReader(InputPartition partition)
    {
        throw new UnsupportedOperationException("moraine reads are columnar");
    }

    @Override
    public final boolean supportColumnarReads(InputPartition partition)
    {
        return true;
    }
}
