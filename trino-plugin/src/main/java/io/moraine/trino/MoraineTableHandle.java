package io.moraine.trino;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.predicate.TupleDomain;

import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * A table as of one snapshot, with the predicate pushed into it: every split and page of a query reads that snapshot,
 * and the split manager skips data files whose statistics rule the predicate out.
 */
public record MoraineTableHandle(SchemaTableName name, long tableId, long snapshotId, TupleDomain<MoraineColumnHandle> constraint, OptionalLong limit)
        implements ConnectorTableHandle
{
    @JsonCreator
    public MoraineTableHandle(@JsonProperty("name") SchemaTableName name, @JsonProperty("tableId") long tableId,
            @JsonProperty("snapshotId") long snapshotId, @JsonProperty("constraint") TupleDomain<MoraineColumnHandle> constraint,
            @JsonProperty("limit") OptionalLong limit)
    {
        this.name = requireNonNull(name, "name is null");
        this.tableId = tableId;
        this.snapshotId = snapshotId;
        this.constraint = requireNonNull(constraint, "constraint is null");
        this.limit = requireNonNull(limit, "limit is null");
    }

    public MoraineTableHandle(SchemaTableName name, long tableId, long snapshotId)
    {
        this(name, tableId, snapshotId, TupleDomain.all(), OptionalLong.empty());
    }

    public MoraineTableHandle withConstraint(TupleDomain<MoraineColumnHandle> newConstraint)
    {
        return new MoraineTableHandle(name, tableId, snapshotId, newConstraint, limit);
    }

    /** A scan that may stop once {@code rows} rows are certain to be produced (the engine still applies the LIMIT). */
    public MoraineTableHandle withLimit(long rows)
    {
        return new MoraineTableHandle(name, tableId, snapshotId, constraint, OptionalLong.of(rows));
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

    @Override
    @JsonProperty
    public TupleDomain<MoraineColumnHandle> constraint()
    {
        return constraint;
    }

    @Override
    @JsonProperty
    public OptionalLong limit()
    {
        return limit;
    }
}
