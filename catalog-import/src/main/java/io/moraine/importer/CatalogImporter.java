package io.moraine.importer;

import io.moraine.core.row.Column;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.catalog.NewCatalog;
import io.moraine.core.row.Row;
import io.moraine.core.store.StoreFacts;
import io.moraine.core.row.TableKind;
import io.moraine.core.error.AlreadyExistsException;
import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.error.MigrationException;
import io.moraine.core.error.StoreException;
import io.moraine.core.keyspace.Micros;
import io.moraine.core.store.SlateStore;
import io.moraine.core.store.StoreOptions;
import io.moraine.core.store.StoreUri;
import io.moraine.core.tx.CommitListener;
import io.moraine.core.tx.InlineOperation;
import io.moraine.core.tx.StagedOperation;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import static java.util.Objects.requireNonNull;

/**
 * Copies a DuckLake 1.0 catalog (in a DuckDB file, SQLite or PostgreSQL) into a new moraine store: every
 * {@code ducklake_*} row, current and history, verbatim. Data files are not copied; {@code data_path} keeps pointing
 * where they are, or to the given override. Inlined rows (ducklake_inlined_data_* and ducklake_inlined_delete_*) go to
 * moraine's inline subspace, read through DuckDB's Arrow export. The import is all-or-nothing: the rows are read first, then written as one
 * durable batch together with the store's format record, so a failure leaves no catalog behind.
 */
public final class CatalogImporter
{
    private static final String SOURCE_ALIAS = "moraine_import_source";

    /** Observes an import's progress. */
    public interface Progress
    {
        Progress SILENT = (table, rows) -> {};

        void tableRead(String table, long rows);
    }

