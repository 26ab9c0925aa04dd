package io.moraine.trino;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.trino.spi.connector.ConnectorSplit;

import static io.airlift.slice.SizeOf.instanceSize;

/** The one split of a metadata table: its rows are produced whole from the catalog (the handle says which). */
public final class MoraineMetadataSplit
        implements ConnectorSplit
{
    private static final int INSTANCE_SIZE = instanceSize(MoraineMetadataSplit.class);

    private final int part;

    @JsonCreator
    public MoraineMetadataSplit(@JsonProperty("part") int part)
    {
        this.part = part;
    }

    /** Always 0: a metadata table is one split (the property gives the split a JSON form). */
    @JsonProperty
    public int getPart()
    {
        return part;
    }

    @Override
    public long getRetainedSizeInBytes()
    {
        return INSTANCE_SIZE;
    }
}
