package io.moraine.duckdb.ext;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;

import static io.moraine.duckdb.ext.ExtensionConnections.count;
import static io.moraine.duckdb.ext.ExtensionConnections.execute;
import static io.moraine.duckdb.ext.ExtensionConnections.query;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * DuckLake drives moraine: {@code ATTACH 'ducklake:moraine:<store>'} creates a new lake through DuckLake's own
 * bootstrap and commits every workload step through the extension's staged transactions. Every table at every
 * snapshot (time travel by version, all columns) must equal the same workload on a DuckDB-file DuckLake catalog,
 * in the writing session and in a fresh one that attaches the store again.
 */
class DuckLakeWritesTest
{
    private static final List<String> WORKLOAD = List.of(
            "CREATE TABLE %1$s.items (id INTEGER, label VARCHAR, price DOUBLE)",
            // Inlined (under the row limit).
            "INSERT INTO %1$s.items VALUES (1, 'one', 1.5), (2, 'two', 2.5), (3, 'three', NULL)",
            // Over the limit: a Parquet file, registered through DuckLake's Appender path.
            "INSERT INTO %1$s.items SELECT i, 'bulk-' || i, i * 0.25 FROM range(100, 400) t(i)",
            "UPDATE %1$s.items SET label = 'TWO' WHERE id = 2",
            "DELETE FROM %1$s.items WHERE id = 1",
            "ALTER TABLE %1$s.items ADD COLUMN note VARCHAR",
            "INSERT INTO %1$s.items VALUES (4, 'four', 4.0, 'after alter')",
            "CREATE TABLE %1$s.events (ts TIMESTAMP, kind VARCHAR)",
            "INSERT INTO %1$s.events VALUES (TIMESTAMP '2026-01-01 10:00:00', 'a'), (TIMESTAMP '2026-01-02 11:00:00', 'b')");

    @TempDir
    Path temp;

    @Test
    void aWorkloadThroughDuckLakeEqualsADuckDbFileCatalogAtEverySnapshot()
            throws Exception
    {
        Path store = temp.resolve("store");
        Path data = temp.resolve("data");
        Path oracleData = temp.resolve("oracle-data");
        Files.createDirectories(data);
        Files.createDirectories(oracleData);
        String attachLake = "ATTACH 'ducklake:moraine:" + store + "' AS lake (DATA_PATH '" + data + "/', DATA_INLINING_ROW_LIMIT 10)";
        long comparisons;
        try (Connection connection = open()) {
            execute(connection, "ATTACH 'ducklake:" + temp.resolve("oracle.ducklake") + "' AS oracle (DATA_PATH '" + oracleData
                    + "/', DATA_INLINING_ROW_LIMIT 10)");
            execute(connection, attachLake);
            for (String step : WORKLOAD) {
                execute(connection, step.formatted("oracle"));
                execute(connection, step.formatted("lake"));
            }
            assertThat(count(connection, "SELECT count(*) FROM __ducklake_metadata_lake.ducklake_inlined_data_tables")).isPositive();
            assertThat(count(connection, "SELECT count(*) FROM __ducklake_metadata_lake.ducklake_data_file")).isPositive();
            comparisons = compareEverySnapshot(connection);
        }
        try (Connection connection = open()) {
            execute(connection, "ATTACH 'ducklake:" + temp.resolve("oracle.ducklake") + "' AS oracle (DATA_PATH '" + oracleData + "/')");
            execute(connection, "ATTACH 'ducklake:moraine:" + store + "' AS lake (DATA_PATH '" + data + "/')");
            assertThat(compareEverySnapshot(connection)).as("comparisons after re-attaching").isEqualTo(comparisons);
        }
    }

    private static Connection open()
            throws Exception
    {
        Connection connection = ExtensionConnections.open();
        execute(connection, "SET threads = 1"); // DuckLake's catalog cache race after writes (RFC 0006)
        execute(connection, "LOAD ducklake");
        return connection;
    }

    /** Every user table at every snapshot, all columns, both ways; returns the number of (table, snapshot) comparisons. */
    private static long compareEverySnapshot(Connection connection)
            throws Exception
    {
        List<List<String>> snapshots = query(connection, "SELECT snapshot_id FROM ducklake_snapshots('oracle') ORDER BY 1");
        assertThat(query(connection, "SELECT snapshot_id, schema_version FROM ducklake_snapshots('lake') ORDER BY 1"))
                .as("snapshots").isEqualTo(query(connection, "SELECT snapshot_id, schema_version FROM ducklake_snapshots('oracle') ORDER BY 1"));
        long comparisons = 0;
        long rows = 0;
        for (List<String> snapshot : snapshots) {
            String version = snapshot.getFirst();
            for (String table : List.of("items", "events")) {
                String select = "SELECT * FROM %s." + table + " AT (VERSION => " + version + ") ORDER BY ALL";
                List<List<String>> expected;
                try {
                    expected = query(connection, select.formatted("oracle"));
                }
                catch (java.sql.SQLException e) {
                    // The table does not exist at this snapshot: it must not exist in the lake either.
                    org.assertj.core.api.Assertions.assertThatThrownBy(() -> query(connection, select.formatted("lake")))
                            .as(table + " at " + version).isInstanceOf(java.sql.SQLException.class);
                    comparisons++;
                    continue;
                }
                assertThat(query(connection, select.formatted("lake"))).as(table + " at snapshot " + version).isEqualTo(expected);
                comparisons++;
                rows += expected.size();
            }
        }
        assertThat(comparisons).isEqualTo(2L * snapshots.size());
        assertThat(rows).isPositive();
        System.out.printf("[ducklake writes] %d snapshots, %d table comparisons, %d rows compared%n", snapshots.size(), comparisons, rows);
        return comparisons;
    }
}
