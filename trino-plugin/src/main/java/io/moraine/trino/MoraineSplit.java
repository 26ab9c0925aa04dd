package io.moraine.trino;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.moraine.core.scan.DataFileTask;
import io.moraine.core.scan.ScanTask;
import io.moraine.core.scan.ScanTaskCodec;
import io.moraine.core.types.TableColumn;
import io.moraine.core.types.TableColumnCodec;
import io.trino.spi.SplitWeight;
import io.trino.spi.connector.ConnectorSplit;

import java.util.List;

import static io.airlift.slice.SizeOf.estimatedSizeOf;
import static io.airlift.slice.SizeOf.instanceSize;
import static io.airlift.slice.SizeOf.sizeOf;

/**
 * One task of the core's scan, shipped to a worker as the task's own compact encoding: a data file (or the row groups
 * starting in a byte range of one). Weighted by its share of a full split, as Hive's connector does, so the scheduler
 * queues proportionally more small splits per task. When the scan reads struct columns, the split also carries the
 * core's columns it reads (pruned to the fields it dereferences), by which the page source finds struct fields by id
 * without opening the catalog. A table's inlined rows come in {@link MoraineInlinedRowsSplit}s.
 */
public final class MoraineSplit
        implements ConnectorSplit
{
    private static final int INSTANCE_SIZE = instanceSize(MoraineSplit.class);
    /** Hive's default minimum split weight ({@code hive.minimum-assigned-split-weight}). */
    private static final double MIN_WEIGHT = 0.05;

    private final byte[] task;
    private final byte[] columns;
    private final double weight;

    /** @param columns the columns read, as {@link TableColumnCodec} encodes them, or empty when no read column holds a struct */
    @JsonCreator
    public MoraineSplit(@JsonProperty("task") byte[] task, @JsonProperty("columns") byte[] columns, @JsonProperty("weight") double weight)
    {
        this.task = task.clone();
        this.columns = columns;
        this.weight = weight;
    }

    /** @param columns the encoded columns the scan reads (shared by its splits, not copied), or an empty array */
    static MoraineSplit of(ScanTask task, long maxSplitSize, byte[] columns)
    {
        double weight = task instanceof DataFileTask file ? Math.clamp((double) file.splitLength() / maxSplitSize, MIN_WEIGHT, 1.0) : 1.0;
        return new MoraineSplit(ScanTaskCodec.encode(task), columns, weight);
    }

    @JsonProperty
    public byte[] getTask()
    {
        return task.clone();
    }

    @JsonProperty
    public byte[] getColumns()
    {
        return columns;
    }

    @JsonProperty
    public double getWeight()
    {
        return weight;
    }

    /** The core's columns the scan reads, found by column id; empty when none of them holds a struct. */
    public List<TableColumn> columns()
    {
        return columns.length == 0 ? List.of() : TableColumnCodec.decode(columns);
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
        return INSTANCE_SIZE + sizeOf(task) + sizeOf(columns) + estimatedSizeOf("");
    }
}
