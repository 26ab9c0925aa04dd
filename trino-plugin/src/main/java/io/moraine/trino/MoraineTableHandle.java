package io.moraine.trino;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.predicate.TupleDomain;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * A table as of one snapshot, with the predicate pushed into it: every split and page of a query reads that snapshot,
 * and the split manager skips data files whose statistics rule the predicate out. {@code projection} is the columns
 * the scan reads (nested fields as dereference handles, hidden columns too) once Trino has pushed a projection into it
 * ({@code applyProjection}); the coordinator reads the inlined rows' columns by it. Empty until then: every column.
 */
public record MoraineTableHandle(SchemaTableName name, long tableId, long snapshotId, TupleDomain<MoraineColumnHandle> constraint, OptionalLong limit,
        Optional<List<MoraineColumnHandle>> projection)
        implements ConnectorTableHandle
{
    @JsonCreator
    public MoraineTableHandle(@JsonProperty("name") SchemaTableName name, @JsonProperty("tableId") long tableId,
            @JsonProperty("snapshotId") long snapshotId, @JsonProperty("constraint") TupleDomain<MoraineColumnHandle> constraint,
            @JsonProperty("limit") OptionalLong limit, @JsonProperty("projection") Optional<List<MoraineColumnHandle>> projection)
    {
        this.name = requireNonNull(name, "name is null");
        this.tableId = tableId;
        this.snapshotId = snapshotId;
        this.constraint = requireNonNull(constraint, "constraint is null");
        this.limit = requireNonNull(limit, "limit is null");
        this.projection = requireNonNull(projection, "projection is null").map(List::copyOf);
    }

    public MoraineTableHandle(SchemaTableName name, long tableId, long snapshotId)
    {
        this(name, tableId, snapshotId, TupleDomain.all(), OptionalLong.empty(), Optional.empty());
    }

    public MoraineTableHandle withConstraint(TupleDomain<MoraineColumnHandle> newConstraint)
    {
        return new MoraineTableHandle(name, tableId, snapshotId, newConstraint, limit, projection);
    }

    /** A scan that may stop once {@code rows} rows are certain to be produced (the engine still applies the LIMIT). */
    public MoraineTableHandle withLimit(long rows)
    {
        return new MoraineTableHandle(name, tableId, snapshotId, constraint, OptionalLong.of(rows), projection);
    }

    /** A scan that reads only {@code columns}. */
    public MoraineTableHandle withProjection(List<MoraineColumnHandle> columns)
    {
        return new MoraineTableHandle(name, tableId, snapshotId, constraint, limit, Optional.of(columns));
    }

    /** The handle without its projection: what the rows and statistics of the scan depend on. */
    public MoraineTableHandle withoutProjection()
    {
        return new MoraineTableHandle(name, tableId, snapshotId, constraint, limit, Optional.empty());
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

    @Override
    @JsonProperty
    public Optional<List<MoraineColumnHandle>> projection()
    {
        return projection;
    }
}
