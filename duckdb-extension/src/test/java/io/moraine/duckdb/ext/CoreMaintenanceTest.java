package io.moraine.duckdb.ext;

import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.io.LocalFileSystem;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreUri;
import io.moraine.core.write.LakeOptions;
import io.moraine.core.write.maintenance.ExpiredSnapshot;
import io.moraine.core.write.maintenance.LakeMaintenance;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static io.moraine.duckdb.ext.ExtensionConnections.query;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The core's maintenance operations ({@link LakeMaintenance}) commit what DuckDB+DuckLake's own calls commit: one lake
 * state is built through DuckDB on a DuckDB-file catalog and on a moraine store; then DuckDB runs
 * {@code CALL ducklake_expire_snapshots} / {@code ducklake_cleanup_old_files} on the DuckDB-file lake while the core runs
 * the same operation on the moraine store (detached from DuckDB). Every affected ducklake_* table, the tables at every
 * remaining snapshot and the change feed must then read equal, and DuckDB must keep writing both lakes alike.
 */
class CoreMaintenanceTest
{
    private MaintenanceLakes lakes()
    {
        return new MaintenanceLakes(temp, INLINE_LIMIT);
    }

    private static final int INLINE_LIMIT = 5;
    /** Catalog rows compared, normalising file names, uuids, sizes and times only. */
    private static final List<String> CATALOG = List.of(
            "SELECT snapshot_id, schema_version, next_catalog_id, next_file_id FROM lake_meta.ducklake_snapshot ORDER BY ALL",
            "SELECT * FROM lake_meta.ducklake_snapshot_changes ORDER BY ALL",
            "SELECT schema_id, begin_snapshot, end_snapshot, schema_name, path, path_is_relative FROM lake_meta.ducklake_schema ORDER BY ALL",
            "SELECT table_id, begin_snapshot, end_snapshot, schema_id, table_name, path, path_is_relative FROM lake_meta.ducklake_table ORDER BY ALL",
            "SELECT view_id, begin_snapshot, end_snapshot, schema_id, view_name, dialect, sql FROM lake_meta.ducklake_view ORDER BY ALL",
            "SELECT * FROM lake_meta.ducklake_column ORDER BY ALL",
            "SELECT data_file_id, table_id, begin_snapshot, end_snapshot, file_order, regexp_replace(path, 'ducklake-.*', ''), path_is_relative, "
                    + "file_format, record_count, row_id_start, partition_id, mapping_id, partial_max FROM lake_meta.ducklake_data_file ORDER BY ALL",
            "SELECT delete_file_id, table_id, begin_snapshot, end_snapshot, data_file_id, regexp_replace(path, 'ducklake-.*', ''), path_is_relative, "
                    + "format, delete_count, partial_max FROM lake_meta.ducklake_delete_file ORDER BY ALL",
            "SELECT data_file_id, table_id, column_id, value_count, null_count, min_value, max_value, contains_nan FROM lake_meta.ducklake_file_column_stats ORDER BY ALL",
            "SELECT * FROM lake_meta.ducklake_file_partition_value ORDER BY ALL",
            "SELECT data_file_id, regexp_replace(path, 'ducklake-.*', ''), path_is_relative FROM lake_meta.ducklake_files_scheduled_for_deletion ORDER BY ALL",
            "SELECT table_id, record_count, next_row_id FROM lake_meta.ducklake_table_stats ORDER BY ALL",
            "SELECT * FROM lake_meta.ducklake_table_column_stats ORDER BY ALL",
            "SELECT * FROM lake_meta.ducklake_partition_info ORDER BY ALL",
            "SELECT * FROM lake_meta.ducklake_partition_column ORDER BY ALL",
            "SELECT * FROM lake_meta.ducklake_inlined_data_tables ORDER BY ALL",
            "SELECT * FROM lake_meta.ducklake_schema_versions ORDER BY ALL",
            "SELECT * FROM lake_meta.ducklake_tag ORDER BY ALL",
            "SELECT * FROM lake_meta.ducklake_column_tag ORDER BY ALL");

