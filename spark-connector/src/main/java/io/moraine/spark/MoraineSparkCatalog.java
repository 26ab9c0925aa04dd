package io.moraine.spark;

import io.moraine.core.catalog.CatalogModel;
import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.changes.ChangeFeed;
import io.moraine.core.error.MoraineException;
import io.moraine.core.write.NewTable;
import org.apache.spark.sql.catalyst.analysis.NamespaceAlreadyExistsException;
import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;
import org.apache.spark.sql.catalyst.analysis.NonEmptyNamespaceException;
import org.apache.spark.sql.catalyst.analysis.TableAlreadyExistsException;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.connector.catalog.Changelog;
import org.apache.spark.sql.connector.catalog.ChangelogContext;
import org.apache.spark.sql.connector.catalog.ChangelogRange;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.NamespaceChange;
import org.apache.spark.sql.connector.catalog.StagedTable;
import org.apache.spark.sql.connector.catalog.StagingTableCatalog;
import org.apache.spark.sql.connector.catalog.SupportsNamespaces;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.catalog.TableChange;
import org.apache.spark.sql.connector.catalog.TableInfo;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * A moraine lake as a Spark catalog: {@code spark.sql.catalog.lake=io.moraine.spark.MoraineSparkCatalog} with
 * {@code spark.sql.catalog.lake.store=<store>} (and the optional settings of {@link MoraineSettings}). Namespaces are
 * the lake's schemas, tables its tables, as of the newest snapshot (or the default one); {@code VERSION AS OF <snapshot
 * id>} and {@code TIMESTAMP AS OF} read an earlier one. DDL and appends are written through the core's write API, one
 * commit each, on a store this driver opens read-write; CTAS and RTAS are staged, the table and its rows committed
 * together ({@link MoraineStagedTable}) (docs/spark.md, "Writes").
 */
