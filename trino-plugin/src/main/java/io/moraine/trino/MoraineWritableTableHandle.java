package io.moraine.trino;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.moraine.core.write.InsertInlining;
import io.trino.spi.connector.ConnectorInsertTableHandle;
import io.trino.spi.connector.ConnectorOutputTableHandle;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.type.Type;

import java.util.List;

/**
 * A table being written by INSERT or CREATE TABLE AS: its top-level columns in the order of the pages Trino writes
 * (names, Trino types and column ids), the core's data-file layout, and the inlining limit the statement falls under
 * ({@code inliningRowLimit} 0: every row goes to a file).
 */
public record MoraineWritableTableHandle(SchemaTableName name, List<String> columnNames, List<Type> columnTypes, List<Long> columnIds, WriteLayout layout,
        long inliningRowLimit)
        implements ConnectorOutputTableHandle, ConnectorInsertTableHandle
{
    @JsonCreator
    public MoraineWritableTableHandle(@JsonProperty("name") SchemaTableName name, @JsonProperty("columnNames") List<String> columnNames,
            @JsonProperty("columnTypes") List<Type> columnTypes, @JsonProperty("columnIds") List<Long> columnIds, @JsonProperty("layout") WriteLayout layout,
            @JsonProperty("inliningRowLimit") long inliningRowLimit)
    {
        this.name = name;
        this.columnNames = List.copyOf(columnNames);
        this.columnTypes = List.copyOf(columnTypes);
        this.columnIds = List.copyOf(columnIds);
        this.layout = layout;
        this.inliningRowLimit = inliningRowLimit;
    }

    /** The core's inlining rule for this statement. */
    @JsonIgnore
    public InsertInlining inlining()
    {
        return new InsertInlining(inliningRowLimit);
    }
}
