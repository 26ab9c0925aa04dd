package io.moraine.trino;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.function.table.ConnectorTableFunctionHandle;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * A resolved change-feed call: which function, the table (by id, as it is at the end snapshot), the bounds as snapshot
 * ids, and the table's columns at the end snapshot, which follow {@code snapshot_id}, {@code rowid} (and
 * {@code change_type}) in every row.
 */
public record ChangeFeedFunctionHandle(ChangeFeedOutput output, SchemaTableName table, long tableId, long startSnapshot, long endSnapshot,
        List<MoraineColumnHandle> columns)
        implements ConnectorTableFunctionHandle
{
    @JsonCreator
    public ChangeFeedFunctionHandle(@JsonProperty("output") ChangeFeedOutput output, @JsonProperty("table") SchemaTableName table,
            @JsonProperty("tableId") long tableId, @JsonProperty("startSnapshot") long startSnapshot, @JsonProperty("endSnapshot") long endSnapshot,
            @JsonProperty("columns") List<MoraineColumnHandle> columns)
    {
        this.output = requireNonNull(output, "output is null");
        this.table = requireNonNull(table, "table is null");
        this.tableId = tableId;
        this.startSnapshot = startSnapshot;
        this.endSnapshot = endSnapshot;
        this.columns = List.copyOf(columns);
    }

    @Override
    @JsonProperty
    public ChangeFeedOutput output()
    {
        return output;
    }

    @Override
    @JsonProperty
    public SchemaTableName table()
    {
        return table;
    }

    @Override
    @JsonProperty
    public long tableId()
    {
        return tableId;
    }

    @Override
    @JsonProperty
    public long startSnapshot()
    {
        return startSnapshot;
    }

    @Override
    @JsonProperty
    public long endSnapshot()
    {
        return endSnapshot;
    }

    @Override
    @JsonProperty
    public List<MoraineColumnHandle> columns()
    {
        return columns;
    }

    /** The table at the end snapshot, for looking its columns up. */
    MoraineTableHandle tableAtEnd()
    {
        return new MoraineTableHandle(table, tableId, endSnapshot);
    }
}
