package io.moraine.trino;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.type.Type;

import static java.util.Objects.requireNonNull;

/** A top-level column: its DuckLake column id (the Parquet field id), name and Trino type. */
public record MoraineColumnHandle(long columnId, String name, Type type)
        implements ColumnHandle
{
    @JsonCreator
    public MoraineColumnHandle(@JsonProperty("columnId") long columnId, @JsonProperty("name") String name, @JsonProperty("type") Type type)
    {
        this.columnId = columnId;
        this.name = requireNonNull(name, "name is null");
        this.type = requireNonNull(type, "type is null");
    }

    @Override
    @JsonProperty
    public long columnId()
    {
        return columnId;
    }

    @Override
    @JsonProperty
    public String name()
    {
        return name;
    }

    @Override
    @JsonProperty
    public Type type()
    {
        return type;
    }
}
