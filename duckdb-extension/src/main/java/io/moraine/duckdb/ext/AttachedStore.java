package io.moraine.duckdb.ext;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.inline.read.InlinedTables;
import io.moraine.core.row.ColumnNode;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.error.NotFoundException;
import io.moraine.core.catalog.NewCatalog;
import io.moraine.core.store.StoreFacts;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.SlateStore;
import io.moraine.core.store.StoreUri;
import org.apache.arrow.vector.types.pojo.Field;
import io.moraine.importer.DuckDbTypes;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One ATTACH of a moraine store: the open catalog and the tables it shows. Schema {@code main} holds the ducklake_*
 * tables and the live inlined tables, which are served row for row; the lake's user tables appear in their own
 * schemas, described but not scanned (their data is read through DuckLake).
 */
final class AttachedStore
        implements AutoCloseable
{
    static final String METADATA_SCHEMA = "main";
    private static final char SEPARATOR = '\u001f';
    private static final java.util.regex.Pattern INLINED_DATA = java.util.regex.Pattern.compile("ducklake_inlined_data_(\\d+)_(\\d+)");
    private static final java.util.regex.Pattern INLINED_DELETE = java.util.regex.Pattern.compile("ducklake_inlined_delete_(\\d+)");

    private final AttachRequest request;
    // Null while the store is new: DuckLake's bootstrap creates the catalog with its first commit.
    private volatile MoraineCatalog catalog;
    private final Map<String, ServedTable> served = new java.util.concurrent.ConcurrentSkipListMap<>();
    private final List<String> servedOrder = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final InlinedRowClaims inlinedRowClaims = new InlinedRowClaims();
    // The head snapshot at which the inlined tables were last listed (serveInlinedTablesAt); -2: at the attach.
    private volatile long inlinedTablesListedAt = -2;

    private AttachedStore(AttachRequest request, MoraineCatalog catalog)
    {
        this.request = request;
        this.catalog = catalog;
        if (catalog == null) {
            return;
        }
        for (TableKind kind : TableKind.values()) {
            serve(new CatalogTable(this, kind));
        }
        serveInlinedTables(catalog.store().latest());
    }

    private void serveInlinedTables(io.moraine.core.store.KeyValueReader reader)
    {
        for (InlinedTables.DataTable table : InlinedTables.dataTables(reader)) {
            serve(new InlinedDataTable(catalog, table));
        }
        for (InlinedTables.DeleteTable table : InlinedTables.deleteTables(reader)) {
            serve(new InlinedDeleteTable(catalog, table));
        }
    }

    /**
     * Serves the inlined tables that another process (Trino, Spark, another DuckDB) created since this attach last
     * looked, when a transaction's first read finds the store at a head it has not listed at. Done there, not when
     * DuckDB looks a name up: DuckLake probes whether an inlined delete table exists by querying it and takes any error
     * for "does not exist", so a lookup must not read the store (an interrupted read would be taken for absence).
     */
    void serveInlinedTablesAt(io.moraine.core.store.KeyValueReader view, long head)
    {
        if (catalog == null || head == inlinedTablesListedAt) {
            return;
        }
        synchronized (this) {
            if (head != inlinedTablesListedAt) {
                serveInlinedTables(view);
                inlinedTablesListedAt = head;
            }
        }
    }

    private void serve(ServedTable table)
    {
        if (served.putIfAbsent(table.name(), table) == null) {
            servedOrder.add(table.name());
        }
    }

    static AttachedStore open(AttachRequest request)
    {
        if (request.mode() == OpenMode.READ_WRITE && !SlateStore.holdsData(request.store(), request.options())) {
            // A new lake: nothing is written until a commit holds DuckLake's bootstrap (docs/duckdb.md, "A new lake").
            return new AttachedStore(request, null);
        }
        MoraineCatalog catalog;
        try {
            catalog = MoraineCatalog.open(request.store(), request.mode(), request.options(), CommitHook.fromSystemProperty());
        }
        catch (io.moraine.core.error.StoreNotFoundException e) {
            // Only a missing store: a missing checkpoint of an existing one keeps its own message.
            if (request.mode() == OpenMode.READ_WRITE) {
                throw e;
            }
            throw new NotFoundException(e.getMessage() + " A " + request.mode() + " attach never creates a store: create one with "
                    + "`bin/moraine import --source ducklake:<catalog> --store " + request.store() + "` (or attach it READ_WRITE; on s3:// DuckDB attaches "
                    + "READ_ONLY unless READ_WRITE is given).", e);
        }
        try {
            return new AttachedStore(request, catalog);
        }
        catch (RuntimeException e) {
            catalog.close();
            throw e;
        }
    }

    /**
     * The attach of the lake whose DuckLake metadata lives in schema {@code schema} of this store (DuckLake's
     * METADATA_SCHEMA; docs/duckdb.md, "Metadata schemas"): null when that lake holds nothing yet, unless
     * {@code create} (CREATE SCHEMA), which opens it as a new lake that DuckLake's bootstrap then creates.
     */
    AttachedStore metadataSchema(String schema, boolean create)
    {
        if (request.mode() == OpenMode.CHECKPOINT && !create) {
            // A checkpoint pins the store's own lake only: no other schema exists at it.
            return null;
        }
        AttachRequest schemaRequest = request.forMetadataSchema(schema);
        if (!create && !SlateStore.holdsData(schemaRequest.store(), schemaRequest.options())) {
            return null;
        }
        return open(schemaRequest);
    }

    /** The inlined rows the open transactions on this attach deleted or ended (the eager write-write conflict check). */
    InlinedRowClaims inlinedRowClaims()
    {
        return inlinedRowClaims;
    }

    boolean exists()
    {
        return catalog != null;
    }

    StoreUri uri()
    {
        return request.store();
    }

    /** Where the files this attach's commits register or schedule for deletion may live (ALLOWED_LOCATIONS). */
    io.moraine.core.catalog.AllowedLocations allowedLocations()
    {
        return request.allowedLocations();
    }

    io.moraine.core.tx.CommitPolicy commitPolicy()
    {
        return request.commitPolicy();
    }

    MoraineCatalog catalog()
    {
        MoraineCatalog open = catalog;
        if (open == null) {
            throw new NotFoundException("store " + request.store() + " holds no catalog yet: attach it through DuckLake to create the lake "
                    + "(ATTACH 'ducklake:moraine:" + request.store() + "' AS lake (DATA_PATH '<data path>')), or import one into it");
        }
        return open;
    }

    /** The newest snapshot id; -1 for a store without one (a new lake). */
    long headSnapshot()
    {
        MoraineCatalog open = catalog;
        return open == null ? -1 : open.headSnapshotId().orElse(-1);
    }

    /**
     * Every row of one catalog table (current and history, in the core's order), read through {@code reader} (null:
     * the store's latest state); none for a new lake.
     */
    List<Row> committedRows(io.moraine.core.store.KeyValueReader reader, TableKind kind)
    {
        MoraineCatalog open = catalog;
        if (open == null) {
            return List.of();
        }
        return open.everyRow(reader == null ? open.store().latest() : reader, kind);
    }

    /**
     * CREATE TABLE in the metadata schema: one of the ducklake_* tables (DuckLake's bootstrap of a new lake) or an
     * inlined data table, whose registration commits with {@code transaction}. Returns null when the table exists.
     */
    ServedTable createTable(AttachTransaction transaction, String schema, String name, org.apache.arrow.vector.types.pojo.Schema columns,
            java.util.Set<String> uuidColumns)
    {
        String table = name.toLowerCase(Locale.ROOT);
        if (!schema.equalsIgnoreCase(METADATA_SCHEMA)) {
            throw new InvalidArgumentException("CREATE TABLE " + schema + "." + name + ": a moraine catalog holds DuckLake's metadata tables in "
                    + "schema main only; user tables are created through DuckLake (ATTACH 'ducklake:moraine:" + uri() + "' AS lake)");
        }
        ServedTable existing = served.get(table);
        if (existing instanceof InlinedDataTable inlined && !inlined.isStored()) {
            // Created by a transaction that did not commit (a commit DuckLake retries re-creates it): this one registers it.
            transaction.created(inlined);
            return existing;
        }
        if (existing instanceof InlinedDeleteTable deletes && !deletes.isStored()) {
            transaction.created(deletes);
            return existing;
        }
        if ((existing instanceof InlinedDataTable inlined && !transaction.sees(inlined))
                || (existing instanceof InlinedDeleteTable deletes && !transaction.sees(deletes))) {
            // Another transaction created and committed it after this one began (both took the same table id from the
            // same snapshot): on a DuckDB catalog the two creations collide, here the later commit must retry too.
            throw new io.moraine.core.error.CommitConflictException("CREATE TABLE " + name + ": another transaction created and committed "
                    + "this table after this one began; DuckLake retries the commit on the newer snapshot");
        }
        if (existing != null) {
            return null;
        }
        java.util.regex.Matcher inlined = INLINED_DATA.matcher(table);
        if (inlined.matches()) {
            List<Field> fields = columns.getFields();
            if (fields.size() < 3 || !fields.get(0).getName().equals("row_id") || !fields.get(1).getName().equals("begin_snapshot")
                    || !fields.get(2).getName().equals("end_snapshot")) {
                throw new InvalidArgumentException("CREATE TABLE " + name + " must start with row_id, begin_snapshot, end_snapshot, as DuckLake's "
                        + "inlined data tables do");
            }
            InlinedDataTable created = InlinedDataTable.created(catalog(), new InlinedTables.DataTable(Long.parseLong(inlined.group(1)),
                    Long.parseLong(inlined.group(2))), new org.apache.arrow.vector.types.pojo.Schema(fields.subList(3, fields.size())), uuidColumns);
            transaction.created(created);
            serve(created);
            return created;
        }
        java.util.regex.Matcher deletes = INLINED_DELETE.matcher(table);
        if (deletes.matches()) {
            List<String> names = columns.getFields().stream().map(Field::getName).toList();
            if (!names.equals(List.of("file_id", "row_id", "begin_snapshot"))) {
                throw new InvalidArgumentException("CREATE TABLE " + name + " with columns " + names + ": DuckLake's inlined delete tables have "
                        + "file_id, row_id, begin_snapshot");
            }
            InlinedDeleteTable created = InlinedDeleteTable.created(catalog(), new InlinedTables.DeleteTable(Long.parseLong(deletes.group(1))));
            transaction.created(created);
            serve(created);
            return created;
        }
        TableKind kind;
        try {
            kind = TableKind.fromTableName(table);
        }
        catch (InvalidArgumentException e) {
            throw new InvalidArgumentException("CREATE TABLE " + name + ": a moraine catalog holds DuckLake's ducklake_* tables and its "
                    + "ducklake_inlined_data_<table>_<version> tables only (" + e.getMessage() + ")");
        }
        List<String> given = columns.getFields().stream().map(Field::getName).toList();
        List<String> expected = kind.columns().stream().map(io.moraine.core.row.Column::name).toList();
        if (!given.equals(expected)) {
            throw new InvalidArgumentException("CREATE TABLE " + name + " with columns " + given + ": moraine serves " + kind.tableName()
                    + " with DuckLake 1.0's columns " + expected + "; attach with a DuckLake that writes catalog format 1.0");
        }
        CatalogTable created = new CatalogTable(this, kind);
        serve(created);
        return created;
    }

    /**
     * DROP TABLE [IF EXISTS] of an inlined data table (superseded, or of a dropped table) or of a dropped table's
     * inlined delete table; false when there is no such table.
     */
    boolean dropTable(AttachTransaction transaction, String schema, String name)
    {
        ServedTable table = schema.equalsIgnoreCase(METADATA_SCHEMA) ? served.get(name.toLowerCase(Locale.ROOT)) : null;
        if (table == null) {
            return false;
        }
        switch (table) {
            case InlinedDataTable inlined -> transaction.dropped(inlined);
            case InlinedDeleteTable deletes -> transaction.dropped(deletes);
            default -> throw new InvalidArgumentException("DROP TABLE " + name + ": a moraine catalog drops only DuckLake's "
                    + "ducklake_inlined_data_* and ducklake_inlined_delete_* tables; its ducklake_* tables stay, and user tables are "
                    + "dropped through DuckLake");
        }
        served.remove(table.name());
        servedOrder.remove(table.name());
        return true;
    }

    /** Creates the catalog of a new lake from the rows DuckLake's bootstrap staged; {@code facts} are its ducklake_metadata facts. */
    void create(Map<String, String> facts, List<io.moraine.core.tx.StagedOperation> operations)
    {
        String version = facts.get(StoreFacts.VERSION);
        if (version != null && !version.equals(StoreFacts.DUCKLAKE_FORMAT)) {
            throw new InvalidArgumentException("DuckLake creates a lake in catalog format " + version + "; moraine " + MoraineCatalog.VERSION
                    + " serves format " + StoreFacts.DUCKLAKE_FORMAT + " only");
        }
        String dataPath = facts.get(StoreFacts.DATA_PATH);
        if (dataPath == null || dataPath.isEmpty()) {
            throw new InvalidArgumentException("a new moraine lake needs a data path: ATTACH 'ducklake:moraine:" + uri() + "' AS lake (DATA_PATH '<path>')");
        }
        NewCatalog options = new NewCatalog(dataPath, "true".equals(facts.get(StoreFacts.ENCRYPTED)), false,
                facts.getOrDefault(StoreFacts.CREATED_BY, NewCatalog.CREATED_BY));
        catalog = MoraineCatalog.create(request.store(), options, request.options(), operations, io.moraine.core.tx.CommitListener.NONE);
    }

    /**
     * One line per table: schema, name and "1" for a served table (its columns come as an Arrow schema), or "0"
     * followed by a user table's column names and DuckDB types, separated by U+001F.
     */
    String[] listing()
    {
        List<String> lines = new ArrayList<>();
        for (String name : servedOrder) {
            lines.add(METADATA_SCHEMA + SEPARATOR + name + SEPARATOR + "1");
        }
        if (catalog == null) {
            return lines.toArray(String[]::new);
        }
        try (CatalogSnapshot snapshot = catalog.latest()) {
            Map<Long, String> schemas = new LinkedHashMap<>();
            for (Row schema : snapshot.schemas()) {
                schemas.put(schema.getLong("schema_id"), schema.getString("schema_name"));
            }
            for (Row table : snapshot.tables()) {
                StringBuilder line = new StringBuilder(schemas.get(table.getLong("schema_id"))).append(SEPARATOR)
                        .append(table.getString("table_name")).append(SEPARATOR).append('0');
                for (ColumnNode column : snapshot.columnTree(table.getLong("table_id"))) {
                    line.append(SEPARATOR).append(column.name()).append(SEPARATOR).append(DuckDbTypes.of(column));
                }
                lines.add(line.toString());
            }
        }
        catch (NotFoundException e) {
            // A store without snapshots yet has no user tables.
        }
        return lines.toArray(String[]::new);
    }

    /**
     * True when {@code name} is served: DuckDB looks a table up by name when it binds a query, so an inlined table
     * another process created is found once a transaction's first read has served it ({@link #serveInlinedTablesAt}).
     * Reads nothing.
     */
    boolean serves(String name)
    {
        return served.containsKey(name.toLowerCase(Locale.ROOT));
    }

    ServedTable served(String schema, String table)
    {
        ServedTable found = schema.equalsIgnoreCase(METADATA_SCHEMA) ? served.get(table.toLowerCase(Locale.ROOT)) : null;
        if (found == null) {
            throw new InvalidArgumentException("table " + schema + "." + table + " is lake data, not catalog metadata: the standalone "
                    + "moraine attach serves the ducklake_* tables and the inlined tables only. Read the table through DuckLake instead: "
                    + "ATTACH 'ducklake:moraine:" + uri() + "' AS lake (DATA_PATH '" + dataPath() + "'), then "
                    + "SELECT ... FROM lake." + schema + "." + table);
        }
        return found;
    }

    private String dataPath()
    {
        String path = catalog == null ? null : catalog.facts().get("data_path");
        return path == null ? "<data path>" : path;
    }

    @Override
    public void close()
    {
        MoraineCatalog open = catalog;
        if (open != null) {
            open.close();
        }
    }
}