    @TempDir
    Path temp;

    @Test
    void expiryAndCleanUpThroughTheCoreMatchDuckLakesOwnCalls()
            throws Exception
    {
        buildLake();
        int compared = compare(LongStream.rangeClosed(0, 20).boxed().toList());

        // A dry run on both: the same snapshots listed, nothing changed.
        List<ExpiredSnapshot> dry = lakes().core(maintenance -> maintenance.expireSnapshotVersions(List.of(2L, 3L, 4L, 20L), true));
        List<List<String>> oracleDry = lakes().onOracle("SELECT snapshot_id, schema_version FROM ducklake_expire_snapshots('lake', versions => [2, 3, 4, 20], dry_run => true) ORDER BY 1");
        assertThat(dry.stream().map(s -> List.of(String.valueOf(s.snapshotId()), String.valueOf(s.schemaVersion()))).toList()).isEqualTo(oracleDry)
                .hasSize(3);

        // Expire 0-14: a dropped table (with inlined rows), an ended data file with its delete file lose their last snapshot.
        List<ExpiredSnapshot> expired = lakes().core(maintenance -> maintenance.expireSnapshotVersions(LongStream.rangeClosed(0, 14).boxed().toList(), false));
        List<List<String>> oracleExpired = lakes().onOracle("SELECT snapshot_id FROM ducklake_expire_snapshots('lake', versions => range(0, 15)) ORDER BY 1");
        assertThat(expired.stream().map(s -> List.of(String.valueOf(s.snapshotId()))).toList()).isEqualTo(oracleExpired).hasSize(15);
        compared += compare(LongStream.rangeClosed(15, 20).boxed().toList());
        assertThat(count("SELECT count(*) FROM lake_meta.ducklake_files_scheduled_for_deletion")).isGreaterThanOrEqualTo(3);

        // Expire everything but the newest, by time.
        Instant now = Instant.now();
        List<ExpiredSnapshot> older = lakes().core(maintenance -> maintenance.expireSnapshotsOlderThan(now, false));
        List<List<String>> oracleOlder = lakes().onOracle("SELECT snapshot_id FROM ducklake_expire_snapshots('lake', older_than => '" + now + "'::TIMESTAMPTZ) ORDER BY 1");
        assertThat(older.stream().map(s -> List.of(String.valueOf(s.snapshotId()))).toList()).isEqualTo(oracleOlder).hasSize(5);
        compared += compare(List.of(20L));

        // Clean up: a dry run lists the files and deletes none; then every scheduled file goes, with its row.
        long scheduled = count("SELECT count(*) FROM lake_meta.ducklake_files_scheduled_for_deletion");
        List<String> listed = lakes().core(maintenance -> maintenance.cleanupAllOldFiles(true));
        assertThat(listed).hasSize((int) scheduled).allSatisfy(path -> assertThat(Path.of(path)).exists());
        List<String> removed = lakes().core(maintenance -> maintenance.cleanupAllOldFiles(false));
        List<List<String>> oracleRemoved = lakes().onOracle("SELECT path FROM ducklake_cleanup_old_files('lake', cleanup_all => true) ORDER BY 1");
        assertThat(removed).hasSameSizeAs(oracleRemoved).hasSize((int) scheduled).allSatisfy(path -> assertThat(Path.of(path)).doesNotExist());
        assertThat(normalized(removed, temp.resolve("data"))).isEqualTo(normalized(oracleRemoved.stream().map(List::getFirst).toList(), temp.resolve("oracle-data")));
        assertThat(parquetFiles(temp.resolve("data"))).isEqualTo(parquetFiles(temp.resolve("oracle-data"))).isPositive();
        compared += compare(List.of(20L));

        // DuckDB keeps writing both lakes alike.
        try (OracleLakes lakes = OracleLakes.open(temp, INLINE_LIMIT)) {
            lakes.both("INSERT INTO lake.main.t SELECT i, 'late-' || i, i FROM range(100, 120) r(i)");
            lakes.both("DELETE FROM lake.main.t WHERE id % 7 = 0");
            lakes.both("INSERT INTO lake.main.t VALUES (500, 'x', 1)");
            for (String sql : CATALOG) {
                lakes.same(sql);
                compared++;
            }
            lakes.same("SELECT *, rowid FROM lake.main.t ORDER BY ALL");
            compared++;
        }
        System.out.println("CoreMaintenanceTest: expiry and clean-up, " + compared + " oracle comparisons equal");
        assertThat(compared).isEqualTo(4 * CATALOG.size() + (20 + 6 + 1 + 1) + 4 + CATALOG.size() + 1);
    }

