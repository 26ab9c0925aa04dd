package io.moraine.trino;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.trino.spi.connector.ConnectorSplit;

import java.util.OptionalLong;

/**
 * One unit of a scan: the table's inlined rows, or the row groups of one data file that start in the byte range
 * {@code [start, start + length)} (large files are split on row-group boundaries).
 */
public record MoraineSplit(OptionalLong dataFileId, long start, long length)
        implements ConnectorSplit
{
    @JsonCreator
    public MoraineSplit(@JsonProperty("dataFileId") OptionalLong dataFileId, @JsonProperty("start") long start, @JsonProperty("length") long length)
    {
        this.dataFileId = dataFileId;
        this.start = start;
        this.length = length;
    }

    public static MoraineSplit inlinedRows()
    {
        return new MoraineSplit(OptionalLong.empty(), 0, 0);
    }

    public static MoraineSplit dataFile(long dataFileId, long start, long length)
    {
        return new MoraineSplit(OptionalLong.of(dataFileId), start, length);
    }

    @Override
    @JsonProperty
    public OptionalLong dataFileId()
    {
        return dataFileId;
    }

    @Override
    @JsonProperty
    public long start()
    {
        return start;
    }

    @Override
    @JsonProperty
    public long length()
    {
        return length;
    }
}
