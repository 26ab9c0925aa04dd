package io.moraine.trino;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.predicate.TupleDomain;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/**
 * A change-feed call planned as a table scan (Trino rewrites the table function into one, see
 * {@code MoraineMetadata.applyTableFunction}): which function, whether its rows begin with {@code snapshot_id} and
 * {@code rowid} (always for {@code table_changes}; for the other two only when the call asks, DuckLake's shape being the
 * table's columns alone), the table (by id, as it is at the end snapshot), the bounds as snapshot ids, the table's
 * columns at the end snapshot, the columns the query reads (once Trino has pruned them) and the predicate the planner
 * prunes tasks with ({@code io.moraine.core.changes.ChangePruning}).
 */
public record ChangeFeedTableHandle(ChangeFeedOutput output, boolean virtualColumns, SchemaTableName table, long tableId, long startSnapshot, long endSnapshot,
        List<MoraineColumnHandle> columns, Optional<List<ChangeFeedColumnHandle>> projection, TupleDomain<ChangeFeedColumnHandle> constraint)
        implements ConnectorTableHandle
{
    @JsonCreator
    public ChangeFeedTableHandle(@JsonProperty("output") ChangeFeedOutput output, @JsonProperty("virtualColumns") boolean virtualColumns,
            @JsonProperty("table") SchemaTableName table,
            @JsonProperty("tableId") long tableId, @JsonProperty("startSnapshot") long startSnapshot, @JsonProperty("endSnapshot") long endSnapshot,
            @JsonProperty("columns") List<MoraineColumnHandle> columns, @JsonProperty("projection") Optional<List<ChangeFeedColumnHandle>> projection,
            @JsonProperty("constraint") TupleDomain<ChangeFeedColumnHandle> constraint)
    {
        this.output = requireNonNull(output, "output is null");
        if (output == ChangeFeedOutput.CHANGES && !virtualColumns) {
            throw new IllegalArgumentException("table_changes always returns snapshot_id and rowid, as DuckLake's does");
        }
        this.virtualColumns = virtualColumns;
        this.table = requireNonNull(table, "table is null");
        this.tableId = tableId;
        this.startSnapshot = startSnapshot;
        this.endSnapshot = endSnapshot;
        this.columns = List.copyOf(columns);
        this.projection = requireNonNull(projection, "projection is null").map(List::copyOf);
        this.constraint = requireNonNull(constraint, "constraint is null");
    }

    /**
     * The scan of a resolved call: every column, no predicate. {@code virtualColumns} is whether the rows begin with
     * {@code snapshot_id} and {@code rowid}; {@code table_changes} always has them.
     */
    static ChangeFeedTableHandle of(ChangeFeedOutput output, boolean virtualColumns, SchemaTableName table, long tableId, long startSnapshot, long endSnapshot,
            List<MoraineColumnHandle> columns)
    {
        return new ChangeFeedTableHandle(output, virtualColumns || output == ChangeFeedOutput.CHANGES, table, tableId, startSnapshot, endSnapshot, columns,
                Optional.empty(), TupleDomain.all());
    }

    /**
     * Every column of the call's rows, in the function's order, as DuckLake's function of the same name returns them:
     * {@code snapshot_id}, {@code rowid}, {@code change_type} then the table's for {@code table_changes}; the table's
     * alone for the other two, after {@code snapshot_id} and {@code rowid} when the call asked for them.
     */
    List<ChangeFeedColumnHandle> allColumns()
    {
        List<ChangeFeedColumnHandle> all = new ArrayList<>();
        if (virtualColumns) {
            all.add(ChangeFeedColumnHandle.SNAPSHOT_ID);
            all.add(ChangeFeedColumnHandle.ROWID);
        }
        if (output == ChangeFeedOutput.CHANGES) {
            all.add(ChangeFeedColumnHandle.CHANGE_TYPE);
        }
        columns.forEach(column -> all.add(ChangeFeedColumnHandle.of(column)));
        return all;
    }

    ChangeFeedTableHandle withProjection(List<ChangeFeedColumnHandle> projected)
    {
        return new ChangeFeedTableHandle(output, virtualColumns, table, tableId, startSnapshot, endSnapshot, columns, Optional.of(projected), constraint);
    }

    ChangeFeedTableHandle withConstraint(TupleDomain<ChangeFeedColumnHandle> newConstraint)
    {
        return new ChangeFeedTableHandle(output, virtualColumns, table, tableId, startSnapshot, endSnapshot, columns, projection, newConstraint);
    }

    /** The table at the end snapshot, for looking its columns up. */
    MoraineTableHandle tableAtEnd()
    {
        return new MoraineTableHandle(table, tableId, endSnapshot);
    }

    @Override
    @JsonProperty
    public ChangeFeedOutput output()
    {
        return output;
    }

    @Override
    @JsonProperty
    public boolean virtualColumns()
    {
        return virtualColumns;
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

    @Override
    @JsonProperty
    public Optional<List<ChangeFeedColumnHandle>> projection()
    {
        return projection;
    }

    @Override
    @JsonProperty
    public TupleDomain<ChangeFeedColumnHandle> constraint()
    {
        return constraint;
    }

    /** As EXPLAIN prints the scan: the call, then the columns read and the predicate pruned with, when there are. */
    @Override
    public String toString()
    {
        StringBuilder text = new StringBuilder(output.functionName()).append("(").append(table).append(", ").append(startSnapshot).append(" to ").append(endSnapshot)
                .append(")");
        projection.ifPresent(columns -> text.append(" columns=[").append(columns.stream().map(ChangeFeedColumnHandle::name).collect(Collectors.joining(", "))).append("]"));
        if (!constraint.isAll()) {
            text.append(" constraint=").append(constraint.isNone() ? "NONE" : constraint.getDomains().orElseThrow().entrySet().stream()
                    .map(entry -> entry.getKey().name() + " " + entry.getValue().toString(8))
                    .collect(Collectors.joining(" AND ", "[", "]")));
        }
        return text.toString();
    }
}