    @Test
    void theLakesDefaultAgesApplyWhenNoCriterionIsGiven()
            throws Exception
    {
        buildLake();
        try (OracleLakes lakes = OracleLakes.open(temp, INLINE_LIMIT)) {
            lakes.both("CALL ducklake_set_option('lake', 'expire_older_than', '0 seconds')");
            lakes.both("CALL ducklake_set_option('lake', 'delete_older_than', '0 seconds')");
        }
        List<ExpiredSnapshot> expired = lakes().core(maintenance -> maintenance.expireSnapshots(false));
        List<List<String>> oracleExpired = lakes().onOracle("SELECT snapshot_id FROM ducklake_expire_snapshots('lake') ORDER BY 1");
        assertThat(expired.stream().map(s -> List.of(String.valueOf(s.snapshotId()))).toList()).isEqualTo(oracleExpired).hasSize(20);
        int compared = compare(List.of(20L));
        List<String> removed = lakes().core(maintenance -> maintenance.cleanupOldFiles(false));
        List<List<String>> oracleRemoved = lakes().onOracle("SELECT path FROM ducklake_cleanup_old_files('lake') ORDER BY 1");
        assertThat(normalized(removed, temp.resolve("data"))).isEqualTo(normalized(oracleRemoved.stream().map(List::getFirst).toList(), temp.resolve("oracle-data")))
                .hasSizeGreaterThanOrEqualTo(3);
        assertThat(parquetFiles(temp.resolve("data"))).isEqualTo(parquetFiles(temp.resolve("oracle-data"))).isPositive();
        compared += compare(List.of(20L));
        System.out.println("CoreMaintenanceTest: lake-default ages, " + compared + " oracle comparisons equal");
        assertThat(compared).isEqualTo(2 * (CATALOG.size() + 1 + 1));
    }

    @Test
    void anUnparseableExpiryOptionIsATypedError()
            throws Exception
    {
        buildLake();
        try (MoraineCatalog catalog = openStore()) {
            LakeOptions.set(catalog, "expire_older_than", "soon");
            assertThatThrownBy(() -> new LakeMaintenance(catalog, LocalFileSystem.INSTANCE).expireSnapshots(false))
                    .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("expire_older_than").hasMessageContaining("'soon'");
            LakeOptions.set(catalog, "delete_older_than", "1 fortnight");
            assertThatThrownBy(() -> new LakeMaintenance(catalog, LocalFileSystem.INSTANCE).cleanupOldFiles(false))
                    .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("delete_older_than");
            assertThat(new LakeMaintenance(catalog, LocalFileSystem.INSTANCE).expireSnapshotVersions(List.of(), false)).isEmpty();
        }
    }

