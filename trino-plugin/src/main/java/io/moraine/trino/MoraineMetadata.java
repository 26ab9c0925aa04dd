package io.moraine.trino;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.catalog.Row;
import io.moraine.core.error.MoraineException;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.ConnectorMetadata;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTableMetadata;
import io.trino.spi.connector.ConnectorTableVersion;
import io.trino.spi.connector.PointerType;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.type.LongTimestampWithTimeZone;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.trino.spi.StandardErrorCode.INVALID_ARGUMENTS;
import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;
import static io.trino.spi.type.DateTimeEncoding.unpackMillisUtc;

/**
 * Schemas, tables and columns of the lake as of a snapshot: the newest, the catalog's default, or the one a query
 * names with {@code FOR VERSION AS OF <snapshot id>} / {@code FOR TIMESTAMP AS OF <timestamp>}.
 */
public class MoraineMetadata
        implements ConnectorMetadata
{
    private final MoraineCatalog catalog;
    private final Optional<Long> defaultSnapshotId;
    private final Optional<Instant> defaultSnapshotTimestamp;
    private final MoraineTableColumns tableColumns;

    public MoraineMetadata(MoraineCatalog catalog, MoraineTableColumns tableColumns, Optional<Long> defaultSnapshotId, Optional<Instant> defaultSnapshotTimestamp)
    {
        this.catalog = catalog;
        this.tableColumns = tableColumns;
        this.defaultSnapshotId = defaultSnapshotId;
        this.defaultSnapshotTimestamp = defaultSnapshotTimestamp;
    }

    @Override
    public List<String> listSchemaNames(ConnectorSession session)
    {
        try (CatalogSnapshot snapshot = defaultSnapshot(session)) {
            return snapshot.schemas().stream().map(row -> row.getString("schema_name")).toList();
        }
    }

    @Override
    public List<SchemaTableName> listTables(ConnectorSession session, Optional<String> schemaName)
    {
        try (CatalogSnapshot snapshot = defaultSnapshot(session)) {
            Map<Long, String> schemas = new LinkedHashMap<>();
            snapshot.schemas().forEach(row -> schemas.put(row.getLong("schema_id"), row.getString("schema_name")));
            List<SchemaTableName> tables = new ArrayList<>();
            for (Row table : snapshot.tables()) {
                String schema = schemas.get(table.getLong("schema_id"));
                if (schema != null && schemaName.map(schema::equals).orElse(true)) {
                    tables.add(new SchemaTableName(schema, table.getString("table_name")));
                }
            }
            return tables;
        }
    }

    @Override
    public ConnectorTableHandle getTableHandle(ConnectorSession session, SchemaTableName name, Optional<ConnectorTableVersion> startVersion,
            Optional<ConnectorTableVersion> endVersion)
    {
        if (startVersion.isPresent()) {
            throw new TrinoException(NOT_SUPPORTED, "moraine tables support FOR VERSION AS OF and FOR TIMESTAMP AS OF, not version ranges");
        }
        try (CatalogSnapshot snapshot = endVersion.map(this::snapshotOf).orElseGet(() -> defaultSnapshot(session))) {
            return snapshot.table(name.getSchemaName(), name.getTableName())
                    .map(table -> new MoraineTableHandle(name, table.getLong("table_id"), snapshot.id()))
                    .orElse(null);
        }
    }

    @Override
    public ConnectorTableMetadata getTableMetadata(ConnectorSession session, ConnectorTableHandle tableHandle)
    {
        MoraineTableHandle table = (MoraineTableHandle) tableHandle;
        return new ConnectorTableMetadata(table.name(), columns(table).stream()
                .map(column -> new ColumnMetadata(column.name(), column.type()))
                .toList());
    }

    @Override
    public Map<String, ColumnHandle> getColumnHandles(ConnectorSession session, ConnectorTableHandle tableHandle)
    {
        Map<String, ColumnHandle> handles = new LinkedHashMap<>();
        columns((MoraineTableHandle) tableHandle).forEach(column -> handles.put(column.name(), column));
        return handles;
    }

    @Override
    public ColumnMetadata getColumnMetadata(ConnectorSession session, ConnectorTableHandle tableHandle, ColumnHandle columnHandle)
    {
        MoraineColumnHandle column = (MoraineColumnHandle) columnHandle;
        return new ColumnMetadata(column.name(), column.type());
    }

    /**
     * Keeps the predicate in the handle so the split manager can skip files by their statistics. Trino still applies
     * the whole predicate to the rows read.
     */
    @Override
    public Optional<io.trino.spi.connector.ConstraintApplicationResult<ConnectorTableHandle>> applyFilter(ConnectorSession session,
            ConnectorTableHandle tableHandle, io.trino.spi.connector.Constraint constraint)
    {
        MoraineTableHandle table = (MoraineTableHandle) tableHandle;
        io.trino.spi.predicate.TupleDomain<MoraineColumnHandle> combined = table.constraint()
                .intersect(constraint.getSummary().transformKeys(MoraineColumnHandle.class::cast));
        if (combined.equals(table.constraint())) {
            return Optional.empty();
        }
        return Optional.of(new io.trino.spi.connector.ConstraintApplicationResult<>(table.withConstraint(combined), constraint.getSummary(),
                constraint.getExpression(), false));
    }

    /**
     * Remembers a LIMIT so the split manager can stop planning files once enough rows are certain; Trino still applies
     * the limit, because deletes and snapshot filtering make row counts of other files uncertain.
     */
    @Override
    public Optional<io.trino.spi.connector.LimitApplicationResult<ConnectorTableHandle>> applyLimit(ConnectorSession session, ConnectorTableHandle tableHandle, long limit)
    {
        MoraineTableHandle table = (MoraineTableHandle) tableHandle;
        if (table.limit().isPresent() && table.limit().getAsLong() <= limit) {
            return Optional.empty();
        }
        return Optional.of(new io.trino.spi.connector.LimitApplicationResult<>(table.withLimit(limit), false, false));
    }

    /** The table's top-level columns at the handle's snapshot, in column order. */
    List<MoraineColumnHandle> columns(MoraineTableHandle table)
    {
        return tableColumns.of(table).handles();
    }

    /** The snapshot a query reads when it names none: session property, then catalog property, then the newest. */
    CatalogSnapshot defaultSnapshot(ConnectorSession session)
    {
        try {
            Optional<Long> id = MoraineSessionProperties.snapshotId(session);
            if (id.isPresent()) {
                return catalog.at(id.get());
            }
            Optional<Instant> timestamp = MoraineSessionProperties.snapshotTimestamp(session);
            if (timestamp.isPresent()) {
                return catalog.asOf(timestamp.get());
            }
            if (defaultSnapshotId.isPresent()) {
                return catalog.at(defaultSnapshotId.get());
            }
            return defaultSnapshotTimestamp.map(catalog::asOf).orElseGet(catalog::latest);
        }
        catch (MoraineException e) {
            throw MoraineErrorCode.toTrino(e);
        }
    }

    private CatalogSnapshot snapshotOf(ConnectorTableVersion version)
    {
        try {
            if (version.getPointerType() == PointerType.TARGET_ID) {
                if (!(version.getVersion() instanceof Long id)) {
                    throw new TrinoException(INVALID_ARGUMENTS, "FOR VERSION AS OF takes a snapshot id (a BIGINT), not " + version.getVersion());
                }
                return catalog.at(id);
            }
            // A millisecond timestamp names its whole millisecond (snapshot times have microseconds); a longer one is exact.
            Instant instant = switch (version.getVersion()) {
                case Long packed -> Instant.ofEpochMilli(unpackMillisUtc(packed)).plusNanos(999_999);
                case LongTimestampWithTimeZone timestamp -> Instant.ofEpochMilli(timestamp.getEpochMillis()).plusNanos(timestamp.getPicosOfMilli() / 1000);
                default -> throw new TrinoException(INVALID_ARGUMENTS, "FOR TIMESTAMP AS OF takes a timestamp with time zone");
            };
            return catalog.asOf(instant);
        }
        catch (MoraineException e) {
            throw MoraineErrorCode.toTrino(e);
        }
    }
}
