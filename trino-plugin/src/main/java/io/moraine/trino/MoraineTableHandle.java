package io.moraine.trino;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.SchemaTableName;

import static java.util.Objects.requireNonNull;

/** A table as of one snapshot: every split and page of a query reads that snapshot. */
public record MoraineTableHandle(SchemaTableName name, long tableId, long snapshotId)
        implements ConnectorTableHandle
{
    @JsonCreator
    public MoraineTableHandle(@JsonProperty("name") SchemaTableName name, @JsonProperty("tableId") long tableId,
            @JsonProperty("snapshotId") long snapshotId)
    {
        this.name = requireNonNull(name, "name is null");
        this.tableId = tableId;
        this.snapshotId = snapshotId;
    }

    @Override
    @JsonProperty
    public SchemaTableName name()
    {
        return name;
    }

    @Override
    @JsonProperty
    public long tableId()
    {
        return tableId;
    }

    @Override
    @JsonProperty
    public long snapshotId()
    {
        return snapshotId;
    }
}
