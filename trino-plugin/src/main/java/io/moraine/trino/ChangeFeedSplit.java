package io.moraine.trino;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.moraine.core.changes.ChangeGroup;
import io.moraine.core.changes.ChangeTaskCodec;
import io.trino.spi.SplitWeight;
import io.trino.spi.connector.ConnectorSplit;

import static io.airlift.slice.SizeOf.instanceSize;
import static io.airlift.slice.SizeOf.sizeOf;

/** One group of a change feed's tasks (the core's {@link ChangeGroup}), shipped to a worker as the core's encoding. */
public final class ChangeFeedSplit
        implements ConnectorSplit
{
    private static final int INSTANCE_SIZE = instanceSize(ChangeFeedSplit.class);

    private final byte[] group;
    private final double weight;

    @JsonCreator
    public ChangeFeedSplit(@JsonProperty("group") byte[] group, @JsonProperty("weight") double weight)
    {
        this.group = group.clone();
        this.weight = weight;
    }

    static ChangeFeedSplit of(ChangeGroup group, double weight)
    {
        return new ChangeFeedSplit(ChangeTaskCodec.encode(group), weight);
    }

    @JsonProperty
    public byte[] getGroup()
    {
        return group.clone();
    }

    @JsonProperty
    public double getWeight()
    {
        return weight;
    }

    public ChangeGroup group()
    {
        return ChangeTaskCodec.decode(group);
    }

    @Override
    public SplitWeight getSplitWeight()
    {
        return SplitWeight.fromProportion(weight);
    }

    @Override
    public long getRetainedSizeInBytes()
    {
        return INSTANCE_SIZE + sizeOf(group);
    }
}
