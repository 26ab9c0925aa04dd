package io.moraine.trino;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.moraine.core.scan.DataFileTask;
import io.moraine.core.scan.ScanTask;
import io.moraine.core.scan.ScanTaskCodec;
import io.trino.spi.SplitWeight;
import io.trino.spi.connector.ConnectorSplit;

import static io.airlift.slice.SizeOf.estimatedSizeOf;
import static io.airlift.slice.SizeOf.instanceSize;
import static io.airlift.slice.SizeOf.sizeOf;

/**
 * One task of the core's scan, shipped to a worker as the task's own compact encoding: a data file (or the row groups
 * starting in a byte range of one), or the table's inlined rows. Weighted by its share of a full split, as Hive's
 * connector does, so the scheduler queues proportionally more small splits per task.
 */
public final class MoraineSplit
        implements ConnectorSplit
{
    private static final int INSTANCE_SIZE = instanceSize(MoraineSplit.class);
    /** Hive's default minimum split weight ({@code hive.minimum-assigned-split-weight}). */
    private static final double MIN_WEIGHT = 0.05;

    private final byte[] task;
    private final double weight;

    @JsonCreator
    public MoraineSplit(@JsonProperty("task") byte[] task, @JsonProperty("weight") double weight)
    {
        this.task = task.clone();
        this.weight = weight;
    }

    static MoraineSplit of(ScanTask task, long maxSplitSize)
    {
        double weight = task instanceof DataFileTask file ? Math.clamp((double) file.splitLength() / maxSplitSize, MIN_WEIGHT, 1.0) : 1.0;
        return new MoraineSplit(ScanTaskCodec.encode(task), weight);
    }

    @JsonProperty
    public byte[] getTask()
    {
        return task.clone();
    }

    @JsonProperty
    public double getWeight()
    {
        return weight;
    }

    /** The core task this split reads. */
    public ScanTask task()
    {
        return ScanTaskCodec.decode(task);
    }

    @Override
    public SplitWeight getSplitWeight()
    {
        return SplitWeight.fromProportion(weight);
    }

    @Override
    public long getRetainedSizeInBytes()
    {
        return INSTANCE_SIZE + sizeOf(task) + estimatedSizeOf("");
    }
}