    /** Snapshots 1-20 of both lakes: DDL, inlined and file inserts, deletes and updates, dropped table, view and schema. */
    private void buildLake()
            throws Exception
    {
        try (OracleLakes lakes = OracleLakes.open(temp, INLINE_LIMIT)) {
            for (String statement : List.of(
                    "CREATE TABLE lake.main.t (id INTEGER, v VARCHAR)",                               // 1
                    "INSERT INTO lake.main.t SELECT i, 'v' || i FROM range(20) r(i)",                 // 2: file
                    "INSERT INTO lake.main.t VALUES (1000, 'a'), (1001, 'b')",                       // 3: inlined
                    "DELETE FROM lake.main.t WHERE id < 8",                                           // 4: delete file
                    "DELETE FROM lake.main.t WHERE id < 14",                                          // 5: replaces it
                    "UPDATE lake.main.t SET v = 'u' WHERE id = 15 OR id = 1000",                      // 6
                    "CREATE TABLE lake.main.gone (x INTEGER)",                                        // 7
                    "INSERT INTO lake.main.gone SELECT i FROM range(30) r(i)",                        // 8
                    "INSERT INTO lake.main.gone VALUES (-1)",                                         // 9: inlined
                    "DROP TABLE lake.main.gone",                                                      // 10
                    "CREATE TABLE lake.main.e (x INTEGER)",                                           // 11
                    "INSERT INTO lake.main.e SELECT i FROM range(40) r(i)",                           // 12: file
                    "DELETE FROM lake.main.e WHERE x < 10",                                           // 13: delete file
                    "DELETE FROM lake.main.e",                                                        // 14: both end
                    "CREATE VIEW lake.main.vw AS SELECT 42 AS answer",                                // 15
                    "DROP VIEW lake.main.vw",                                                         // 16
                    "CREATE SCHEMA lake.s2",                                                          // 17
                    "DROP SCHEMA lake.s2",                                                            // 18
                    "ALTER TABLE lake.main.t ADD COLUMN w INTEGER",                                   // 19
                    "INSERT INTO lake.main.t SELECT i, 'w' || i, i FROM range(50, 80) r(i)")) {      // 20: file
                lakes.both(statement);
            }
            assertThat(lakes.same("SELECT max(snapshot_id) FROM lake_meta.ducklake_snapshot")).isEqualTo(List.of(List.of("20")));
        }
    }

    /**
     * Compares every catalog table, table t at each of {@code snapshots} (which must all remain) and its change feed
     * across them; returns the number of comparisons made.
     */
    private int compare(List<Long> snapshots)
            throws Exception
    {
        int compared = 0;
        try (OracleLakes lakes = OracleLakes.open(temp, INLINE_LIMIT)) {
            for (String sql : CATALOG) {
                lakes.same(sql);
                compared++;
            }
            List<List<String>> remaining = lakes.same("SELECT snapshot_id FROM lake_meta.ducklake_snapshot ORDER BY 1");
            assertThat(remaining).isEqualTo(snapshots.stream().map(id -> List.of(String.valueOf(id))).toList());
            for (long snapshot : snapshots) {
                if (snapshot >= 1) {
                    lakes.same("SELECT *, rowid FROM lake.main.t AT (VERSION => " + snapshot + ") ORDER BY ALL");
                    compared++;
                }
            }
            long first = snapshots.getFirst();
            long last = snapshots.getLast();
            lakes.same("SELECT * FROM ducklake_table_changes('lake', 'main', 't', " + first + ", " + last + ") ORDER BY ALL");
            compared++;
            if (first > 0) {
                long expired = first - 1;
                String sql = "SELECT count(*) FROM lake.main.t AT (VERSION => " + expired + ")";
                assertThatThrownBy(() -> query(lakes.oracle(), sql)).hasMessageContaining("snapshot");
                assertThatThrownBy(() -> query(lakes.moraine(), sql)).hasMessageContaining("snapshot");
            }
        }
        return compared;
    }

    private long count(String sql)
            throws Exception
    {
        try (OracleLakes lakes = OracleLakes.open(temp, INLINE_LIMIT)) {
            List<List<String>> counts = lakes.same(sql);
            return Long.parseLong(counts.getFirst().getFirst());
        }
    }


    private MoraineCatalog openStore()
    {
        return MoraineCatalog.open(StoreUri.parse(temp.resolve("store").toString()), OpenMode.READ_WRITE);
    }


    private static List<String> normalized(List<String> paths, Path dataPath)
    {
        return paths.stream().map(path -> path.substring(dataPath.toString().length()).replaceAll("ducklake-[^/]*$", "")).sorted().toList();
    }

    private static long parquetFiles(Path directory)
            throws Exception
    {
        try (Stream<Path> files = Files.walk(directory)) {
            return files.filter(file -> file.toString().endsWith(".parquet")).count();
        }
    }
}