public class MoraineSparkCatalog
        implements StagingTableCatalog, SupportsNamespaces, org.apache.spark.sql.connector.catalog.FunctionCatalog
{
    private String name;
    private MoraineSettings settings;

    @Override
    public void initialize(String name, CaseInsensitiveStringMap options)
    {
        this.name = name;
        this.settings = MoraineSettings.from(options, "catalog " + name);
    }

    @Override
    public String name()
    {
        return name;
    }

    MoraineSettings settings()
    {
        return settings;
    }

    /** The catalog's one function, {@link PartitionKeyFunction}: what a write's required distribution clusters partitioned rows by. */
    @Override
    public Identifier[] listFunctions(String[] namespace)
    {
        return namespace.length == 0 ? new Identifier[] {Identifier.of(namespace, PartitionKeyFunction.NAME)} : new Identifier[0];
    }

    @Override
    public org.apache.spark.sql.connector.catalog.functions.UnboundFunction loadFunction(Identifier ident)
            throws org.apache.spark.sql.catalyst.analysis.NoSuchFunctionException
    {
        if (ident.namespace().length == 0 && ident.name().equalsIgnoreCase(PartitionKeyFunction.NAME)) {
            return new PartitionKeyFunction();
        }
        throw new org.apache.spark.sql.catalyst.analysis.NoSuchFunctionException(ident);
    }

    @Override
    public String[] defaultNamespace()
    {
        return new String[] {"main"};
    }

    @Override
    public String[][] listNamespaces()
    {
        return onDefaultSnapshot(snapshot -> snapshot.model().schemas().stream().map(schema -> new String[] {schema.name()}).toArray(String[][]::new));
    }

    @Override
    public String[][] listNamespaces(String[] namespace)
            throws NoSuchNamespaceException
    {
        if (namespace.length == 0) {
            return listNamespaces();
        }
        loadNamespaceMetadata(namespace);
        return new String[0][];
    }

    @Override
    public Map<String, String> loadNamespaceMetadata(String[] namespace)
            throws NoSuchNamespaceException
    {
        boolean exists = namespace.length == 1 && onDefaultSnapshot(snapshot -> snapshot.model().schema(namespace[0]).isPresent());
        if (!exists) {
            throw new NoSuchNamespaceException(namespace);
        }
        return Map.of();
    }

    @Override
    public Identifier[] listTables(String[] namespace)
            throws NoSuchNamespaceException
    {
        if (namespace.length != 1) {
            throw new NoSuchNamespaceException(namespace);
        }
        Optional<Identifier[]> tables = onDefaultSnapshot(snapshot -> snapshot.model().schema(namespace[0]).map(schema -> snapshot.model().tables(schema).stream()
                .map(table -> Identifier.of(namespace, table.name()))
                .toArray(Identifier[]::new)));
        return tables.orElseThrow(() -> new NoSuchNamespaceException(namespace));
    }

    @Override
    public Table loadTable(Identifier ident)
            throws NoSuchTableException
    {
        if (ident.namespace().length == 2 && ChangeFeedRequest.isIdentifierName(ident.name())) {
            return changeFeedTable(ident, ChangeFeedRequest.parse(ident.name()));
        }
        Table table = onDefaultSnapshot(snapshot -> table(snapshot, ident).orElse(null));
        if (table == null) {
            throw new NoSuchTableException(ident);
        }
        return table;
    }

    /** {@code VERSION AS OF <snapshot id>} and the {@code versionAsOf} option. */
    @Override
    public Table loadTable(Identifier ident, String version)
    {
        long snapshotId;
        try {
            snapshotId = Long.parseLong(version.strip());
        }
        catch (NumberFormatException e) {
            throw SparkErrors.invalidTimeTravel("VERSION AS OF takes a moraine snapshot id (a number), not '" + version + "'");
        }
        return atExplicitSnapshot(ident, "VERSION AS OF " + snapshotId, catalog -> catalog.at(snapshotId));
    }

    /** {@code TIMESTAMP AS OF} and the {@code timestampAsOf} option: the snapshot current at that instant (microseconds since the epoch). */
    @Override
    public Table loadTable(Identifier ident, long timestamp)
    {
        Instant instant = instant(timestamp);
        return atExplicitSnapshot(ident, "TIMESTAMP AS OF " + instant, catalog -> catalog.asOf(instant));
    }

    /**
     * {@code CHANGES FROM VERSION a TO VERSION b} / {@code FROM TIMESTAMP ...} and {@code spark.read.option("startingVersion", ...).changes(...)}:
     * the table's changes between the two bounds (inclusive unless {@code EXCLUSIVE}; no end bound reads to the newest
     * snapshot), read with the table's columns at the end. A timestamp start names the first snapshot at or after it
     * (DuckLake's rule), a timestamp end the newest at or before it.
     */
    @Override
    public Changelog loadChangelog(Identifier ident, ChangelogContext context, CaseInsensitiveStringMap options)
            throws NoSuchTableException
    {
        io.moraine.core.catalog.MoraineCatalog catalog = catalog();
        String where = "the change feed of " + name + "." + ident;
        long start;
        long end;
        try {
            switch (context.range()) {
                case ChangelogRange.VersionRange versions -> {
                    start = snapshotId(versions.startingVersion(), where) + (versions.startingBoundInclusive() ? 0 : 1);
                    end = versions.endingVersion().isPresent()
                            ? snapshotId(versions.endingVersion().get(), where) - (versions.endingBoundInclusive() ? 0 : 1)
                            : newest(catalog);
                }
                case ChangelogRange.TimestampRange times -> {
                    start = ChangeFeed.startAtOrAfter(catalog, instant(times.startingTimestamp() + (times.startingBoundInclusive() ? 0 : 1)));
                    if (times.endingTimestamp().isPresent()) {
                        try (CatalogSnapshot snapshot = catalog.asOf(instant(times.endingTimestamp().get() - (times.endingBoundInclusive() ? 0 : 1)))) {
                            end = snapshot.id();
                        }
                    }
                    else {
                        end = newest(catalog);
                    }
                }
                case ChangelogRange.UnboundedRange unbounded -> throw SparkErrors.invalidTimeTravel(where
                        + " needs a start: CHANGES FROM VERSION <snapshot id> (or startingVersion / startingTimestamp); streaming change feeds are not supported");
            }
        }
        catch (MoraineException e) {
            throw SparkErrors.invalidTimeTravel(where + ": " + e.getMessage());
        }
        boolean endNamed = switch (context.range()) {
            case ChangelogRange.VersionRange versions -> versions.endingVersion().isPresent();
            case ChangelogRange.TimestampRange times -> times.endingTimestamp().isPresent();
            case ChangelogRange.UnboundedRange unbounded -> false;
        };
        return new MoraineChangelog(feedTable(ident, start, end, endNamed, where), start);
    }

    /**
     * The readChangeFeed options of {@code format("moraine")} ({@link ChangeFeedRequest}): the table's changes with
     * updates paired by the core, as {@link #loadChangelog} resolves the bounds (a version bound is inclusive).
     */
    private Table changeFeedTable(Identifier ident, ChangeFeedRequest request)
    {
        Identifier table = Identifier.of(new String[] {ident.namespace()[0]}, ident.namespace()[1]);
        io.moraine.core.catalog.MoraineCatalog catalog = catalog();
        String where = "the change feed (readChangeFeed) of " + name + "." + table;
        long start;
        long end;
        try {
            start = request.start().version() ? request.start().value() : ChangeFeed.startAtOrAfter(catalog, instant(request.start().value()));
            if (request.end().isEmpty()) {
                end = newest(catalog);
            }
            else if (request.end().get().version()) {
                end = request.end().get().value();
            }
            else {
                try (CatalogSnapshot snapshot = catalog.asOf(instant(request.end().get().value()))) {
                    end = snapshot.id();
                }
            }
        }
        catch (MoraineException e) {
            throw SparkErrors.invalidTimeTravel(where + ": " + e.getMessage());
        }
        return new MoraineChangeFeedTable(feedTable(table, start, end, request.end().isPresent(), where), start);
    }

    /** The table at the feed's end, once the range is known to be readable: not reversed, its start retained. */
    private MoraineTable feedTable(Identifier ident, long start, long end, boolean endNamed, String where)
    {
        // Without an end bound, a start after the newest snapshot is one that does not exist (refused below).
        if (start > end && endNamed) {
            throw SparkErrors.invalidTimeTravel(where + " is reversed: it starts at snapshot " + start + " and ends at snapshot " + end
                    + "; name the earlier snapshot first");
        }
        Table table = loadTable(ident, Long.toString(end));
        if (!(table instanceof MoraineTable data)) {
            throw SparkErrors.unsupported(name + "." + ident + " is a metadata table and has no change feed");
        }
        try (CatalogSnapshot endSnapshot = catalog().at(end)) {
            // Refuses an expired or unknown start, naming the snapshots there are.
            ChangeFeed.forTable(endSnapshot, data.tableId(), start);
        }
        catch (MoraineException e) {
            throw SparkErrors.invalidTimeTravel(where + ": " + e.getMessage());
        }
        return data;
    }

    private static long snapshotId(String version, String where)
    {
        try {
            return Long.parseLong(version.strip());
        }
        catch (NumberFormatException e) {
            throw SparkErrors.invalidTimeTravel(where + " is bounded by moraine snapshot ids (numbers), not '" + version + "'");
        }
    }

    private static long newest(io.moraine.core.catalog.MoraineCatalog catalog)
    {
        try (CatalogSnapshot latest = catalog.latest()) {
            return latest.id();
        }
    }

    private static Instant instant(long micros)
    {
        return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000L);
    }

    private Table atExplicitSnapshot(Identifier ident, String asOf, Function<io.moraine.core.catalog.MoraineCatalog, CatalogSnapshot> resolve)
    {
        CatalogSnapshot snapshot;
        try {
            snapshot = resolve.apply(catalog());
        }
        catch (MoraineException e) {
            throw SparkErrors.invalidTimeTravel(asOf + " on " + name + "." + ident + ": " + e.getMessage());
        }
        try (snapshot) {
            return table(snapshot, ident).orElseThrow(() -> SparkErrors.analysis("MORAINE_TABLE_NOT_FOUND", "42P01", "table " + name + "." + ident
                    + " does not exist at snapshot " + snapshot.id() + " (" + asOf + ")"));
        }
        catch (MoraineException e) {
            throw SparkErrors.of(e);
        }
    }

    /** The table {@code <schema>.<table>}, or the metadata table {@code <schema>.<table>.<snapshots|files>}, at the snapshot. */
    private Optional<Table> table(CatalogSnapshot snapshot, Identifier ident)
    {
        String[] namespace = ident.namespace();
        if (namespace.length == 2) {
            return dataTable(snapshot, namespace[0], namespace[1]).flatMap(table -> MetadataTable.of(ident.name(), table, snapshot));
        }
        if (namespace.length != 1) {
            return Optional.empty();
        }
        return dataTable(snapshot, namespace[0], ident.name()).map(Table.class::cast);
    }

    private Optional<MoraineTable> dataTable(CatalogSnapshot snapshot, String schemaName, String tableName)
    {
        CatalogModel model = snapshot.model();
        return model.table(schemaName, tableName)
                .map(table -> new MoraineTable(settings, name, schemaName, tableName, table.id(), snapshot.id(), model.columns(table)));
    }

    private <T> T onDefaultSnapshot(Function<CatalogSnapshot, T> action)
    {
        try (CatalogSnapshot snapshot = defaultSnapshot()) {
            return action.apply(snapshot);
        }
        catch (MoraineException e) {
            throw SparkErrors.of(e);
        }
    }

    /** The snapshot read when a query names none: the default snapshot setting, or the newest. */
    private CatalogSnapshot defaultSnapshot()
    {
        io.moraine.core.catalog.MoraineCatalog catalog = catalog();
        if (settings.defaultSnapshotId().isPresent()) {
            return catalog.at(settings.defaultSnapshotId().get());
        }
        return settings.defaultSnapshotTimestamp().map(catalog::asOf).orElseGet(catalog::latest);
    }

    private io.moraine.core.catalog.MoraineCatalog catalog()
    {
        try {
            return OpenStores.catalog(settings);
        }
        catch (MoraineException e) {
            throw SparkErrors.analysis("MORAINE_STORE_UNAVAILABLE", "08001", "catalog " + name + " cannot open the moraine store " + settings.store()
                    + ": " + e.getMessage() + ". Check spark.sql.catalog." + name + ".store", e);
        }
    }

    @Override
    public Table createTable(Identifier ident, StructType schema, Transform[] partitions, Map<String, String> properties)
            throws TableAlreadyExistsException, NoSuchNamespaceException
    {
        TableInfo.Builder info = new TableInfo.Builder().withPartitions(partitions);
        info.withSchema(schema);
        info.withProperties(properties);
        return createTable(ident, info.build());
    }

    /** CREATE TABLE: one commit creating the table, then one per lake option among its properties. */
    @Override
    public Table createTable(Identifier ident, TableInfo info)
            throws TableAlreadyExistsException, NoSuchNamespaceException
    {
        String[] names = tableName(ident);
        String table = name + "." + ident;
        Map<String, String> options = TableProperties.lakeOptions(info.properties(), table);
        NewTable created = newTable(names, info, table);
        CatalogWrites.commit(writer(), "CREATE TABLE " + table, transaction -> transaction.createTable(created));
        options.forEach((key, value) -> CatalogWrites.setTableOption(writer(), names[0], names[1], key, value, table));
        try {
            return loadTable(ident);
        }
        catch (NoSuchTableException e) {
            throw new IllegalStateException("table " + table + " was created but cannot be loaded", e);
        }
    }

    /** CREATE TABLE AS SELECT, {@code df.writeTo(t).create()}: the table and its rows in one commit ({@link MoraineStagedTable}). */
    @Override
    public StagedTable stageCreate(Identifier ident, TableInfo info)
            throws TableAlreadyExistsException, NoSuchNamespaceException
    {
        if (tableExists(ident)) {
            throw new TableAlreadyExistsException(ident);
        }
        return stage(ident, info, false, "CREATE TABLE " + name + "." + ident + " AS SELECT");
    }

    /** REPLACE TABLE AS SELECT, {@code df.writeTo(t).replace()}: the old table dropped, the new one created and filled, in one commit. */
    @Override
    public StagedTable stageReplace(Identifier ident, TableInfo info)
            throws NoSuchNamespaceException, NoSuchTableException
    {
        if (!tableExists(ident)) {
            throw new NoSuchTableException(ident);
        }
        return stage(ident, info, true, "REPLACE TABLE " + name + "." + ident + " AS SELECT");
    }

    /** CREATE OR REPLACE TABLE AS SELECT, {@code df.writeTo(t).createOrReplace()}: as {@link #stageReplace} when the table exists, else {@link #stageCreate}. */
    @Override
    public StagedTable stageCreateOrReplace(Identifier ident, TableInfo info)
            throws NoSuchNamespaceException
    {
        boolean exists = tableExists(ident);
        return stage(ident, info, exists, (exists ? "REPLACE" : "CREATE") + " TABLE " + name + "." + ident + " AS SELECT");
    }

    @Override
    public StagedTable stageCreate(Identifier ident, StructType schema, Transform[] partitions, Map<String, String> properties)
            throws TableAlreadyExistsException, NoSuchNamespaceException
    {
        return stageCreate(ident, new TableInfo.Builder().withSchema(schema).withPartitions(partitions).withProperties(properties).build());
    }

    @Override
    public StagedTable stageReplace(Identifier ident, StructType schema, Transform[] partitions, Map<String, String> properties)
            throws NoSuchNamespaceException, NoSuchTableException
    {
        return stageReplace(ident, new TableInfo.Builder().withSchema(schema).withPartitions(partitions).withProperties(properties).build());
    }

    @Override
    public StagedTable stageCreateOrReplace(Identifier ident, StructType schema, Transform[] partitions, Map<String, String> properties)
            throws NoSuchNamespaceException
    {
        return stageCreateOrReplace(ident, new TableInfo.Builder().withSchema(schema).withPartitions(partitions).withProperties(properties).build());
    }

    /** Begins the transaction that creates the table (dropping the old one first when {@code replace}); its commit is the staged table's. */
    private StagedTable stage(Identifier ident, TableInfo info, boolean replace, String statement)
    {
        String[] names = tableName(ident);
        String table = name + "." + ident;
        if (settings.readOnly()) {
            throw SparkErrors.readOnly(statement);
        }
        Map<String, String> options = TableProperties.lakeOptions(info.properties(), table);
        NewTable created = newTable(names, info, table);
        io.moraine.core.catalog.MoraineCatalog writer = writer();
        io.moraine.core.write.WriteTransaction transaction;
        try {
            transaction = io.moraine.core.write.WriteTransaction.begin(writer,
                    new HadoopLakeFileSystem(io.moraine.spark.files.LakeObjectFileSystems.configure(org.apache.spark.sql.SparkSession.active().sessionState().newHadoopConf())));
        }
        catch (MoraineException e) {
            throw SparkErrors.of(e);
        }
        return CatalogWrites.build(transaction, () -> {
            if (replace) {
                transaction.dropTable(names[0], names[1]);
            }
            transaction.createTable(created);
            var columns = transaction.dataFileLayout(names[0], names[1]).columns();
            MoraineTable staged = new MoraineTable(settings, name, names[0], names[1], -1, transaction.readSnapshotId(), columns);
            return new MoraineStagedTable(staged, transaction, statement, options,
                    () -> options.forEach((key, value) -> CatalogWrites.setTableOption(writer(), names[0], names[1], key, value, table)));
        });
    }

    private static NewTable newTable(String[] names, TableInfo info, String table)
    {
        NewTable newTable = NewTable.of(names[0], names[1], SparkColumnDefinitions.of(info.columns(), table))
                .partitionedBy(SparkPartitionFields.of(info.partitions(), table));
        String comment = info.properties().get(TableCatalog.PROP_COMMENT);
        return comment == null ? newTable : newTable.withComment(comment);
    }

    /** ALTER TABLE: the column and comment changes in one commit, then one per lake option set. */
    @Override
    public Table alterTable(Identifier ident, TableChange... changes)
            throws NoSuchTableException
    {
        String[] names = tableName(ident);
        String table = name + "." + ident;
        loadTable(ident);
        TableAlterations alterations = TableAlterations.of(names[0], names[1], table, changes);
        if (alterations.hasSchemaChanges()) {
            CatalogWrites.commit(writer(), "ALTER TABLE " + table, alterations::applyTo);
        }
        alterations.lakeOptions().forEach((key, value) -> CatalogWrites.setTableOption(writer(), names[0], names[1], key, value, table));
        return loadTable(ident);
    }

    @Override
    public boolean dropTable(Identifier ident)
    {
        if (ident.namespace().length != 1 || !tableExists(ident)) {
            return false;
        }
        CatalogWrites.commit(writer(), "DROP TABLE " + name + "." + ident, transaction -> transaction.dropTable(ident.namespace()[0], ident.name()));
        return true;
    }

    @Override
    public void renameTable(Identifier oldIdent, Identifier newIdent)
            throws NoSuchTableException, TableAlreadyExistsException
    {
        String[] names = tableName(oldIdent);
        loadTable(oldIdent);
        if (newIdent.namespace().length == 1 && !newIdent.namespace()[0].equals(names[0])) {
            throw SparkErrors.unsupported("renaming " + name + "." + oldIdent + " to " + newIdent + " moves it to another schema, which DuckLake "
                    + "does not do; rename it within schema " + names[0]);
        }
        CatalogWrites.commit(writer(), "ALTER TABLE " + name + "." + oldIdent + " RENAME TO " + newIdent.name(),
                transaction -> transaction.renameTable(names[0], names[1], newIdent.name()));
    }

    @Override
    public void createNamespace(String[] namespace, Map<String, String> metadata)
            throws NamespaceAlreadyExistsException
    {
        if (namespace.length != 1) {
            throw SparkErrors.unsupported("CREATE NAMESPACE " + String.join(".", namespace) + ": DuckLake schemas are not nested; name one schema");
        }
        if (namespaceExists(namespace)) {
            throw new NamespaceAlreadyExistsException(namespace);
        }
        CatalogWrites.commit(writer(), "CREATE NAMESPACE " + namespace[0], transaction -> transaction.createSchema(namespace[0]));
    }

    @Override
    public void alterNamespace(String[] namespace, NamespaceChange... changes)
    {
        throw SparkErrors.unsupported("ALTER NAMESPACE " + String.join(".", namespace) + ": DuckLake schemas have no properties to change");
    }

    /** DROP NAMESPACE; with CASCADE its tables are dropped in the same commit. */
    @Override
    public boolean dropNamespace(String[] namespace, boolean cascade)
            throws NoSuchNamespaceException, NonEmptyNamespaceException
    {
        if (!namespaceExists(namespace)) {
            return false;
        }
        Identifier[] tables = listTables(namespace);
        if (tables.length > 0 && !cascade) {
            throw new NonEmptyNamespaceException(namespace);
        }
        CatalogWrites.commit(writer(), "DROP NAMESPACE " + namespace[0], transaction -> {
            for (Identifier table : tables) {
                transaction.dropTable(namespace[0], table.name());
            }
            transaction.dropSchema(namespace[0]);
        });
        return true;
    }

    private String[] tableName(Identifier ident)
    {
        if (ident.namespace().length != 1) {
            throw SparkErrors.unsupported("table " + name + "." + ident + " is not <schema>.<table>; moraine tables live in exactly one schema");
        }
        return new String[] {ident.namespace()[0], ident.name()};
    }

    /** The store opened read-write in this driver, for DDL and commits of writes. */
    io.moraine.core.catalog.MoraineCatalog writer()
    {
        return writer(settings, name);
    }

    /** The store of catalog {@code name} opened read-write in this driver; refused for a read-only or fixed-snapshot catalog. */
    static io.moraine.core.catalog.MoraineCatalog writer(MoraineSettings settings, String name)
    {
        if (settings.checkpointId().isPresent() || settings.defaultSnapshotId().isPresent() || settings.defaultSnapshotTimestamp().isPresent()) {
            throw SparkErrors.unsupported("catalog " + name + " reads a fixed snapshot (checkpoint-id, default-snapshot-id or default-snapshot-timestamp); "
                    + "it cannot write. Write through a catalog without those settings");
        }
        try {
            return OpenStores.writer(settings);
        }
        catch (MoraineException e) {
            throw SparkErrors.analysis("MORAINE_STORE_UNAVAILABLE", "08001", "catalog " + name + " cannot open the moraine store " + settings.store()
                    + " for writing: " + e.getMessage() + ". Check spark.sql.catalog." + name + ".store", e);
        }
    }
}
