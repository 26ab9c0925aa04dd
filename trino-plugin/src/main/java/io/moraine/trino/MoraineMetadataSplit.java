package io.moraine.trino;

import com.fasterxml.jackson.annotation.JsonCreator;
import io.trino.spi.connector.ConnectorSplit;

import static io.airlift.slice.SizeOf.instanceSize;

/** The one split of a metadata table: its rows are produced whole from the catalog (the handle says which). */
public final class MoraineMetadataSplit
        implements ConnectorSplit
{
    private static final int INSTANCE_SIZE = instanceSize(MoraineMetadataSplit.class);

    @JsonCreator
    public MoraineMetadataSplit() {}

    @Override
    public long getRetainedSizeInBytes()
    {
        return INSTANCE_SIZE;
    }
}
