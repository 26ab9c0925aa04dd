package io.moraine.trino;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.trino.spi.connector.ConnectorTableExecuteHandle;
import io.trino.spi.connector.SchemaTableName;

import java.util.Map;

import static java.util.Objects.requireNonNull;

/** An {@code ALTER TABLE ... EXECUTE procedure(...)} of one table: the procedure and its arguments, as given. */
public record MoraineTableExecuteHandle(SchemaTableName table, TableProcedure procedure, Map<String, String> arguments)
        implements ConnectorTableExecuteHandle
{
    @JsonCreator
    public MoraineTableExecuteHandle(@JsonProperty("table") SchemaTableName table, @JsonProperty("procedure") TableProcedure procedure,
            @JsonProperty("arguments") Map<String, String> arguments)
    {
        this.table = requireNonNull(table, "table is null");
        this.procedure = requireNonNull(procedure, "procedure is null");
        this.arguments = Map.copyOf(arguments);
    }
}
