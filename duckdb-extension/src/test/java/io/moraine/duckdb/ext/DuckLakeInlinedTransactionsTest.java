package io.moraine.duckdb.ext;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;

import static io.moraine.duckdb.ext.ExtensionConnections.execute;
import static io.moraine.duckdb.ext.ExtensionConnections.query;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Inlined data through DuckLake where a transaction reads what it staged (a flush inside BEGIN ... COMMIT), where
 * DuckLake's clean-up drops inlined tables, and where the inlined values are VARIANTs: each step runs on a moraine
 * lake and on a DuckDB-file DuckLake catalog, and every query must answer the same on both.
 */
class DuckLakeInlinedTransactionsTest
{
    @TempDir
    Path temp;

    @Test
    void aFlushInsideATransactionShowsEachRowOnceToThatTransaction()
            throws Exception
    {
        try (Lakes lakes = lakes(10)) {
            lakes.both("CREATE TABLE lake.test (i INTEGER)");
            for (int i = 0; i < 10; i++) {
                lakes.both("INSERT INTO lake.test VALUES (" + i + ")");
            }
            lakes.both("BEGIN");
            lakes.same("SELECT table_name, rows_flushed FROM ducklake_flush_inlined_data('lake')");
            assertThat(lakes.same("SELECT count(*) FROM lake.test")).containsExactly(List.of("10"));
            lakes.same("SELECT rowid, snapshot_id, * FROM lake.test ORDER BY ALL");
            lakes.both("COMMIT");
            assertThat(lakes.same("SELECT count(*) FROM lake.test")).containsExactly(List.of("10"));
            lakes.same("SELECT rowid, snapshot_id, * FROM lake.test ORDER BY ALL");
            lakes.same("SELECT count(*) FROM lake.test AT (VERSION => 4)");
        }
    }

    @Test
    void aFlushRolledBackLeavesTheInlinedRowsAndTheTransactionSawThemOnce()
            throws Exception
    {
        try (Lakes lakes = lakes(100)) {
            lakes.both("CREATE TABLE lake.flushed (i INTEGER)");
            lakes.both("INSERT INTO lake.flushed FROM range(50)");
            lakes.both("BEGIN");
            lakes.both("CALL ducklake_flush_inlined_data('lake', table_name => 'flushed')");
            assertThat(lakes.same("SELECT count(*) FROM lake.flushed")).containsExactly(List.of("50"));
            lakes.both("ROLLBACK");
            assertThat(lakes.same("SELECT count(*) FROM lake.flushed")).containsExactly(List.of("50"));
        }
    }

    @Test
    void aTransactionSeesTheInlinedRowsItEndedAndDeletedAsItLeftThem()
            throws Exception
    {
        try (Lakes lakes = lakes(100)) {
            lakes.both("CREATE TABLE lake.t (id INTEGER, val INTEGER)");
            lakes.both("INSERT INTO lake.t VALUES (2, 0), (1, 0), (3, 0)");
            for (int i = 0; i < 3; i++) {
                lakes.both("UPDATE lake.t SET val = val + 1 WHERE id = 2");
            }
            lakes.both("BEGIN");
            lakes.both("ALTER TABLE lake.t SET SORTED BY ((id + 0) ASC NULLS LAST)");
            lakes.both("CALL ducklake_flush_inlined_data('lake', table_name => 't')");
            assertThat(lakes.same("SELECT id, val FROM lake.t ORDER BY id"))
                    .containsExactly(List.of("1", "0"), List.of("2", "3"), List.of("3", "0"));
            lakes.both("COMMIT");
            lakes.same("SELECT id, val FROM lake.t ORDER BY id");
            // Deleting inlined rows in a transaction and reading them back there.
            lakes.both("BEGIN");
            lakes.both("INSERT INTO lake.t VALUES (4, 0), (5, 0)");
            lakes.both("DELETE FROM lake.t WHERE id = 4");
            assertThat(lakes.same("SELECT id FROM lake.t ORDER BY id")).hasSize(4);
            lakes.both("COMMIT");
            lakes.same("SELECT id, val FROM lake.t ORDER BY id");
        }
    }

