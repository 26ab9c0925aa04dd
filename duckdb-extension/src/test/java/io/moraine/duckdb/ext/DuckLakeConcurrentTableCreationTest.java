package io.moraine.duckdb.ext;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;

import static io.moraine.duckdb.ext.ExtensionConnections.execute;
import static io.moraine.duckdb.ext.ExtensionConnections.query;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two transactions that begin on one snapshot and each create a table with inlined rows (DuckLake's
 * concurrent_table_creation.test): both take the same table id, so both name the same inlined data table. The later
 * commit must fail as a conflict, which DuckLake retries with new ids, instead of writing its rows into the table the
 * first one created (whose columns differ).
 */
class DuckLakeConcurrentTableCreationTest
{
    @TempDir
    Path temp;

    @Test
    void twoTransactionsCreatingTablesFromOneSnapshotBothLandAfterDuckLakesRetry()
            throws Exception
    {
        try (Connection first = ExtensionConnections.open()) {
            execute(first, "SET threads = 1");
            execute(first, "LOAD ducklake");
            execute(first, "ATTACH 'ducklake:moraine:" + temp.resolve("store") + "' AS lake (DATA_PATH '" + temp.resolve("data")
                    + "', METADATA_CATALOG 'lake_meta')");
            execute(first, "SET immediate_transaction_mode = true");
            try (Connection second = ((org.duckdb.DuckDBConnection) first).duplicate()) {
                execute(first, "BEGIN");
                execute(second, "BEGIN");
                execute(first, "CREATE TABLE lake.test AS SELECT 42 i");
                execute(second, "CREATE TABLE lake.test2 AS SELECT 'hello world' s");
                execute(first, "COMMIT");
                execute(second, "COMMIT");
            }
            assertThat(query(first, "FROM lake.test")).containsExactly(List.of("42"));
            assertThat(query(first, "FROM lake.test2")).containsExactly(List.of("hello world"));
            assertThat(query(first, "SELECT table_name, table_id FROM lake_meta.ducklake_table ORDER BY table_id"))
                    .containsExactly(List.of("test", "1"), List.of("test2", "2"));
        }
    }
}
