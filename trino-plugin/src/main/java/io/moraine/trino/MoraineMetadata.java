package io.moraine.trino;

import io.moraine.core.catalog.CatalogModel;
import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.LakeSchema;
import io.moraine.core.catalog.LakeTable;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.row.TableKind;
import io.moraine.core.metadata.MetadataTableType;
import io.moraine.core.scan.HiddenColumn;
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
import java.util.Arrays;
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
    /** The schema whose tables are the raw {@code ducklake_*} catalog tables (unless the lake has a schema of that name). */
    static final String RAW_SCHEMA = "ducklake";

    private final MoraineCatalog catalog;
    private final Optional<Long> defaultSnapshotId;
    private final Optional<Instant> defaultSnapshotTimestamp;
    private final MoraineTableColumns tableColumns;
    /** Statistics by handle, for this transaction: Trino asks for the same handle's more than once while planning. */
    private final Map<MoraineTableHandle, io.trino.spi.statistics.TableStatistics> statistics = new java.util.concurrent.ConcurrentHashMap<>();

    private final Optional<LakeWrites> writes;

    public MoraineMetadata(MoraineCatalog catalog, MoraineTableColumns tableColumns, Optional<Long> defaultSnapshotId, Optional<Instant> defaultSnapshotTimestamp)
    {
        this(catalog, tableColumns, defaultSnapshotId, defaultSnapshotTimestamp, Optional.empty());
    }

    // Whether this transaction's metadata has checked the store for freshness already (see defaultSnapshot).
    private volatile boolean caughtUp;

    MoraineMetadata(MoraineCatalog catalog, MoraineTableColumns tableColumns, Optional<Long> defaultSnapshotId, Optional<Instant> defaultSnapshotTimestamp,
            Optional<LakeWrites> writes)
    {
        this.writes = writes;
        this.catalog = catalog;
        this.tableColumns = tableColumns;
        this.defaultSnapshotId = defaultSnapshotId;
        this.defaultSnapshotTimestamp = defaultSnapshotTimestamp;
    }

    @Override
    public List<String> listSchemaNames(ConnectorSession session)
    {
        try (CatalogSnapshot snapshot = defaultSnapshot(session)) {
            List<String> names = new ArrayList<>(snapshot.model().schemas().stream().map(LakeSchema::name).toList());
            if (!names.contains(RAW_SCHEMA)) {
                names.add(RAW_SCHEMA);
            }
            return names;
        }
    }

    @Override
    public List<SchemaTableName> listTables(ConnectorSession session, Optional<String> schemaName)
    {
        try (CatalogSnapshot snapshot = defaultSnapshot(session)) {
            CatalogModel model = snapshot.model();
            List<SchemaTableName> tables = new ArrayList<>();
            for (LakeTable table : model.tables()) {
                if (schemaName.map(table.schema().name()::equals).orElse(true)) {
                    tables.add(new SchemaTableName(table.schema().name(), table.name()));
                }
            }
            // Trino lists views with tables; its views only (TrinoViews).
            tables.addAll(TrinoViews.list(model, schemaName));
            if (schemaName.map(RAW_SCHEMA::equals).orElse(true) && model.schema(RAW_SCHEMA).isEmpty()) {
                Arrays.stream(TableKind.values()).forEach(kind -> tables.add(new SchemaTableName(RAW_SCHEMA, kind.tableName())));
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
        if (name.getSchemaName().equals(RAW_SCHEMA) && endVersion.isPresent()) {
            // Checked before the version is resolved: the raw tables have no versions, whichever snapshot is named.
            try (CatalogSnapshot snapshot = defaultSnapshot(session)) {
                if (snapshot.model().schema(RAW_SCHEMA).isEmpty()) {
                    return rawTableHandle(name, endVersion);
                }
            }
        }
        try (CatalogSnapshot snapshot = endVersion.map(this::snapshotOf).orElseGet(() -> defaultSnapshot(session))) {
            Optional<LakeTable> table = snapshot.model().table(name.getSchemaName(), name.getTableName());
            if (table.isPresent()) {
                return new MoraineTableHandle(name, table.get().id(), snapshot.id());
            }
            if (name.getSchemaName().equals(RAW_SCHEMA) && snapshot.model().schema(RAW_SCHEMA).isEmpty()) {
                return rawTableHandle(name, endVersion);
            }
            return metadataTableHandle(snapshot, name);
        }
    }

    /** A raw catalog table of schema {@code ducklake}: every row it holds, so it has no versions. */
    private static ConnectorTableHandle rawTableHandle(SchemaTableName name, Optional<ConnectorTableVersion> version)
    {
        Optional<TableKind> kind = Arrays.stream(TableKind.values()).filter(candidate -> candidate.tableName().equals(name.getTableName())).findFirst();
        if (kind.isPresent() && version.isPresent()) {
            throw new TrinoException(NOT_SUPPORTED, "table " + name + " holds every row of the catalog table, current and history (filter on begin_snapshot and "
                    + "end_snapshot instead); it has no FOR VERSION AS OF");
        }
        return kind.map(found -> MoraineMetadataTableHandle.raw(name, found)).orElse(null);
    }

    /** {@code "t$files"}-style names: a metadata table of lake table {@code t} at the snapshot; null when {@code t} does not exist. */
    private static ConnectorTableHandle metadataTableHandle(CatalogSnapshot snapshot, SchemaTableName name)
    {
        Optional<MetadataTableType.Name> parsed = MetadataTableType.parse(name.getTableName());
        if (parsed.isEmpty()) {
            return null;
        }
        Optional<LakeTable> table = snapshot.model().table(name.getSchemaName(), parsed.get().table());
        if (table.isEmpty()) {
            return null;
        }
        MetadataTableType type = parsed.get().type().orElseThrow(() -> new TrinoException(NOT_SUPPORTED, "table " + name + " names no metadata table of "
                + parsed.get().table() + "; moraine has " + MetadataTableType.suffixes()));
        return MoraineMetadataTableHandle.of(name, type, table.get().id(), snapshot.id());
    }

    @Override
    public ConnectorTableMetadata getTableMetadata(ConnectorSession session, ConnectorTableHandle tableHandle)
    {
        if (tableHandle instanceof MoraineMetadataTableHandle metadataTable) {
            return new ConnectorTableMetadata(metadataTable.name(), metadataColumns(metadataTable).stream()
                    .map(column -> new ColumnMetadata(column.name(), column.type()))
                    .toList());
        }
        if (tableHandle instanceof ChangeFeedTableHandle changes) {
            return new ConnectorTableMetadata(changes.table(), changes.allColumns().stream()
                    .map(column -> new ColumnMetadata(column.name(), column.type()))
                    .toList());
        }
        MoraineTableHandle table = (MoraineTableHandle) tableHandle;
        try (CatalogSnapshot snapshot = catalog.at(table.snapshotId())) {
            io.moraine.core.catalog.LakeTable lakeTable = snapshot.model().table(table.tableId())
                    .orElseThrow(() -> new TrinoException(io.trino.spi.StandardErrorCode.TABLE_NOT_FOUND, "table " + table.name() + " does not exist at snapshot "
                            + table.snapshotId()));
            io.moraine.core.catalog.TableDefinition definition = snapshot.model().definition(lakeTable);
            Map<Long, String> comments = snapshot.model().columnComments(lakeTable);
            List<ColumnMetadata> columns = new ArrayList<>(columns(table).stream()
                    .map(column -> ColumnMetadata.builder().setName(column.name()).setType(column.type())
                            .setComment(Optional.ofNullable(comments.get(column.columnId()))).build())
                    .toList());
            hiddenColumns().stream()
                    .filter(hidden -> columns.stream().noneMatch(column -> column.getName().equals(hidden.name())))
                    .forEach(column -> columns.add(hiddenColumnMetadata(column)));
            Map<String, Object> properties = MoraineTableProperties.of(definition,
                    io.moraine.core.write.LakeOptions.tableValue(snapshot, table.tableId(), MoraineTableProperties.DATA_INLINING_ROW_LIMIT));
            return new ConnectorTableMetadata(table.name(), columns, properties, definition.comment());
        }
        catch (MoraineException e) {
            throw MoraineErrorCode.toTrino(e);
        }
    }

    /**
     * The columns only, for analysing a query (Trino asks this, not {@link #getTableMetadata}, on every query): the
     * comments and properties {@code SHOW CREATE TABLE} shows are read only when asked for.
     */
    @Override
    public io.trino.spi.connector.ConnectorTableSchema getTableSchema(ConnectorSession session, ConnectorTableHandle tableHandle)
    {
        ConnectorTableMetadata metadata;
        if (tableHandle instanceof MoraineTableHandle table) {
            List<ColumnMetadata> columns = new ArrayList<>(columns(table).stream()
                    .map(column -> new ColumnMetadata(column.name(), column.type()))
                    .toList());
            hiddenColumns().stream()
                    .filter(hidden -> columns.stream().noneMatch(column -> column.getName().equals(hidden.name())))
                    .forEach(column -> columns.add(hiddenColumnMetadata(column)));
            metadata = new ConnectorTableMetadata(table.name(), columns);
        }
        else {
            metadata = getTableMetadata(session, tableHandle);
        }
        return metadata.getTableSchema();
    }

    /** The hidden columns every table has ({@code $path}, {@code $row_id}, ...): selected by name, not by {@code *}. */
    private static List<MoraineColumnHandle> hiddenColumns()
    {
        return Arrays.stream(HiddenColumn.values()).map(MoraineColumnHandle::hidden).toList();
    }

    private static ColumnMetadata hiddenColumnMetadata(MoraineColumnHandle column)
    {
        return ColumnMetadata.builder().setName(column.name()).setType(column.type()).setHidden(true).build();
    }

    private static List<MoraineMetadataColumnHandle> metadataColumns(MoraineMetadataTableHandle table)
    {
        List<MoraineMetadataColumnHandle> columns = new ArrayList<>();
        List<io.moraine.core.row.Column> declared = table.columns();
        for (int i = 0; i < declared.size(); i++) {
            columns.add(new MoraineMetadataColumnHandle(i, declared.get(i).name(), MetadataPages.trinoType(declared.get(i).type())));
        }
        return columns;
    }

    @Override
    public Map<String, ColumnHandle> getColumnHandles(ConnectorSession session, ConnectorTableHandle tableHandle)
    {
        Map<String, ColumnHandle> handles = new LinkedHashMap<>();
        if (tableHandle instanceof MoraineMetadataTableHandle metadataTable) {
            metadataColumns(metadataTable).forEach(column -> handles.put(column.name(), column));
            return handles;
        }
        if (tableHandle instanceof ChangeFeedTableHandle changes) {
            changes.allColumns().forEach(column -> handles.putIfAbsent(column.name(), column));
            return handles;
        }
        columns((MoraineTableHandle) tableHandle).forEach(column -> handles.put(column.name(), column));
        hiddenColumns().forEach(column -> handles.putIfAbsent(column.name(), column));
        return handles;
    }

    @Override
    public ColumnMetadata getColumnMetadata(ConnectorSession session, ConnectorTableHandle tableHandle, ColumnHandle columnHandle)
    {
        if (columnHandle instanceof MoraineMetadataColumnHandle metadataColumn) {
            return new ColumnMetadata(metadataColumn.name(), metadataColumn.type());
        }
        if (columnHandle instanceof ChangeFeedColumnHandle change) {
            return new ColumnMetadata(change.name(), change.type());
        }
        MoraineColumnHandle column = (MoraineColumnHandle) columnHandle;
        if (MergeRowId.is(column)) {
            return ColumnMetadata.builder().setName(column.name()).setType(column.type()).setHidden(true).build();
        }
        return column.hiddenColumn().isPresent() ? hiddenColumnMetadata(column) : new ColumnMetadata(column.name(), column.type());
    }

    /**
     * Keeps the predicate in the handle so the split manager can skip files by their statistics. Trino still applies
     * the whole predicate to the rows read.
     */
    @Override
    public Optional<io.trino.spi.connector.ConstraintApplicationResult<ConnectorTableHandle>> applyFilter(ConnectorSession session,
            ConnectorTableHandle tableHandle, io.trino.spi.connector.Constraint constraint)
    {
        if (tableHandle instanceof ChangeFeedTableHandle changes) {
            return ChangeFeedPushdown.applyFilter(changes, constraint);
        }
        if (!(tableHandle instanceof MoraineTableHandle table)) {
            return Optional.empty();
        }
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
        if (!(tableHandle instanceof MoraineTableHandle table)) {
            return Optional.empty();
        }
        if (table.limit().isPresent() && table.limit().getAsLong() <= limit) {
            return Optional.empty();
        }
        return Optional.of(new io.trino.spi.connector.LimitApplicationResult<>(table.withLimit(limit), false, false));
    }

    /**
     * Row count and column statistics at the handle's snapshot, over the data files its predicate may match, as the core
     * computes them from the catalog ({@code io.moraine.core.stats}); what could be wrong there is left unknown.
     */
    @Override
    public io.trino.spi.statistics.TableStatistics getTableStatistics(ConnectorSession session, ConnectorTableHandle tableHandle)
    {
        if (!(tableHandle instanceof MoraineTableHandle table) || !MoraineSessionProperties.statisticsEnabled(session)) {
            return io.trino.spi.statistics.TableStatistics.empty();
        }
        // The projection changes no statistic: one computation serves the handle before and after it is pushed.
        return statistics.computeIfAbsent(table.withoutProjection(), this::readStatistics);
    }

    private io.trino.spi.statistics.TableStatistics readStatistics(MoraineTableHandle table)
    {
        try (CatalogSnapshot snapshot = catalog.at(table.snapshotId())) {
            MoraineTableColumns.Columns columns = tableColumns.of(table, snapshot);
            io.moraine.core.stats.TableStatistics statistics = io.moraine.core.stats.TableStatistics.of(snapshot, table.tableId(), columns.schema(),
                    TrinoFilters.toScanFilter(table.constraint()));
            return TrinoTableStatistics.toTrino(statistics, columns.handles());
        }
        catch (MoraineException e) {
            throw MoraineErrorCode.toTrino(e);
        }
    }

    /**
     * Pushes struct-field dereferences ({@code SELECT s.a}) into column handles, so a scan reads only those leaves
     * (Parquet files by field id, inlined rows from their chunks), and records the columns read in the handle, by which
     * the coordinator reads the inlined rows; see {@link DereferencePushdown}.
     */
    @Override
    public Optional<io.trino.spi.connector.ProjectionApplicationResult<ConnectorTableHandle>> applyProjection(ConnectorSession session,
            ConnectorTableHandle tableHandle, List<io.trino.spi.expression.ConnectorExpression> projections, Map<String, ColumnHandle> assignments)
    {
        if (tableHandle instanceof ChangeFeedTableHandle changes) {
            return ChangeFeedPushdown.applyProjection(changes, projections, assignments);
        }
        if (!(tableHandle instanceof MoraineTableHandle table)) {
            return Optional.empty();
        }
        return DereferencePushdown.apply(table, projections, assignments, () -> tableColumns.of(table).schema().byId());
    }

    /**
     * A change-feed call ({@link ChangeFeedFunction}) becomes a scan of a {@link ChangeFeedTableHandle}, as Trino's
     * pass-through query functions become scans, so that projections and predicates are pushed into it like any
     * table's; the columns are the function's, in its order.
     */
    @Override
    public Optional<io.trino.spi.connector.TableFunctionApplicationResult<ConnectorTableHandle>> applyTableFunction(ConnectorSession session,
            io.trino.spi.function.table.ConnectorTableFunctionHandle handle)
    {
        if (!(handle instanceof ChangeFeedFunctionHandle call)) {
            return Optional.empty();
        }
        ChangeFeedTableHandle table = call.scan();
        return Optional.of(new io.trino.spi.connector.TableFunctionApplicationResult<>(table, List.copyOf(table.allColumns())));
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
            if (defaultSnapshotTimestamp.isPresent()) {
                return catalog.asOf(defaultSnapshotTimestamp.get());
            }
            // The transaction's first read checks the store (moraine.reader-freshness); its later ones see at least as much.
            if (caughtUp) {
                return catalog.latestSeen();
            }
            CatalogSnapshot latest = catalog.latest();
            caughtUp = true;
            return latest;
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

    // ---- Writes: each maps one Trino statement onto the core's WriteTransaction (LakeWrites). ----

    private LakeWrites writes()
    {
        // A write in this transaction: its next read checks the store again, so that it sees the commit.
        caughtUp = false;
        return writes.orElseThrow(() -> new TrinoException(NOT_SUPPORTED, "this metadata view takes no writes"));
    }

    private static MoraineTableHandle lakeTable(ConnectorTableHandle handle)
    {
        if (handle instanceof MoraineTableHandle table) {
            return table;
        }
        throw new TrinoException(NOT_SUPPORTED, "only lake tables take writes; metadata tables, raw ducklake_* tables and change feeds are read-only");
    }

    @Override
    public void createSchema(ConnectorSession session, String schemaName, Map<String, Object> properties, io.trino.spi.security.TrinoPrincipal owner)
    {
        writes().commit(transaction -> transaction.createSchema(schemaName));
    }

    @Override
    public void dropSchema(ConnectorSession session, String schemaName, boolean cascade)
    {
        if (cascade) {
            throw new TrinoException(NOT_SUPPORTED, "moraine drops empty schemas only; drop the schema's tables first, then DROP SCHEMA " + schemaName + " RESTRICT");
        }
        writes().commit(transaction -> transaction.dropSchema(schemaName));
    }

    @Override
    public void createTable(ConnectorSession session, ConnectorTableMetadata tableMetadata, io.trino.spi.connector.SaveMode saveMode)
    {
        if (saveMode == io.trino.spi.connector.SaveMode.REPLACE) {
            throw new TrinoException(NOT_SUPPORTED, "moraine does not support CREATE OR REPLACE TABLE; drop the table, then create it");
        }
        SchemaTableName name = tableMetadata.getTable();
        if (saveMode == io.trino.spi.connector.SaveMode.IGNORE) {
            try (CatalogSnapshot snapshot = catalog.latest()) {
                if (snapshot.model().table(name.getSchemaName(), name.getTableName()).isPresent()) {
                    return;
                }
            }
        }
        Optional<Integer> limit = MoraineTableProperties.inliningRowLimit(tableMetadata.getProperties());
        io.moraine.core.write.NewTable table = writes().newTable(tableMetadata);
        writes().commit(transaction -> LakeWrites.createTable(transaction, table, tableMetadata));
        writes().setInliningLimit(name, limit);
    }

    @Override
    public Optional<io.trino.spi.type.Type> getSupportedType(ConnectorSession session, Map<String, Object> tableProperties, io.trino.spi.type.Type type)
    {
        return writes.flatMap(value -> value.supportedWriteType(type));
    }

    @Override
    public void dropTable(ConnectorSession session, ConnectorTableHandle tableHandle)
    {
        SchemaTableName name = lakeTable(tableHandle).name();
        writes().commit(transaction -> transaction.dropTable(name.getSchemaName(), name.getTableName()));
    }

    @Override
    public void renameTable(ConnectorSession session, ConnectorTableHandle tableHandle, SchemaTableName newTableName)
    {
        SchemaTableName name = lakeTable(tableHandle).name();
        if (!name.getSchemaName().equals(newTableName.getSchemaName())) {
            // Trino's own wording (its connector tests match it exactly): DuckLake renames a table within its schema only.
            throw new TrinoException(NOT_SUPPORTED, "This connector does not support renaming tables across schemas");
        }
        writes().commit(transaction -> transaction.renameTable(name.getSchemaName(), name.getTableName(), newTableName.getTableName()));
    }

    @Override
    public void setTableComment(ConnectorSession session, ConnectorTableHandle tableHandle, Optional<String> comment)
    {
        SchemaTableName name = lakeTable(tableHandle).name();
        writes().commit(transaction -> transaction.setComment(name.getSchemaName(), name.getTableName(), comment.orElse(null)));
    }

    @Override
    public Optional<io.trino.spi.connector.ConnectorTableExecuteHandle> getTableHandleForExecute(ConnectorSession session,
            io.trino.spi.connector.ConnectorAccessControl accessControl, ConnectorTableHandle tableHandle, String procedureName,
            Map<String, Object> executeProperties, io.trino.spi.connector.RetryMode retryMode)
    {
        TableProcedure procedure = TableProcedure.byName(procedureName)
                .orElseThrow(() -> new TrinoException(io.trino.spi.StandardErrorCode.PROCEDURE_NOT_FOUND, "moraine has no table procedure " + procedureName));
        return Optional.of(new MoraineTableExecuteHandle(lakeTable(tableHandle).name(), procedure, TableProcedure.arguments(executeProperties)));
    }

    @Override
    public Map<String, Long> executeTableExecute(ConnectorSession session, io.trino.spi.connector.ConnectorTableExecuteHandle tableExecuteHandle)
    {
        return writes().execute(session, (MoraineTableExecuteHandle) tableExecuteHandle);
    }

    @Override
    public void createView(ConnectorSession session, SchemaTableName viewName, io.trino.spi.connector.ConnectorViewDefinition definition,
            Map<String, Object> viewProperties, boolean replace)
    {
        boolean exists;
        try (CatalogSnapshot snapshot = catalog.latest()) {
            exists = TrinoViews.exists(snapshot.model(), viewName);
        }
        if (exists && !replace) {
            throw new TrinoException(io.trino.spi.StandardErrorCode.ALREADY_EXISTS, "View already exists: '" + viewName + "'");
        }
        writes().commit(transaction -> {
            if (exists) {
                transaction.dropView(viewName.getSchemaName(), viewName.getTableName());
            }
            TrinoViews.create(transaction, viewName, definition);
        });
    }

    @Override
    public void dropView(ConnectorSession session, SchemaTableName viewName)
    {
        writes().commit(transaction -> transaction.dropView(viewName.getSchemaName(), viewName.getTableName()));
    }

    @Override
    public List<SchemaTableName> listViews(ConnectorSession session, Optional<String> schemaName)
    {
        try (CatalogSnapshot snapshot = defaultSnapshot(session)) {
            return TrinoViews.list(snapshot.model(), schemaName);
        }
    }

    @Override
    public Optional<io.trino.spi.connector.ConnectorViewDefinition> getView(ConnectorSession session, SchemaTableName viewName)
    {
        try (CatalogSnapshot snapshot = defaultSnapshot(session)) {
            return TrinoViews.get(snapshot.model(), viewName);
        }
    }

    @Override
    public void setTableProperties(ConnectorSession session, ConnectorTableHandle tableHandle, Map<String, Optional<Object>> properties)
    {
        SchemaTableName name = lakeTable(tableHandle).name();
        Map<String, Object> given = new java.util.HashMap<>();
        properties.forEach((key, value) -> given.put(key, value.orElse(null)));
        boolean layoutChanged = properties.containsKey(MoraineTableProperties.PARTITIONED_BY) || properties.containsKey(MoraineTableProperties.SORTED_BY);
        if (properties.containsKey(MoraineTableProperties.DATA_INLINING_ROW_LIMIT) && given.get(MoraineTableProperties.DATA_INLINING_ROW_LIMIT) == null) {
            throw new TrinoException(io.trino.spi.StandardErrorCode.INVALID_TABLE_PROPERTY, MoraineTableProperties.DATA_INLINING_ROW_LIMIT
                    + " cannot be reset to DEFAULT: DuckLake keeps a table's option once set; set the number of rows instead (0 turns inlining off)");
        }
        Optional<Integer> limit = MoraineTableProperties.inliningRowLimit(given);
        if (layoutChanged) {
            writes().commit(transaction -> {
                if (properties.containsKey(MoraineTableProperties.PARTITIONED_BY)) {
                    transaction.setPartitioning(name.getSchemaName(), name.getTableName(), MoraineTableProperties.partitioning(given));
                }
                if (properties.containsKey(MoraineTableProperties.SORTED_BY)) {
                    transaction.setSortOrder(name.getSchemaName(), name.getTableName(), MoraineTableProperties.sortOrder(given));
                }
            });
        }
        writes().setInliningLimit(name, limit);
    }

    @Override
    public void setColumnComment(ConnectorSession session, ConnectorTableHandle tableHandle, ColumnHandle column, Optional<String> comment)
    {
        SchemaTableName name = lakeTable(tableHandle).name();
        String columnName = writableColumn(column).name();
        writes().commit(transaction -> transaction.setColumnComment(name.getSchemaName(), name.getTableName(), List.of(columnName), comment.orElse(null)));
    }

    @Override
    public void addColumn(ConnectorSession session, ConnectorTableHandle tableHandle, ColumnMetadata column, io.trino.spi.connector.ColumnPosition position)
    {
        SchemaTableName name = lakeTable(tableHandle).name();
        if (!(position instanceof io.trino.spi.connector.ColumnPosition.Last)) {
            throw new TrinoException(NOT_SUPPORTED, "moraine adds columns at the end only (DuckLake has no column order to insert into); drop FIRST/AFTER");
        }
        if (!column.isNullable()) {
            throw new TrinoException(NOT_SUPPORTED, "moraine adds nullable columns only; drop NOT NULL from column " + column.getName());
        }
        io.moraine.core.write.ColumnDefinition definition = writes().columnDefinition(column.getName(), column.getType());
        writes().commit(transaction -> {
            transaction.addColumn(name.getSchemaName(), name.getTableName(), definition);
            column.getComment().ifPresent(comment -> transaction.setColumnComment(name.getSchemaName(), name.getTableName(), List.of(column.getName()), comment));
        });
    }

    @Override
    public void dropColumn(ConnectorSession session, ConnectorTableHandle tableHandle, ColumnHandle column)
    {
        SchemaTableName name = lakeTable(tableHandle).name();
        String columnName = writableColumn(column).name();
        writes().commit(transaction -> transaction.dropColumn(name.getSchemaName(), name.getTableName(), List.of(columnName)));
    }

    @Override
    public void renameColumn(ConnectorSession session, ConnectorTableHandle tableHandle, ColumnHandle source, String target)
    {
        SchemaTableName name = lakeTable(tableHandle).name();
        String columnName = writableColumn(source).name();
        writes().commit(transaction -> transaction.renameColumn(name.getSchemaName(), name.getTableName(), List.of(columnName), target));
    }

    @Override
    public void setColumnType(ConnectorSession session, ConnectorTableHandle tableHandle, ColumnHandle column, io.trino.spi.type.Type type)
    {
        SchemaTableName name = lakeTable(tableHandle).name();
        String columnName = writableColumn(column).name();
        io.moraine.core.write.ColumnDefinition definition = writes().columnDefinition(columnName, type);
        if (!definition.children().isEmpty()) {
            throw new TrinoException(NOT_SUPPORTED, "moraine changes the type of scalar columns only; " + columnName + " would become " + type);
        }
        writes().commit(transaction -> transaction.setColumnType(name.getSchemaName(), name.getTableName(), List.of(columnName), definition.type()));
    }

    private static MoraineColumnHandle writableColumn(ColumnHandle column)
    {
        MoraineColumnHandle handle = (MoraineColumnHandle) column;
        if (handle.hiddenColumn().isPresent() || handle.isDereference()) {
            throw new TrinoException(NOT_SUPPORTED, "column " + handle.name() + " is a hidden column or a nested field; moraine changes top-level columns");
        }
        return handle;
    }

    @Override
    public io.trino.spi.connector.ConnectorOutputTableHandle beginCreateTable(ConnectorSession session, ConnectorTableMetadata tableMetadata,
            Optional<io.trino.spi.connector.ConnectorTableLayout> layout, io.trino.spi.connector.RetryMode retryMode, boolean replace)
    {
        if (replace) {
            throw new TrinoException(NOT_SUPPORTED, "moraine does not support CREATE OR REPLACE TABLE; drop the table, then create it");
        }
        if (retryMode != io.trino.spi.connector.RetryMode.NO_RETRIES) {
            throw new TrinoException(NOT_SUPPORTED, "moraine writes do not support fault-tolerant execution (retry-policy); run them with retry-policy NONE");
        }
        return writes().beginCreateTable(tableMetadata);
    }

    @Override
    public Optional<io.trino.spi.connector.ConnectorOutputMetadata> finishCreateTable(ConnectorSession session, io.trino.spi.connector.ConnectorOutputTableHandle tableHandle,
            java.util.Collection<io.airlift.slice.Slice> fragments, java.util.Collection<io.trino.spi.statistics.ComputedStatistics> computedStatistics)
    {
        MoraineWritableTableHandle handle = (MoraineWritableTableHandle) tableHandle;
        writes().finish(session, handle, fragments);
        writes().setInliningLimit(handle.name(), MoraineTableProperties.inliningRowLimit(writes().createdTableProperties()));
        return Optional.empty();
    }

    @Override
    public io.trino.spi.connector.ConnectorInsertTableHandle beginInsert(ConnectorSession session, ConnectorTableHandle tableHandle, List<ColumnHandle> columns,
            io.trino.spi.connector.RetryMode retryMode)
    {
        MoraineTableHandle table = lakeTable(tableHandle);
        if (retryMode != io.trino.spi.connector.RetryMode.NO_RETRIES) {
            throw new TrinoException(NOT_SUPPORTED, "moraine writes do not support fault-tolerant execution (retry-policy); run them with retry-policy NONE");
        }
        return writes().beginInsert(table.name(), columns.stream().map(column -> writableColumn(column).columnId()).toList());
    }

    @Override
    public Optional<io.trino.spi.connector.ConnectorOutputMetadata> finishInsert(ConnectorSession session, io.trino.spi.connector.ConnectorInsertTableHandle insertHandle,
            List<ConnectorTableHandle> sourceTableHandles, java.util.Collection<io.airlift.slice.Slice> fragments,
            java.util.Collection<io.trino.spi.statistics.ComputedStatistics> computedStatistics)
    {
        writes().finish(session, (MoraineWritableTableHandle) insertHandle, fragments);
        return Optional.empty();
    }

    // ---- Row-level changes: Trino's merge in the delete-row-and-insert-row form, as Iceberg's. ----

    @Override
    public io.trino.spi.connector.RowChangeParadigm getRowChangeParadigm(ConnectorSession session, ConnectorTableHandle tableHandle)
    {
        lakeTable(tableHandle);
        return io.trino.spi.connector.RowChangeParadigm.DELETE_ROW_AND_INSERT_ROW;
    }

    @Override
    public ColumnHandle getMergeRowIdColumnHandle(ConnectorSession session, ConnectorTableHandle tableHandle)
    {
        lakeTable(tableHandle);
        return MergeRowId.handle();
    }

    @Override
    public io.trino.spi.connector.ConnectorMergeTableHandle beginMerge(ConnectorSession session, ConnectorTableHandle tableHandle,
            Map<Integer, java.util.Collection<ColumnHandle>> updateCaseColumns, io.trino.spi.connector.RetryMode retryMode)
    {
        MoraineTableHandle table = lakeTable(tableHandle);
        if (retryMode != io.trino.spi.connector.RetryMode.NO_RETRIES) {
            throw new TrinoException(NOT_SUPPORTED, "moraine writes do not support fault-tolerant execution (retry-policy); run them with retry-policy NONE");
        }
        return new MoraineMergeTableHandle(table, writes().beginMerge(session, table.name()));
    }

    @Override
    public void finishMerge(ConnectorSession session, io.trino.spi.connector.ConnectorMergeTableHandle mergeTableHandle,
            List<ConnectorTableHandle> sourceTableHandles, java.util.Collection<io.airlift.slice.Slice> fragments,
            java.util.Collection<io.trino.spi.statistics.ComputedStatistics> computedStatistics)
    {
        writes().finish(session, ((MoraineMergeTableHandle) mergeTableHandle).write(), fragments);
    }

    @Override
    public void truncateTable(ConnectorSession session, ConnectorTableHandle tableHandle)
    {
        writes().truncate(lakeTable(tableHandle).name());
    }
}
