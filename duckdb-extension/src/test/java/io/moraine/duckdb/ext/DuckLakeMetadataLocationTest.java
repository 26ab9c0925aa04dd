package io.moraine.duckdb.ext;

import io.moraine.testing.DuckDbTesting;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;

import static io.moraine.duckdb.ext.ExtensionConnections.execute;
import static io.moraine.duckdb.ext.ExtensionConnections.query;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where DuckLake's metadata and data go when the ATTACH says less than {@link DuckLakeWritesTest}'s: a METADATA_SCHEMA
 * (each one a lake of its own under the store), quoted catalog and schema names, and no DATA_PATH (a new lake's data
 * beside the store, as DuckLake puts a DuckDB-file catalog's).
 */
class DuckLakeMetadataLocationTest
{
    @TempDir
    Path temp;

    @Test
    void twoLakesInTwoMetadataSchemasOfOneStoreAreAttachedReadWriteAtOnce()
            throws Exception
    {
        Path store = temp.resolve("store");
        try (Connection connection = open()) {
            execute(connection, "ATTACH 'ducklake:moraine:" + store + "' AS lake_1 (DATA_PATH '" + temp.resolve("files_s1") + "', METADATA_SCHEMA 'metadata_s1')");
            execute(connection, "CREATE TABLE lake_1.tbl(i INTEGER)");
            execute(connection, "INSERT INTO lake_1.tbl VALUES (42)");
            execute(connection, "ATTACH 'ducklake:moraine:" + store + "' AS lake_2 (DATA_PATH '" + temp.resolve("files_s2") + "', METADATA_SCHEMA 'metadata_s2')");
            execute(connection, "CREATE TABLE lake_2.tbl(s VARCHAR)");
            execute(connection, "INSERT INTO lake_2.tbl VALUES ('hello world')");
            // The first lake's writer was not fenced by the second attach.
            execute(connection, "INSERT INTO lake_1.tbl VALUES (43)");
            assertThat(query(connection, "SELECT i FROM lake_1.tbl ORDER BY i")).containsExactly(List.of("42"), List.of("43"));
            assertThat(query(connection, "SELECT s FROM lake_2.tbl")).containsExactly(List.of("hello world"));
        }
        try (Connection connection = open()) {
            execute(connection, "ATTACH 'ducklake:moraine:" + store + "' AS lake_2 (METADATA_SCHEMA 'metadata_s2')");
            execute(connection, "ATTACH 'ducklake:moraine:" + store + "' AS lake_1 (METADATA_SCHEMA 'METADATA_S1')");
            assertThat(query(connection, "SELECT i FROM lake_1.tbl ORDER BY i")).containsExactly(List.of("42"), List.of("43"));
            assertThat(query(connection, "SELECT s FROM lake_2.tbl")).containsExactly(List.of("hello world"));
            // The store's own lake (schema main) is a third one, still new.
            execute(connection, "ATTACH 'ducklake:moraine:" + store + "' AS lake_main (DATA_PATH '" + temp.resolve("files_main") + "')");
            assertThat(query(connection, "SELECT count(*) FROM duckdb_tables() WHERE database_name = 'lake_main'")).containsExactly(List.of("0"));
        }
        assertThat(Files.isDirectory(store.resolve("schemas/metadata_s1"))).isTrue();
        assertThat(Files.isDirectory(store.resolve("schemas/metadata_s2"))).isTrue();
    }

    @Test
    void quotedMetadataCatalogAndSchemaNamesWork()
            throws Exception
    {
        Path store = temp.resolve("lake 'quoted'");
        try (Connection connection = open()) {
            execute(connection, "ATTACH 'ducklake:moraine:" + store.toString().replace("'", "''") + "' AS lake (DATA_PATH '"
                    + temp.resolve("data 'quoted' \"path\"").toString().replace("'", "''")
                    + "', METADATA_CATALOG '''quoted'' catalog \"name\"', METADATA_SCHEMA '''quoted'' catalog \"schema\"')");
            execute(connection, "CREATE TABLE lake.\"quoted 'table' \"\"name\"\"\"(\"quoted 'column' \"\"name\"\"\" INTEGER)");
            execute(connection, "INSERT INTO lake.\"quoted 'table' \"\"name\"\"\" VALUES (7)");
            assertThat(query(connection, "SELECT \"quoted 'column' \"\"name\"\"\" FROM lake.\"quoted 'table' \"\"name\"\"\"")).containsExactly(List.of("7"));
            assertThat(query(connection, "SELECT count(*) FROM \"'quoted' catalog \"\"name\"\"\".\"'quoted' catalog \"\"schema\"\"\".ducklake_table"))
                    .containsExactly(List.of("1"));
            execute(connection, "DROP TABLE lake.\"quoted 'table' \"\"name\"\"\"");
        }
        assertThat(Files.isDirectory(store.resolve("schemas/-27quoted-27-20catalog-20-22schema-22"))).isTrue();
    }

    @Test
    void aNewLakeWithoutDataPathKeepsItsFilesBesideTheStoreWhicheverExtensionLoadsFirst()
            throws Exception
    {
        for (boolean moraineFirst : new boolean[] {true, false}) {
            Path store = temp.resolve(moraineFirst ? "moraine-first" : "ducklake-first");
            try (Connection connection = open(moraineFirst)) {
                execute(connection, "ATTACH 'ducklake:moraine:" + store + "' AS lake");
                execute(connection, "CREATE TABLE lake.test(i INTEGER, j INTEGER)");
                execute(connection, "INSERT INTO lake.test VALUES (1, 2), (NULL, 3)");
                execute(connection, "CALL ducklake_flush_inlined_data('lake')");
                assertThat(query(connection, "SELECT value FROM __ducklake_metadata_lake.ducklake_metadata WHERE key = 'data_path'"))
                        .containsExactly(List.of(store + ".files/"));
            }
            assertThat(parquetFiles(Path.of(store + ".files/main/test"))).as("moraine loaded first: %s", moraineFirst).hasSize(1);
            // Attached again without DATA_PATH, the lake takes the data path it recorded.
            try (Connection connection = open(moraineFirst)) {
                execute(connection, "ATTACH 'ducklake:moraine:" + store + "' AS lake");
                assertThat(query(connection, "SELECT i, j FROM lake.test ORDER BY j")).containsExactly(List.of("1", "2"), Stream.of(null, "3").toList());
            }
        }
    }

    @Test
    void anExistingLakeKeepsItsRecordedDataPathWhenAttachedWithoutOne()
            throws Exception
    {
        Path store = temp.resolve("store");
        Path data = temp.resolve("elsewhere");
        try (Connection connection = open()) {
            execute(connection, "ATTACH 'ducklake:moraine:" + store + "' AS lake (DATA_PATH '" + data + "')");
            execute(connection, "CREATE TABLE lake.t AS SELECT range AS i FROM range(5)");
            execute(connection, "CALL ducklake_flush_inlined_data('lake')");
        }
        try (Connection connection = open()) {
            execute(connection, "ATTACH 'ducklake:moraine:" + store + "' AS lake");
            assertThat(query(connection, "SELECT sum(i) FROM lake.t")).containsExactly(List.of("10"));
            assertThat(query(connection, "SELECT value FROM __ducklake_metadata_lake.ducklake_metadata WHERE key = 'data_path'"))
                    .containsExactly(List.of(data + "/"));
        }
        assertThat(Files.exists(Path.of(store + ".files"))).isFalse();
    }

    /**
     * DuckLake's metadata_in_data_path.test with the store for the DuckDB file: ducklake_delete_orphaned_files removes
     * only Parquet files the catalog does not know, so SlateDB's objects (.manifest, .sst) in the data path stay.
     */
    @Test
    void aStoreInsideTheDataPathKeepsEveryObjectThroughOrphanFileDeletion()
            throws Exception
    {
        Path data = temp.resolve("data");
        Path store = data.resolve("catalog.db");
        try (Connection connection = open()) {
            execute(connection, "ATTACH 'ducklake:moraine:" + store + "' AS lake (DATA_PATH '" + data + "', METADATA_CATALOG 'lake_meta')");
            execute(connection, "CREATE TABLE lake.test (a INTEGER)");
            execute(connection, "INSERT INTO lake.test VALUES (1)");
            execute(connection, "CALL ducklake_flush_inlined_data('lake')");
            assertThat(parquetFiles(data)).hasSize(1);
            execute(connection, "CALL ducklake_delete_orphaned_files('lake', cleanup_all => true)");
            assertThat(parquetFiles(data)).hasSize(1);
        }
        // The store is whole: a fresh attach reads the lake from it.
        try (Connection connection = open()) {
            execute(connection, "ATTACH 'ducklake:moraine:" + store + "' AS lake (METADATA_CATALOG 'lake_meta')");
            assertThat(query(connection, "SELECT a FROM lake.test")).containsExactly(List.of("1"));
        }
    }

    private static List<Path> parquetFiles(Path directory)
            throws Exception
    {
        try (Stream<Path> files = Files.walk(directory)) {
            return files.filter(file -> file.toString().endsWith(".parquet")).toList();
        }
    }

    private static Connection open()
            throws Exception
    {
        return open(true);
    }

    /** A connection with DuckLake and moraine loaded, in either order. */
    private static Connection open(boolean moraineFirst)
            throws Exception
    {
        if (moraineFirst) {
            Connection connection = ExtensionConnections.open();
            execute(connection, "SET threads = 1");
            execute(connection, "LOAD ducklake");
            return connection;
        }
        Properties properties = new Properties();
        properties.setProperty("allow_unsigned_extensions", "true");
        Connection connection = DriverManager.getConnection("jdbc:duckdb:", properties);
        execute(connection, "SET threads = 1");
        execute(connection, "SET autoinstall_known_extensions = false");
        execute(connection, "SET autoload_known_extensions = false");
        execute(connection, "SET extension_directory = '" + DuckDbTesting.extensionDirectory() + "'");
        execute(connection, "LOAD ducklake");
        execute(connection, "LOAD '" + ExtensionConnections.extension() + "'");
        return connection;
    }
}
