package io.moraine.trino;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.moraine.core.row.TableKind;
import io.moraine.core.metadata.MetadataTableType;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.SchemaTableName;

import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A metadata table: either a lake table's {@code "t$files"}-style table at a snapshot ({@code type}, {@code tableId},
 * {@code snapshotId}), or a raw {@code ducklake_*} catalog table ({@code rawKind}) with every row it holds.
 */
public record MoraineMetadataTableHandle(SchemaTableName name, Optional<MetadataTableType> type, Optional<TableKind> rawKind, long tableId, long snapshotId)
        implements ConnectorTableHandle
{
    @JsonCreator
    public MoraineMetadataTableHandle(@JsonProperty("name") SchemaTableName name, @JsonProperty("type") Optional<MetadataTableType> type,
            @JsonProperty("rawKind") Optional<TableKind> rawKind, @JsonProperty("tableId") long tableId, @JsonProperty("snapshotId") long snapshotId)
    {
        this.name = requireNonNull(name, "name is null");
        this.type = requireNonNull(type, "type is null");
        this.rawKind = requireNonNull(rawKind, "rawKind is null");
        this.tableId = tableId;
        this.snapshotId = snapshotId;
    }

    static MoraineMetadataTableHandle of(SchemaTableName name, MetadataTableType type, long tableId, long snapshotId)
    {
        return new MoraineMetadataTableHandle(name, Optional.of(type), Optional.empty(), tableId, snapshotId);
    }

    static MoraineMetadataTableHandle raw(SchemaTableName name, TableKind kind)
    {
        return new MoraineMetadataTableHandle(name, Optional.empty(), Optional.of(kind), -1, -1);
    }

    /** The columns, as the core declares them. */
    java.util.List<io.moraine.core.row.Column> columns()
    {
        return type.map(MetadataTableType::columns).orElseGet(() -> rawKind.orElseThrow().columns());
    }

    @Override
    @JsonProperty
    public SchemaTableName name()
    {
        return name;
    }

    @Override
    @JsonProperty
    public Optional<MetadataTableType> type()
    {
        return type;
    }

    @Override
    @JsonProperty
    public Optional<TableKind> rawKind()
    {
        return rawKind;
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
