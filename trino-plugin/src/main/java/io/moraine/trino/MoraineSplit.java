package io.moraine.trino;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.trino.spi.connector.ConnectorSplit;

import java.util.OptionalLong;

/** One unit of a scan: the table's inlined rows, or one data file. */
public record MoraineSplit(OptionalLong dataFileId)
        implements ConnectorSplit
{
    @JsonCreator
    public MoraineSplit(@JsonProperty("dataFileId") OptionalLong dataFileId)
    {
        this.dataFileId = dataFileId;
    }

    public static MoraineSplit inlinedRows()
    {
        return new MoraineSplit(OptionalLong.empty());
    }

    @Override
    @JsonProperty
    public OptionalLong dataFileId()
    {
        return dataFileId;
    }
}