    /** What an import copied. */
    public record Result(StoreUri store, long headSnapshotId, Map<TableKind, Long> rowsPerTable)
    {
        public long totalRows()
        {
            return rowsPerTable.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    private CatalogImporter() {}

    public static Result importCatalog(DuckLakeSource source, StoreUri target, Optional<String> dataPath, Progress progress)
    {
        return importCatalog(source, target, dataPath, StoreOptions.DEFAULTS, progress);
    }

    /** Imports with the target store opened under {@code storeOptions} (its timeout bounds every store call). */
    public static Result importCatalog(DuckLakeSource source, StoreUri target, Optional<String> dataPath, StoreOptions storeOptions, Progress progress)
    {
        return importCatalog(source, target, dataPath, storeOptions, progress, CommitListener.NONE);
    }

    static Result importCatalog(DuckLakeSource source, StoreUri target, Optional<String> dataPath, Progress progress, CommitListener listener)
    {
        return importCatalog(source, target, dataPath, StoreOptions.DEFAULTS, progress, listener);
    }

    private static Result importCatalog(DuckLakeSource source, StoreUri target, Optional<String> dataPath, StoreOptions storeOptions, Progress progress,
            CommitListener listener)
    {
        requireNonNull(source, "source is null");
        requireNonNull(target, "target is null");
        if (SlateStore.holdsData(target, storeOptions)) {
            throw new AlreadyExistsException("target store " + target + " is not empty; import into an empty store (a new "
                    + "path, bucket prefix or memory name)");
        }
        List<StagedOperation> operations = new ArrayList<>();
        Map<TableKind, Long> counts = new EnumMap<>(TableKind.class);
        try (Connection connection = openSource(source)) {
            String schema = metadataSchema(connection, source);
            requireFormat10(connection, schema, source);
            for (TableKind kind : TableKind.values()) {
                long rows = readTable(connection, schema, kind, operations);
                counts.put(kind, rows);
                progress.tableRead(kind.tableName(), rows);
            }
            operations.addAll(readInlinedTables(connection, schema, source, operations, progress));
        }
        catch (SQLException e) {
            throw new StoreException("reading source catalog " + source.text() + " failed: " + e.getMessage().strip(), e);
        }
        dataPath.ifPresent(path -> operations.add(new StagedOperation.Update(TableKind.METADATA,
                java.util.Arrays.asList(StoreFacts.DATA_PATH, null, null), Map.of("value", path.endsWith("/") ? path : path + "/"), Optional.empty())));
        NewCatalog options = new NewCatalog(dataPath.orElse("/"), false, false, NewCatalog.CREATED_BY);
        try (MoraineCatalog catalog = MoraineCatalog.create(target, options, storeOptions, operations, listener)) {
            return new Result(target, catalog.headSnapshotId().orElse(-1), counts);
        }
    }

    private static Connection openSource(DuckLakeSource source)
            throws SQLException
    {
        Connection connection = source.kind().extension().isEmpty()
                ? DuckDbConnections.open("", "ducklake")
                : DuckDbConnections.open("", source.kind().extension());
        try (Statement statement = connection.createStatement()) {
            statement.execute(source.attachStatement(SOURCE_ALIAS));
        }
        catch (SQLException e) {
            connection.close();
            throw new InvalidArgumentException("cannot open source catalog " + source.text() + ": " + e.getMessage().strip()
                    + ". Check that it exists and is reachable.", e);
        }
        return connection;
    }

    private static String metadataSchema(Connection connection, DuckLakeSource source)
            throws SQLException
    {
        try (Statement statement = connection.createStatement();
                ResultSet resultSet = statement.executeQuery("SELECT schema_name FROM duckdb_tables() WHERE database_name = '"
                        + SOURCE_ALIAS + "' AND table_name = 'ducklake_metadata' ORDER BY schema_name = 'main' DESC, schema_name = 'public' DESC")) {
            if (!resultSet.next()) {
                throw new InvalidArgumentException("source " + source.text() + " is not a DuckLake catalog: it has no "
                        + "ducklake_metadata table. Name the catalog database DuckLake attaches (the file or connection "
                        + "after 'ducklake:').");
            }
            return resultSet.getString(1);
        }
    }

    private static void requireFormat10(Connection connection, String schema, DuckLakeSource source)
            throws SQLException
    {
        String version = null;
        try (Statement statement = connection.createStatement();
                ResultSet resultSet = statement.executeQuery("SELECT CAST(value AS VARCHAR) FROM " + table(schema, "ducklake_metadata")
                        + " WHERE key = 'version' AND scope IS NULL")) {
            if (resultSet.next()) {
                version = resultSet.getString(1);
            }
        }
        if (!StoreFacts.DUCKLAKE_FORMAT.equals(version)) {
            throw new MigrationException("source catalog " + source.text() + " has DuckLake format " + version + "; moraine "
                    + "imports format " + StoreFacts.DUCKLAKE_FORMAT + ". Migrate it first with DuckDB 1.5 and DuckLake "
                    + "(ATTACH it with AUTOMATIC_MIGRATION), then import again.");
        }
    }

    /**
     * Every inlined data table registered in ducklake_inlined_data_tables (a registered table that no longer exists
     * is skipped, as DuckLake does after a concurrent flush) and every ducklake_inlined_delete table.
     */
    private static List<StagedOperation> readInlinedTables(Connection connection, String schema, DuckLakeSource source,
            List<StagedOperation> catalogRows, Progress progress)
            throws SQLException
    {
        java.util.Set<String> physical = new java.util.HashSet<>();
        try (Statement statement = connection.createStatement();
                ResultSet resultSet = statement.executeQuery("SELECT table_name FROM duckdb_tables() WHERE database_name = '"
                        + SOURCE_ALIAS + "' AND schema_name = '" + schema.replace("'", "''") + "' AND table_name LIKE 'ducklake_inlined_%'")) {
            while (resultSet.next()) {
                physical.add(resultSet.getString(1));
            }
        }
        List<Row> rows = catalogRows.stream()
                .map(operation -> ((StagedOperation.Insert) operation).row())
                .toList();
        InlinedDataImport inlined = new InlinedDataImport(connection);
        List<StagedOperation> operations = new ArrayList<>();
        for (Row registration : rows.stream().filter(row -> row.kind() == TableKind.INLINED_DATA_TABLES).toList()) {
            String name = registration.getString("table_name");
            if (!physical.contains(name)) {
                continue;
            }
            long tableId = registration.getLong("table_id");
            long version = registration.getLong("schema_version");
            List<String> columns = source.kind() == DuckLakeSource.Kind.DUCKDB
                    ? physicalUserColumns(connection, schema, name)
                    : castUserColumns(rows, tableId, version, physicalUserColumns(connection, schema, name));
            List<InlineOperation> tableOperations = inlined.dataTable(tableId, version, table(schema, name), columns);
            operations.addAll(tableOperations);
            progress.tableRead(name, tableOperations.stream().filter(op -> op instanceof InlineOperation.InsertChunk)
                    .mapToLong(op -> ((InlineOperation.InsertChunk) op).rowCount()).sum());
        }
        for (String name : physical) {
            if (name.startsWith("ducklake_inlined_delete_")) {
                long tableId = Long.parseLong(name.substring("ducklake_inlined_delete_".length()));
                operations.addAll(inlined.deleteTable(tableId, table(schema, name)));
                progress.tableRead(name, 0);
            }
        }
        return operations;
    }

    private static List<String> physicalUserColumns(Connection connection, String schema, String table)
            throws SQLException
    {
        List<String> columns = new ArrayList<>();
        try (Statement statement = connection.createStatement();
                ResultSet resultSet = statement.executeQuery("SELECT column_name FROM duckdb_columns() WHERE database_name = '"
                        + SOURCE_ALIAS + "' AND schema_name = '" + schema.replace("'", "''") + "' AND table_name = '" + table
                        + "' ORDER BY column_index")) {
            while (resultSet.next()) {
                String column = resultSet.getString(1);
                if (!List.of("row_id", "begin_snapshot", "end_snapshot").contains(column)) {
                    columns.add(DuckDbTypes.quote(column));
                }
            }
        }
        return columns;
    }

    /**
     * SQLite and PostgreSQL catalogs keep non-native values as text: cast each user column back to its type as of the
     * inlined table's schema version (the columns visible at the first snapshot of that version, reference §3.1).
     */
    private static List<String> castUserColumns(List<Row> rows, long tableId, long schemaVersion, List<String> quotedColumns)
    {
        long versionSnapshot = rows.stream()
                .filter(row -> row.kind() == TableKind.SNAPSHOT && row.getLong("schema_version") <= schemaVersion)
                .mapToLong(row -> row.getLong("schema_version") == schemaVersion ? row.getLong("snapshot_id") : Long.MIN_VALUE)
                .filter(id -> id != Long.MIN_VALUE)
                .min()
                .orElseGet(() -> rows.stream().filter(row -> row.kind() == TableKind.SNAPSHOT && row.getLong("schema_version") <= schemaVersion)
                        .mapToLong(row -> row.getLong("snapshot_id")).max().orElse(Long.MAX_VALUE));
        List<Row> columns = rows.stream()
                .filter(row -> row.kind() == TableKind.COLUMN && row.getLong("table_id") == tableId && row.isVisibleAt(versionSnapshot))
                .sorted(java.util.Comparator.comparing((Row row) -> row.getLong("parent_column"), java.util.Comparator.nullsFirst(java.util.Comparator.naturalOrder()))
                        .thenComparing(row -> row.getLong("column_order")))
                .toList();
        Map<String, String> types = new java.util.HashMap<>();
        for (io.moraine.core.row.ColumnNode node : io.moraine.core.row.ColumnNode.assemble(columns)) {
            types.put(DuckDbTypes.quote(node.name()), DuckDbTypes.of(node));
        }
        return quotedColumns.stream()
                .map(column -> types.containsKey(column) ? "CAST(" + column + " AS " + types.get(column) + ") AS " + column : column)
                .toList();
    }

    private static long readTable(Connection connection, String schema, TableKind kind, List<StagedOperation> operations)
            throws SQLException
    {
        List<Column> columns = kind.columns();
        List<String> expressions = columns.stream().map(CatalogImporter::canonicalExpression).toList();
        String sql = "SELECT " + String.join(", ", expressions) + " FROM " + table(schema, kind.tableName());
        long rows = 0;
        try (Statement statement = connection.createStatement(); ResultSet resultSet = statement.executeQuery(sql)) {
            while (resultSet.next()) {
                Object[] values = new Object[columns.size()];
                for (int i = 0; i < values.length; i++) {
                    values[i] = cell(resultSet, i + 1, columns.get(i));
                }
                operations.add(new StagedOperation.Insert(Row.of(kind, values)));
                rows++;
            }
        }
        return rows;
    }

    /** Reads every column in one canonical form whatever the catalog database stored (SQLite keeps text). */
    private static String canonicalExpression(Column column)
    {
        String name = "\"" + column.name() + "\"";
        return switch (column.type()) {
            case BIGINT -> "CAST(" + name + " AS BIGINT)";
            case VARCHAR -> "CAST(" + name + " AS VARCHAR)";
            case BOOLEAN -> "CAST(" + name + " AS BOOLEAN)";
            case TIMESTAMPTZ -> "epoch_us(CAST(" + name + " AS TIMESTAMPTZ))";
            case UUID -> "CAST(CAST(" + name + " AS UUID) AS VARCHAR)";
        };
    }

    private static Object cell(ResultSet resultSet, int index, Column column)
            throws SQLException
    {
        Object value = switch (column.type()) {
            case BIGINT, TIMESTAMPTZ -> resultSet.getLong(index);
            case VARCHAR, UUID -> resultSet.getString(index);
            case BOOLEAN -> resultSet.getBoolean(index);
        };
        if (resultSet.wasNull()) {
            return null;
        }
        return switch (column.type()) {
            case TIMESTAMPTZ -> Micros.toInstant((Long) value);
            case UUID -> UUID.fromString((String) value);
            default -> value;
        };
    }

    private static String table(String schema, String name)
    {
        return SOURCE_ALIAS + ".\"" + schema.replace("\"", "\"\"") + "\".\"" + name + "\"";
    }
}
