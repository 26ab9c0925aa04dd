package io.moraine.duckdb.ext;

import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.keyspace.InlineKeys;
import io.moraine.core.keyspace.KeyWriter;
import io.moraine.core.store.KeyValueCursor;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreUri;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

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
        try (OracleLakes lakes = lakes(10)) {
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
        try (OracleLakes lakes = lakes(100)) {
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
        try (OracleLakes lakes = lakes(100)) {
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
        try (OracleLakes lakes = lakes(10)) {
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
        try (OracleLakes lakes = lakes(10)) {
            assertThat(query(lakes.moraine(), "SELECT count(*) FROM duckdb_tables() WHERE database_name = 'lake_meta' "
                    + "AND regexp_matches(table_name, '^ducklake_inlined_(data_\\d+_\\d+|delete_\\d+)$')")).containsExactly(List.of("0"));
        }
        // Their rows and file deletes are gone from the store, not only unlisted.
        try (MoraineCatalog catalog = MoraineCatalog.open(StoreUri.parse(temp.resolve("store").toString()), OpenMode.READ_ONLY)) {
            for (byte kind : new byte[] {InlineKeys.INSERT, InlineKeys.CHUNK_LOCATOR, InlineKeys.ROW_TOMBSTONE, InlineKeys.FILE_DELETE,
                    InlineKeys.FILE_DELETE_TABLE}) {
                byte[] prefix = InlineKeys.kindPrefix(kind);
                try (KeyValueCursor records = catalog.store().latest().scan(prefix, KeyWriter.prefixEnd(prefix), 10)) {
                    assertThat(records.hasNext()).as("inline records of kind %d", kind).isFalse();
                }
            }
        }
    }

    @Test
    void variantValuesAreInlinedReadAndFlushedAsOnADuckDbFileCatalog()
            throws Exception
    {
        try (OracleLakes lakes = lakes(10)) {
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
        try (OracleLakes lakes = lakes(10)) {
            lakes.same("SELECT v::VARCHAR, variant_typeof(v) FROM lake.variants ORDER BY ALL");
        }
    }

    private OracleLakes lakes(int rowLimit)
            throws Exception
    {
        return OracleLakes.open(temp, rowLimit);
    }
}
