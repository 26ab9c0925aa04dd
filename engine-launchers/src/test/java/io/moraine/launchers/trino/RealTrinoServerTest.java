package io.moraine.launchers.trino;

import io.moraine.core.store.StoreUri;
import io.moraine.importer.CatalogImporter;
import io.moraine.importer.DuckLakeSource;
import io.moraine.testing.DuckLakeOracle;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Trino's own server, started as an installation is (generated etc/, the moraine plugin loaded from the build's plugin
 * directory trino-plugin/target/moraine/ through Trino's plugin class loader, nothing of moraine on the server's class
 * path), answers over HTTP with Trino's JDBC driver what DuckDB + DuckLake answers on the same lake: a table at two
 * snapshots (Parquet, a delete file, inlined rows, an update), count(*), and table_changes. A jar missing from the plugin
 * directory, or a plugin class that leaks to Trino's class path, fails here and nowhere else.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RealTrinoServerTest
{
    private static final String COLUMNS = "CAST(id AS VARCHAR), customer, CAST(amount AS VARCHAR), CAST(placed AS VARCHAR)";

    @TempDir
    static Path directory;

    private DuckLakeOracle oracle;
    /** The coordinator (it runs no task) and one worker, separate processes. */
    private List<TrinoServerProcess> cluster;
    private TrinoServerProcess trino;
    private StoreUri store;
    private Connection connection;
    private long afterFirstInsert;
    private long head;
    private int comparisons;

    @BeforeAll
    void setUp()
            throws Exception
    {
        oracle = DuckLakeOracle.create(directory.resolve("lake"), DuckLakeOracle.CatalogDatabase.DUCKDB);
        oracle.execute("CREATE TABLE lake.main.orders (id INTEGER, customer VARCHAR, amount DECIMAL(10, 2), placed DATE)");
        oracle.execute("INSERT INTO lake.main.orders SELECT i, 'customer-' || (i % 50), (i % 997) * 1.25, DATE '2026-01-01' + (i % 300)::INTEGER FROM range(1, 5001) t(i)");
        afterFirstInsert = headSnapshot();
        oracle.execute("DELETE FROM lake.main.orders WHERE id % 10 = 0");
        oracle.execute("INSERT INTO lake.main.orders VALUES (30001, 'walk-in', 12.50, DATE '2026-11-29'), (30002, NULL, NULL, NULL)");
        oracle.execute("UPDATE lake.main.orders SET amount = amount * 2 WHERE id < 100");
        head = headSnapshot();
        StoreUri store = StoreUri.parse(directory.resolve("store").toString());
        CatalogImporter.importCatalog(DuckLakeSource.parse(oracle.catalogCopy(directory.resolve("catalog-copy.ducklake"))), store, Optional.empty(),
                CatalogImporter.Progress.SILENT);
        this.store = store;
        cluster = TrinoServerProcess.startCluster(store, 1);
        trino = cluster.getFirst();
        System.out.printf("Trino's coordinator started in %.1f s, its worker in %.1f s%n", trino.startupTime().toMillis() / 1000.0,
                cluster.get(1).startupTime().toMillis() / 1000.0);
        connection = trino.connect();
    }

    @AfterAll
    void tearDown()
            throws Exception
    {
        if (connection != null) {
            connection.close();
        }
        if (cluster != null) {
            cluster.forEach(TrinoServerProcess::close);
        }
        if (oracle != null) {
            oracle.close();
        }
        System.out.println("RealTrinoServerTest: " + comparisons + " rows compared with DuckDB");
    }

    @Test
    void tableAtTwoSnapshotsEqualsDuckLake()
            throws SQLException
    {
        long[] snapshots = {afterFirstInsert, head};
        int[] rowCounts = {5000, 4502};
        for (int i = 0; i < snapshots.length; i++) {
            long snapshot = snapshots[i];
            List<String> expected = oracleRows("SELECT " + COLUMNS + " FROM lake.main.orders AT (VERSION => " + snapshot + ")");
            assertThat(expected).hasSize(rowCounts[i]);
            List<String> actual = trinoRows("SELECT " + COLUMNS + " FROM lake.main.orders FOR VERSION AS OF " + snapshot);
            assertThat(actual).as("orders at snapshot %d", snapshot).hasSize(expected.size()).isEqualTo(expected);
            comparisons += expected.size();
        }
        assertThat(afterFirstInsert).isLessThan(head);
    }

    @Test
    void countEqualsDuckLake()
            throws SQLException
    {
        List<String> expected = oracleRows("SELECT count(*) FROM lake.main.orders");
        assertThat(trinoRows("SELECT count(*) FROM orders")).isEqualTo(expected).hasSize(1);
        assertThat(expected).containsExactly("4502");
        comparisons++;
    }

    @Test
    void tableChangesEqualDuckLake()
            throws SQLException
    {
        long start = afterFirstInsert + 1;
        List<String> expected = oracleRows("SELECT snapshot_id, rowid, change_type, " + COLUMNS + " FROM ducklake_table_changes('lake', 'main', 'orders', " + start + ", " + head + ")");
        List<String> actual = trinoRows("SELECT snapshot_id, rowid, change_type, " + COLUMNS + " FROM TABLE(lake.system.table_changes(schema_name => 'main', "
                + "table_name => 'orders', start_snapshot => " + start + ", end_snapshot => " + head + "))");
        // 500 deletes, 2 inserts, and a pre- and post-image for each of the 90 surviving updated rows
        assertThat(expected).hasSize(500 + 2 + 2 * 90);
        assertThat(actual).isEqualTo(expected);
        comparisons += expected.size();
    }

    /**
     * Writes from a cluster: the coordinator plans and commits, the worker writes the Parquet files (the coordinator
     * runs no task), and DuckDB reads what Trino wrote.
     */
    @Test
    void insertCreateTableAsAndMergeOnAWorker()
            throws Exception
    {
        assertThat(trinoRows("SELECT count(*) FROM system.runtime.nodes WHERE NOT coordinator")).containsExactly("1");
        execute("CREATE TABLE lake.main.written WITH (data_inlining_row_limit = 0) AS SELECT id, customer, amount FROM orders WHERE id <= 1000");
        execute("INSERT INTO lake.main.written VALUES (5001, 'new', 1.00)");
        execute("MERGE INTO lake.main.written t USING (VALUES (1, 'renamed'), (5002, 'added')) s(id, customer) ON t.id = s.id "
                + "WHEN MATCHED THEN UPDATE SET customer = s.customer WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.customer, NULL)");
        List<String> expected = List.of("902|460003|renamed|added");
        String summary = "SELECT count(*), sum(id), max(CASE WHEN id = 1 THEN customer END), max(CASE WHEN id = 5002 THEN customer END) FROM ";
        assertThat(trinoRows(summary + "lake.main.written")).isEqualTo(expected);
        assertThat(io.moraine.testing.DuckDbOverStore.run(store, summary + "lake.main.written"))
                .containsExactly("ROW 0 " + expected.getFirst());
        // ids divisible by 10 were deleted from orders. Every data file was written by the worker's page sinks, so each landed in the table's directory through the
        // worker's file system; the coordinator wrote none (it runs no task).
        assertThat(trinoRows("SELECT count(DISTINCT \"$path\") >= 3 FROM lake.main.written")).containsExactly("true");
        comparisons += 2;
    }

    private void execute(String sql)
            throws SQLException
    {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private long headSnapshot()
            throws SQLException
    {
        return Long.parseLong(oracle.query("SELECT max(snapshot_id) FROM ducklake_snapshots('lake')").getFirst().getFirst());
    }

    /** DuckDB's rows, each its fields joined by '|', sorted (row order is unspecified on both sides). */
    private List<String> oracleRows(String sql)
            throws SQLException
    {
        return rows(oracle.connection(), sql);
    }

    private List<String> trinoRows(String sql)
            throws SQLException
    {
        return rows(connection, sql);
    }

    private static List<String> rows(Connection connection, String sql)
            throws SQLException
    {
        List<String> rows = new ArrayList<>();
        try (Statement statement = connection.createStatement(); ResultSet result = statement.executeQuery(sql)) {
            int columns = result.getMetaData().getColumnCount();
            while (result.next()) {
                List<String> fields = new ArrayList<>();
                for (int i = 1; i <= columns; i++) {
                    fields.add(String.valueOf(result.getString(i)));
                }
                rows.add(String.join("|", fields));
            }
        }
        rows.sort(null);
        return rows;
    }
}
