package io.moraine.trino;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.trino.spi.connector.ConnectorMergeTableHandle;

/**
 * A DELETE, UPDATE or MERGE of one table: the scanned table, and the table as written (every column, in the core's
 * column order: the data channels of the merge sink's pages).
 */
public record MoraineMergeTableHandle(MoraineTableHandle table, MoraineWritableTableHandle write)
        implements ConnectorMergeTableHandle
{
    @JsonCreator
    public MoraineMergeTableHandle(@JsonProperty("table") MoraineTableHandle table, @JsonProperty("write") MoraineWritableTableHandle write)
    {
        this.table = table;
        this.write = write;
    }

    @Override
    public MoraineTableHandle getTableHandle()
    {
        return table;
    }
}