    @Test
    void theInlinedTablesOfADroppedTableGoAfterExpiryAndCleanup()
            throws Exception
    {
        try (Lakes lakes = lakes(10)) {
            lakes.both("CREATE TABLE lake.t AS SELECT range AS i FROM range(100)");
            lakes.both("DELETE FROM lake.t WHERE i IN (3, 5, 7)");
            lakes.both("INSERT INTO lake.t VALUES (200), (201)");
            assertThat(lakes.same("SELECT count(*) FROM duckdb_tables() WHERE database_name = 'lake_meta' "
                    + "AND table_name LIKE 'ducklake_inlined_delete_%'")).containsExactly(List.of("1"));
            lakes.both("DROP TABLE lake.t");
            lakes.both("CALL ducklake_expire_snapshots('lake', older_than => now())");
            lakes.both("CALL ducklake_cleanup_old_files('lake', cleanup_all => true)");
            assertThat(lakes.same("SELECT count(*) FROM duckdb_tables() WHERE database_name = 'lake_meta' "
                    + "AND (table_name LIKE 'ducklake_inlined_delete_%' OR table_name LIKE 'ducklake_inlined_data_1%')"))
                    .containsExactly(List.of("0"));
            lakes.same("SELECT count(*) FROM lake_meta.ducklake_inlined_data_tables");
        }
        // A fresh attach of the store lists them no more either.
        try (Lakes lakes = lakes(10)) {
            assertThat(query(lakes.moraine(), "SELECT count(*) FROM duckdb_tables() WHERE database_name = 'lake_meta' "
                    + "AND regexp_matches(table_name, '^ducklake_inlined_(data_\\d+_\\d+|delete_\\d+)$')")).containsExactly(List.of("0"));
        }
    }

    @Test
    void variantValuesAreInlinedReadAndFlushedAsOnADuckDbFileCatalog()
            throws Exception
    {
        try (Lakes lakes = lakes(10)) {
            lakes.both("CREATE TABLE lake.variants (v VARIANT)");
            lakes.both("INSERT INTO lake.variants VALUES (42), ('hello world'), (DATE '2000-01-01'), "
                    + "({'a': 42, 'b': NULL, 'c': 84}), (NULL), ([1, 2, 3, NULL, 5])");
            String read = "SELECT v::VARCHAR, variant_typeof(v), v IS NULL FROM lake.variants ORDER BY ALL";
            assertThat(lakes.same(read)).hasSize(6);
            lakes.both("INSERT INTO lake.variants VALUES (1.5::DOUBLE)");
            lakes.same(read);
            lakes.both("DELETE FROM lake.variants WHERE variant_typeof(v) = 'VARCHAR'");
            lakes.same(read);
            lakes.both("CALL ducklake_flush_inlined_data('lake')");
            lakes.same(read);
        }
        try (Lakes lakes = lakes(10)) {
            lakes.same("SELECT v::VARCHAR, variant_typeof(v) FROM lake.variants ORDER BY ALL");
        }
    }

    /**
     * A moraine lake and a DuckDB-file lake, each attached as {@code lake} on its own connection (a DuckDB transaction
     * writes to one database only), both inlining up to {@code rowLimit} rows, their metadata catalogs attached as
     * {@code lake_meta} (a DuckDB-file lake lists its metadata tables in duckdb_tables() only under a given name).
     */
    private Lakes lakes(int rowLimit)
            throws Exception
    {
        Path data = temp.resolve("data");
        Path oracleData = temp.resolve("oracle-data");
        Files.createDirectories(data);
        Files.createDirectories(oracleData);
        Connection moraine = connection("ducklake:moraine:" + temp.resolve("store"), data, rowLimit);
        try {
            return new Lakes(moraine, connection("ducklake:" + temp.resolve("oracle.ducklake"), oracleData, rowLimit));
        }
        catch (Exception e) {
            moraine.close();
            throw e;
        }
    }

    private static Connection connection(String lake, Path data, int rowLimit)
            throws Exception
    {
        Connection connection = ExtensionConnections.open();
        try {
            execute(connection, "SET threads = 1"); // DuckLake's catalog cache race after writes (RFC 0006)
            execute(connection, "LOAD ducklake");
            execute(connection, "LOAD parquet");
            execute(connection, "ATTACH '" + lake + "' AS lake (DATA_PATH '" + data + "/', METADATA_CATALOG 'lake_meta', "
                    + "DATA_INLINING_ROW_LIMIT " + rowLimit + ")");
        }
        catch (Exception e) {
            connection.close();
            throw e;
        }
        return connection;
    }

    private record Lakes(Connection moraine, Connection oracle)
            implements AutoCloseable
    {
        void both(String statement)
                throws Exception
        {
            execute(oracle, statement);
            execute(moraine, statement);
        }

        /** The rows of {@code sql} on the moraine lake, asserted equal to the DuckDB-file lake's. */
        List<List<String>> same(String sql)
                throws Exception
        {
            List<List<String>> expected = query(oracle, sql);
            List<List<String>> actual = query(moraine, sql);
            assertThat(actual).as(sql).isEqualTo(expected);
            return actual;
        }

        @Override
        public void close()
                throws Exception
        {
            try (oracle) {
                moraine.close();
            }
        }
    }
}
