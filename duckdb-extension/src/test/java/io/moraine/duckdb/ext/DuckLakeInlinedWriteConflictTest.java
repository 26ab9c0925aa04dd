package io.moraine.duckdb.ext;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

import static io.moraine.duckdb.ext.ExtensionConnections.execute;
import static io.moraine.duckdb.ext.ExtensionConnections.query;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Two transactions of one DuckDB instance that change the same inlined rows (DuckLake's
 * transaction_conflict_inlining.test): a second flush of rows another open transaction flushed fails at once with a
 * Conflict, as DuckDB's MVCC fails it on a DuckDB-file catalog; a flush racing an UPDATE of the rows makes the later
 * commit fail as a conflict. Afterwards the lake holds each row once.
 */
class DuckLakeInlinedWriteConflictTest
{
    @TempDir
    Path temp;

    @Test
    void aSecondFlushOfRowsAnOpenTransactionFlushedFailsAtOnceWithAConflict()
            throws Exception
    {
        try (Connection first = lake(); Connection second = ((org.duckdb.DuckDBConnection) first).duplicate()) {
            execute(first, "CREATE TABLE lake.test AS SELECT i id FROM range(1000) t(i)");
            execute(first, "BEGIN");
            execute(second, "BEGIN");
            execute(first, "CALL ducklake_flush_inlined_data('lake')");
            assertThatThrownBy(() -> execute(second, "CALL ducklake_flush_inlined_data('lake')"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("Conflict")
                    .hasMessageContaining("retry");
            execute(first, "COMMIT");
            execute(second, "COMMIT");
            assertFlushedOnce(first, "test", 0, 999);
        }
    }

    @Test
    void aRolledBackFlushLetsAnotherTransactionFlushTheSameRows()
            throws Exception
    {
        try (Connection first = lake(); Connection second = ((org.duckdb.DuckDBConnection) first).duplicate()) {
            execute(first, "CREATE TABLE lake.test AS SELECT i id FROM range(1000) t(i)");
            execute(first, "BEGIN");
            execute(second, "BEGIN");
            execute(first, "CALL ducklake_flush_inlined_data('lake')");
            execute(first, "ROLLBACK");
            execute(second, "CALL ducklake_flush_inlined_data('lake')");
            execute(second, "COMMIT");
            assertFlushedOnce(first, "test", 0, 999);
        }
    }

    @Test
    void anUpdateCommittedBeforeAConcurrentFlushMakesTheFlushCommitFailAsAConflict()
            throws Exception
    {
        try (Connection first = lake(); Connection second = ((org.duckdb.DuckDBConnection) first).duplicate()) {
            execute(first, "CREATE TABLE lake.test2 (id INTEGER)");
            execute(first, "INSERT INTO lake.test2 FROM range(1000)");
            execute(first, "BEGIN");
            execute(second, "BEGIN");
            execute(first, "UPDATE lake.test2 SET id = id + 1000");
            execute(second, "CALL ducklake_flush_inlined_data('lake')");
            execute(first, "COMMIT");
            assertThatThrownBy(() -> execute(second, "COMMIT")).isInstanceOf(SQLException.class).hasMessageContaining("conflict");
            assertThat(query(first, "SELECT count(*), min(id), max(id) FROM lake.test2")).containsExactly(List.of("1000", "1000", "1999"));
        }
    }

    @Test
    void aFlushCommittedBeforeAConcurrentUpdateMakesTheUpdateCommitFailAsAConflict()
            throws Exception
    {
        try (Connection first = lake(); Connection second = ((org.duckdb.DuckDBConnection) first).duplicate()) {
            execute(first, "CREATE TABLE lake.test3 (id INTEGER)");
            execute(first, "INSERT INTO lake.test3 FROM range(1000)");
            execute(first, "BEGIN");
            execute(second, "BEGIN");
            execute(first, "CALL ducklake_flush_inlined_data('lake')");
            execute(second, "UPDATE lake.test3 SET id = id + 1000");
            execute(first, "COMMIT");
            assertThatThrownBy(() -> execute(second, "COMMIT")).isInstanceOf(SQLException.class).hasMessageContaining("conflict");
            assertFlushedOnce(first, "test3", 0, 999);
        }
    }

    private Connection lake()
            throws Exception
    {
        Connection connection = ExtensionConnections.open();
        try {
            execute(connection, "SET threads = 1");
            execute(connection, "LOAD ducklake");
            execute(connection, "LOAD parquet");
            execute(connection, "ATTACH 'ducklake:moraine:" + temp.resolve("store") + "' AS lake (DATA_PATH '" + temp.resolve("data")
                    + "/', METADATA_CATALOG 'lake_meta', DATA_INLINING_ROW_LIMIT 10000)");
            execute(connection, "SET immediate_transaction_mode = true");
        }
        catch (Exception e) {
            connection.close();
            throw e;
        }
        return connection;
    }

    /** The table holds ids {@code min}..{@code max} once each, all in data files: none is left inlined. */
    private static void assertFlushedOnce(Connection connection, String table, int min, int max)
            throws SQLException
    {
        int rows = max - min + 1;
        assertThat(query(connection, "SELECT count(*), count(DISTINCT id), min(id), max(id) FROM lake." + table))
                .containsExactly(List.of(String.valueOf(rows), String.valueOf(rows), String.valueOf(min), String.valueOf(max)));
        assertThat(query(connection, "SELECT sum(record_count) FROM lake_meta.ducklake_data_file f JOIN lake_meta.ducklake_table t "
                + "USING (table_id) WHERE t.table_name = '" + table + "' AND f.end_snapshot IS NULL AND t.end_snapshot IS NULL"))
                .containsExactly(List.of(String.valueOf(rows)));
    }
}
