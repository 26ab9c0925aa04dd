package io.moraine.duckdb.ext;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;

import static io.moraine.duckdb.ext.ExtensionConnections.count;
import static io.moraine.duckdb.ext.ExtensionConnections.execute;
import static io.moraine.duckdb.ext.ExtensionConnections.open;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Where files may live, through DuckDB (docs/duckdb.md, "Allowed locations"): by default a file registered by its own
 * absolute path (add_files of a file elsewhere, as DuckLake allows) is allowed; with META_ALLOWED_LOCATIONS set, a
 * commit that registers a file outside the data path and the listed locations, or schedules one for deletion there, is
 * refused naming the path and the ATTACH option; a path spelled otherwise than in normal form is
 * refused, so DuckLake's text comparison in orphan removal never takes a live file for an orphan.
 */
class DuckLakeAllowedLocationsTest
{
    @TempDir
    Path temp;

    private String attach(Path store, Path data, String extra)
    {
        return "ATTACH 'ducklake:moraine:" + store + "' AS lake (DATA_PATH '" + data + "/'" + extra + ")";
    }

    @Test
    void registeringAndCleaningUpOutsideTheAllowedLocationsIsRefused()
            throws Exception
    {
        Path store = temp.resolve("store");
        Path data = Files.createDirectories(temp.resolve("data"));
        Path outside = Files.createDirectories(temp.resolve("outside"));
        Path other = Files.createDirectories(temp.resolve("other"));
        Path external = outside.resolve("external.parquet");
        try (Connection connection = open()) {
            execute(connection, attach(store, data, ", META_ALLOWED_LOCATIONS '" + other + "'"));
            execute(connection, "CREATE TABLE lake.t (id INTEGER)");
            execute(connection, "CREATE TABLE lake.u (id INTEGER)");
            execute(connection, "COPY (SELECT 1 AS id UNION ALL SELECT 2) TO '" + external + "' (FORMAT parquet)");
            assertThatThrownBy(() -> execute(connection, "CALL ducklake_add_data_files('lake', 't', '" + external + "')"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("cannot register")
                    .hasMessageContaining(external.toString())
                    .hasMessageContaining("ALLOWED_LOCATIONS");
            assertThat(count(connection, "SELECT count(*) FROM lake.t")).isZero();
        }
        try (Connection connection = open()) {
            // The default follows DuckLake: a file registered by its own absolute path becomes a registered file.
            execute(connection, attach(store, data, ""));
            execute(connection, "CALL ducklake_add_data_files('lake', 'u', '" + external + "')");
            assertThat(count(connection, "SELECT count(*) FROM lake.u")).isEqualTo(2);
            execute(connection, "DROP TABLE lake.u");
        }
        try (Connection connection = open()) {
            execute(connection, attach(store, data, ", META_ALLOWED_LOCATIONS '" + outside + "'"));
            execute(connection, "CALL ducklake_add_data_files('lake', 't', '" + external + "')");
            assertThat(count(connection, "SELECT count(*) FROM lake.t")).isEqualTo(2);
            execute(connection, "DROP TABLE lake.t");
        }
        try (Connection connection = open()) {
            // The setting now leaves the external file's location out: expiring the snapshots that hold the dropped
            // table would schedule its file for deletion, and that is refused.
            execute(connection, attach(store, data, ", META_ALLOWED_LOCATIONS '" + other + "'"));
            assertThatThrownBy(() -> execute(connection, "CALL ducklake_expire_snapshots('lake', older_than => now())"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("schedule the deletion")
                    .hasMessageContaining(external.toString())
                    .hasMessageContaining("ALLOWED_LOCATIONS");
            execute(connection, "CALL ducklake_cleanup_old_files('lake', cleanup_all => true)");
        }
        assertThat(external).exists();
    }

    @Test
    void aPathSpelledOtherwiseThanInNormalFormIsNotRegistered()
            throws Exception
    {
        Path store = temp.resolve("store");
        Path data = Files.createDirectories(temp.resolve("data"));
        Files.createDirectories(data.resolve("main").resolve("t"));
        Path file = data.resolve("main").resolve("t").resolve("spelled.parquet");
        try (Connection connection = open()) {
            execute(connection, attach(store, data, ""));
            execute(connection, "CREATE TABLE lake.t (id INTEGER)");
            execute(connection, "COPY (SELECT 1 AS id) TO '" + file + "' (FORMAT parquet)");
            String spelled = data + "/main/t/./spelled.parquet";
            assertThatThrownBy(() -> execute(connection, "CALL ducklake_add_data_files('lake', 't', '" + spelled + "')"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("not in normal form")
                    .hasMessageContaining("orphan");
            // Registered by its plain path, the file survives DuckLake's orphan removal and clean-up.
            execute(connection, "CALL ducklake_add_data_files('lake', 't', '" + file + "')");
            execute(connection, "CALL ducklake_delete_orphaned_files('lake', cleanup_all => true)");
            execute(connection, "CALL ducklake_cleanup_old_files('lake', cleanup_all => true)");
            assertThat(file).exists();
            assertThat(count(connection, "SELECT count(*) FROM lake.t")).isEqualTo(1);
        }
    }
}
