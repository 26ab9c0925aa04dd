package io.moraine.trino;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.type.Type;

import static java.util.Objects.requireNonNull;

/** A column of a metadata table: its position among the table's columns, name and Trino type. */
public record MoraineMetadataColumnHandle(int index, String name, Type type)
        implements ColumnHandle
{
    @JsonCreator
    public MoraineMetadataColumnHandle(@JsonProperty("index") int index, @JsonProperty("name") String name, @JsonProperty("type") Type type)
    {
        this.index = index;
        this.name = requireNonNull(name, "name is null");
        this.type = requireNonNull(type, "type is null");
    }

    @Override
    @JsonProperty
    public int index()
    {
        return index;
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
