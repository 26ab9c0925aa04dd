package io.moraine.duckdb.ext;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A ducklake_* table read without ORDER BY lists its rows as a DuckDB-file catalog does, in the order they were
 * inserted: an ended delete file before the one that replaced it (rewrite_data_files/test_last_snapshot_rewrite.test).
 */
class DuckLakeCatalogRowOrderTest
{
    @TempDir
    Path temp;

    @Test
    void endedRowsComeBeforeTheRowsInsertedAfterThem()
            throws Exception
    {
        try (OracleLakes lakes = OracleLakes.open(temp, 0)) {
            lakes.both("CREATE TABLE lake.test (key INTEGER, v VARCHAR)");
            lakes.both("INSERT INTO lake.test SELECT i, 'value ' || i FROM range(10000) t(i)");
            lakes.both("DELETE FROM lake.test WHERE key < 1000");
            lakes.both("DELETE FROM lake.test WHERE key > 5000");
            lakes.both("SELECT * FROM ducklake_rewrite_data_files('lake', 'test', delete_threshold => 0.5)");
            lakes.both("DELETE FROM lake.test WHERE key > 4000");
            assertThat(lakes.same("SELECT delete_file_id, end_snapshot IS NULL FROM lake_meta.ducklake_delete_file")).hasSize(2);
            lakes.same("SELECT data_file_id, end_snapshot IS NULL FROM lake_meta.ducklake_data_file");
            lakes.same("SELECT table_id, column_id, column_name FROM lake_meta.ducklake_column");
        }
    }
}
