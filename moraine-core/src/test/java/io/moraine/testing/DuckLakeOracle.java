package io.moraine.testing;

import io.moraine.core.row.Column;
import io.moraine.core.row.TableKind;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Real DuckLake as the test oracle: creates a lake in a directory with DuckDB 1.5.5 and the DuckLake extension (its
 * catalog in a DuckDB file, in SQLite or in PostgreSQL), runs a scripted workload that reaches every catalog feature, and answers SQL
 * so that moraine's answers can be compared with DuckLake's. The lake is attached as {@code lake}.
 */
public final class DuckLakeOracle
        implements AutoCloseable
{
    public enum CatalogDatabase
    {
        DUCKDB, SQLITE
    }

    /** The workload, one statement a step; each DuckLake commit is one snapshot. */
    public static final List<String> WORKLOAD = List.of(
            "CREATE SCHEMA lake.sales",
            "CREATE TABLE lake.sales.orders (id INTEGER, customer VARCHAR, amount DECIMAL(12, 2), ordered_at TIMESTAMPTZ, "
                    + "tags VARCHAR[], address STRUCT(city VARCHAR, zip INTEGER), attrs MAP(VARCHAR, INTEGER), uid UUID, "
                    + "payload BLOB, wait INTERVAL)",
            // Large enough to write Parquet.
            "INSERT INTO lake.sales.orders SELECT i, 'customer-' || (i % 97), (i * 1.25)::DECIMAL(12, 2), "
                    + "TIMESTAMPTZ '2026-01-01 00:00:00+00' + INTERVAL (i) MINUTE, ['t' || (i % 3), 'x'], "
                    + "{'city': 'city-' || (i % 5), 'zip': 1000 + i % 50}, MAP {'k': i % 7}, "
                    + "('00000000-0000-0000-0000-' || lpad(i::VARCHAR, 12, '0'))::UUID, encode('p' || i), "
                    + "INTERVAL (i % 30) DAY FROM range(5000) t(i)",
            // Small enough to be inlined.
            "INSERT INTO lake.sales.orders VALUES (100001, 'small-a', 10.50, TIMESTAMPTZ '2026-02-01 10:00:00+00', ['s'], "
                    + "{'city': 'inline', 'zip': 1}, MAP {'a': 1}, '00000000-0000-0000-0000-000000000001', '\\xAA\\xBB'::BLOB, INTERVAL 1 HOUR), "
                    + "(100002, 'small-b', 20.00, NULL, [], NULL, NULL, NULL, NULL, NULL)",
            "DELETE FROM lake.sales.orders WHERE id % 7 = 0 AND id < 5000",
            "DELETE FROM lake.sales.orders WHERE id = 100002",
            "UPDATE lake.sales.orders SET amount = amount + 1 WHERE id < 40",
            "UPDATE lake.sales.orders SET customer = 'small-a2' WHERE id = 100001",
            "ALTER TABLE lake.sales.orders ADD COLUMN note VARCHAR DEFAULT 'n/a'",
            "ALTER TABLE lake.sales.orders RENAME COLUMN customer TO client",
            "ALTER TABLE lake.sales.orders DROP COLUMN wait",
            "ALTER TABLE lake.sales.orders ALTER COLUMN id TYPE BIGINT",
            "INSERT INTO lake.sales.orders (id, client, amount, note) VALUES (100003, 'after-alter', 3.00, 'late')",
            "CREATE VIEW lake.sales.big_orders AS SELECT id, client, amount FROM lake.sales.orders WHERE amount > 100",
            "COMMENT ON TABLE lake.sales.orders IS 'all orders'",
            "COMMENT ON COLUMN lake.sales.orders.amount IS 'in EUR'",
            "CREATE TABLE lake.main.events (ts TIMESTAMP, kind VARCHAR, v INTEGER)",
            "ALTER TABLE lake.main.events SET PARTITIONED BY (year(ts), kind)",
            "INSERT INTO lake.main.events SELECT TIMESTAMP '2024-06-01' + INTERVAL (i) DAY, 'k' || (i % 3), i FROM range(800) t(i)",
            "INSERT INTO lake.main.events SELECT TIMESTAMP '2025-06-01' + INTERVAL (i) DAY, 'k' || (i % 3), i FROM range(400) t(i)",
            "DELETE FROM lake.main.events WHERE v % 10 = 0",
            "CALL ducklake_flush_inlined_data('lake')",
            "CALL ducklake_merge_adjacent_files('lake')",
            "CALL ducklake_rewrite_data_files('lake', delete_threshold => 0.0)",
            "CALL ducklake_expire_snapshots('lake', versions => [3])",
            "CREATE TABLE lake.main.dropped (a INTEGER)",
            "INSERT INTO lake.main.dropped SELECT range FROM range(3000)",
            "DROP TABLE lake.main.dropped");

    /** The workload's steps before its flush of inlined rows: after them, inlined rows and inlined deletes are live. */
    public static final List<String> WORKLOAD_BEFORE_FLUSH = WORKLOAD.subList(0, WORKLOAD.indexOf("CALL ducklake_flush_inlined_data('lake')"));

    /** The rest of the workload, from its flush on. */
    public static final List<String> WORKLOAD_FROM_FLUSH = WORKLOAD.subList(WORKLOAD_BEFORE_FLUSH.size(), WORKLOAD.size());

    private final Path directory;
    private final String catalogSpec;
    private final Connection connection;

    private DuckLakeOracle(Path directory, String catalogSpec, Connection connection)
    {
        this.directory = directory;
        this.catalogSpec = catalogSpec;
        this.connection = connection;
    }

    /** Creates an empty lake under {@code directory} and attaches it as {@code lake}. */
    public static DuckLakeOracle create(Path directory, CatalogDatabase database)
            throws SQLException
    {
        String catalogSpec = switch (database) {
            case DUCKDB -> "ducklake:" + directory.resolve("catalog.ducklake");
            case SQLITE -> "ducklake:sqlite:" + directory.resolve("catalog.sqlite");
        };
        return create(directory, catalogSpec, database == CatalogDatabase.SQLITE ? "sqlite_scanner" : null);
    }

    /**
     * Creates an empty lake whose catalog DuckLake keeps in a PostgreSQL database ({@code conninfo}, libpq's
     * key=value form, e.g. a {@link PostgresServer}'s), its data under {@code directory}.
     */
    public static DuckLakeOracle createOnPostgres(Path directory, String conninfo)
            throws SQLException
    {
        return create(directory, "ducklake:postgres:" + conninfo, "postgres_scanner");
    }

    private static DuckLakeOracle create(Path directory, String catalogSpec, String scanner)
            throws SQLException
    {
        try {
            java.nio.file.Files.createDirectories(directory);
        }
        catch (java.io.IOException e) {
            throw new SQLException("cannot create the lake directory " + directory, e);
        }
        Connection connection = DuckDbTesting.openWithDuckLake();
        try (Statement statement = connection.createStatement()) {
            statement.execute("SET TimeZone = 'UTC'");
            statement.execute("SET threads = 1"); // DuckLake's catalog cache race after writes (RFC 0006)
            if (scanner != null) {
                statement.execute("LOAD " + scanner);
            }
            DuckLakeOracle oracle = new DuckLakeOracle(directory, catalogSpec, connection);
            statement.execute("ATTACH '" + oracle.catalogSpec() + "' AS lake (DATA_PATH '" + oracle.dataPath() + "/')");
            return oracle;
        }
        catch (SQLException e) {
            connection.close();
            throw e;
        }
    }

    /** The catalog in DuckLake's ATTACH syntax, e.g. {@code ducklake:sqlite:/tmp/x/catalog.sqlite}. */
    public String catalogSpec()
    {
        return catalogSpec;
    }

    public Path dataPath()
    {
        return directory.resolve("data");
    }

    public Connection connection()
    {
        return connection;
    }

    public void execute(String sql)
            throws SQLException
    {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
        catch (SQLException e) {
            throw new SQLException("oracle statement failed: " + sql + ": " + e.getMessage(), e);
        }
    }

    public void runWorkload()
            throws SQLException
    {
        run(WORKLOAD);
    }

    /** Runs {@code steps} in order, each with {@link #execute}. */
    public void run(List<String> steps)
            throws SQLException
    {
        for (String step : steps) {
            execute(step);
        }
    }

    /** Runs a query and returns its rows, every value as DuckDB's VARCHAR cast of it (NULL as null). */
    public List<List<String>> query(String sql)
            throws SQLException
    {
        List<List<String>> rows = new ArrayList<>();
        try (Statement statement = connection.createStatement(); ResultSet resultSet = statement.executeQuery(sql)) {
            ResultSetMetaData metaData = resultSet.getMetaData();
            while (resultSet.next()) {
                List<String> row = new ArrayList<>(metaData.getColumnCount());
                for (int i = 1; i <= metaData.getColumnCount(); i++) {
                    row.add(resultSet.getString(i));
                }
                rows.add(row);
            }
        }
        return rows;
    }

    /** The rows of a catalog table as DuckLake stored them, each cell canonicalized to DuckDB's text for its type. */
    public List<List<String>> catalogRows(TableKind kind)
            throws SQLException
    {
        List<String> expressions = new ArrayList<>();
        for (Column column : kind.columns()) {
            String type = switch (column.type()) {
                case BIGINT -> "BIGINT";
                case VARCHAR -> "VARCHAR";
                case BOOLEAN -> "BOOLEAN";
                case TIMESTAMPTZ -> "TIMESTAMPTZ";
                case UUID -> "UUID";
            };
            expressions.add("CAST(CAST(\"" + column.name() + "\" AS " + type + ") AS VARCHAR)");
        }
        return query("SELECT " + String.join(", ", expressions) + " FROM __ducklake_metadata_lake." + kind.tableName());
    }

    /**
     * DuckDB's own CSV of a catalog table (header + rows, in DuckLake's row order), every cell cast to the column's
     * type and then to text: what {@code CatalogDump.writeCsv} prints for the same table of an imported store.
     */
    public List<String> catalogCsv(TableKind kind)
            throws SQLException
    {
        List<String> expressions = new ArrayList<>();
        for (Column column : kind.columns()) {
            String type = column.type() == io.moraine.core.row.ColumnType.BIGINT ? "BIGINT" : column.type().name();
            expressions.add("CAST(CAST(\"" + column.name() + "\" AS " + type + ") AS VARCHAR) AS \"" + column.name() + "\"");
        }
        try {
            Path csv = java.nio.file.Files.createTempFile("oracle-" + kind.tableName(), ".csv");
            try {
                execute("COPY (SELECT " + String.join(", ", expressions) + " FROM __ducklake_metadata_lake." + kind.tableName()
                        + ") TO '" + csv + "' (FORMAT csv, HEADER true)");
                return java.nio.file.Files.readAllLines(csv);
            }
            finally {
                java.nio.file.Files.delete(csv);
            }
        }
        catch (java.io.IOException e) {
            throw new SQLException("cannot read the CSV of " + kind.tableName(), e);
        }
    }

    /**
     * Copies the lake's catalog database (as it is now) to {@code file} and returns that copy in DuckLake's ATTACH
     * syntax. A DuckDB catalog file is locked while the oracle keeps the lake attached, so importers read a copy.
     */
    public String catalogCopy(Path file)
            throws SQLException
    {
        // A new file defaults to an old storage version, which cannot hold VARIANT columns (inlined VARIANT data).
        execute("ATTACH '" + file + "' AS oracle_catalog_copy (STORAGE_VERSION 'v1.5.0')");
        execute("COPY FROM DATABASE __ducklake_metadata_lake TO oracle_catalog_copy");
        execute("DETACH oracle_catalog_copy");
        return "ducklake:" + file;
    }

    public void detach()
            throws SQLException
    {
        execute("DETACH lake");
    }

    @Override
    public void close()
            throws SQLException
    {
        connection.close();
    }
}
