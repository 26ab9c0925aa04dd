package io.moraine.spark;

import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.StructType;

import java.util.HashMap;

/** A columnar batch scan of a change feed, planned once on the driver when Spark first asks for it. */
abstract class ChangeFeedScan
        implements Scan, Batch
{
    private final StructType schema;
    private final String description;
    private ChangeFeedSource.PlannedFeed planned;

    ChangeFeedScan(StructType schema, String description)
    {
        this.schema = schema;
        this.description = description;
    }

    /** Plans the feed's input partitions. */
    abstract ChangeFeedSource.PlannedFeed plan();

    /** The readers' factory, shipped to executors with the range's commit times. */
    abstract PartitionReaderFactory readerFactory(SparkSession session, HashMap<Long, Long> commitTimes);

    @Override
    public final StructType readSchema()
    {
        return schema;
    }

    @Override
    public final String description()
    {
        return description;
    }

    @Override
    public final ColumnarSupportMode columnarSupportMode()
    {
        return ColumnarSupportMode.SUPPORTED;
    }

    @Override
    public final Batch toBatch()
    {
        return this;
    }

    @Override
    public final synchronized InputPartition[] planInputPartitions()
    {
        return planned().partitions().toArray(InputPartition[]::new);
    }

    @Override
    public final synchronized PartitionReaderFactory createReaderFactory()
    {
        return readerFactory(SparkSession.active(), new HashMap<>(planned().commitTimes()));
    }

    private ChangeFeedSource.PlannedFeed planned()
    {
        if (planned == null) {
            planned = plan();
        }
        return planned;
    }
}
