package io.moraine.trino;

import io.moraine.testing.DuckDbOverStore;
import io.moraine.testing.EngineHead;

import io.moraine.core.store.StoreUri;
import io.moraine.testing.DuckLakeOracle;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static com.google.common.io.MoreFiles.deleteRecursively;
import static com.google.common.io.RecursiveDeleteOption.ALLOW_INSECURE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Trino writes a moraine lake through the core's write API (a coordinator and a worker): DDL, INSERT (inlined and to
 * Parquet files written on the workers), CREATE TABLE AS into a partitioned table; DuckDB+DuckLake reads what Trino
 * wrote through {@code ducklake:moraine:} and writes on, and Trino reads that; a read-only catalog refuses writes.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public class TestMoraineWrites
{
    private Path directory;
    private DuckLakeOracle oracle;
    private QueryRunner trino;
    private StoreUri store;

    @BeforeAll
    public void setUp()
            throws Exception
    {
        directory = Files.createTempDirectory("moraine-trino-writes");
        oracle = DuckLakeOracle.create(directory.resolve("lake"), DuckLakeOracle.CatalogDatabase.DUCKDB);
        store = StoreUri.parse(directory.resolve("store").toString());
        trino = MoraineQueryRunner.create(oracle, directory, store, Optional.empty(), Map.of(), "main", 1);
        trino.createCatalog("lake_ro", "moraine", Map.of("moraine.store-uri", store.toString(), "moraine.read-only", "true"));
    }

    @AfterAll
    public void tearDown()
            throws Exception
    {
        MoraineQueryRunner.close(trino, oracle);
        deleteRecursively(directory, ALLOW_INSECURE);
    }

    @Test
    public void testSchemaAndTableDdl()
    {
        trino.execute("CREATE SCHEMA ddl");
        trino.execute("CREATE TABLE ddl.t (a integer, b varchar(20)) COMMENT 'first table'");
        assertThat(columns("ddl.t")).containsExactly("a integer", "b varchar");
        trino.execute("ALTER TABLE ddl.t ADD COLUMN c double COMMENT 'a double'");
        trino.execute("ALTER TABLE ddl.t RENAME COLUMN b TO label");
        trino.execute("ALTER TABLE ddl.t ALTER COLUMN a SET DATA TYPE bigint");
        trino.execute("COMMENT ON TABLE ddl.t IS 'renamed soon'");
        trino.execute("COMMENT ON COLUMN ddl.t.label IS 'the label'");
        assertThat(columns("ddl.t")).containsExactly("a bigint", "label varchar", "c double");
        trino.execute("INSERT INTO ddl.t VALUES (1, 'x', 1.5)");
        trino.execute("ALTER TABLE ddl.t DROP COLUMN c");
        trino.execute("ALTER TABLE ddl.t RENAME TO u");
        assertThat(rows("SELECT * FROM ddl.u")).containsExactly("1|x");
        assertThat(rows("SHOW TABLES FROM ddl")).containsExactly("u");
        assertThatThrownBy(() -> trino.execute("ALTER TABLE ddl.u ALTER COLUMN a SET DATA TYPE integer"))
                .hasMessageContaining("a");
        assertThatThrownBy(() -> trino.execute("DROP SCHEMA ddl")).hasMessageContaining("ddl");
        trino.execute("DROP TABLE ddl.u");
        trino.execute("DROP SCHEMA ddl");
        assertThat(rows("SHOW SCHEMAS FROM lake")).doesNotContain("ddl");
    }

    @Test
    public void testInsertInlinedAndFiles()
    {
        trino.execute("CREATE TABLE main.items (id bigint, name varchar, price decimal(10,2), d date, ts timestamp(6), flag boolean, r real) "
                + "WITH (data_inlining_row_limit = 10)");
        long files = dataFiles();
        trino.execute("INSERT INTO main.items VALUES (1, 'one', 1.25, DATE '2024-01-02', TIMESTAMP '2024-01-02 03:04:05.123456', true, 1.5), "
                + "(2, NULL, NULL, NULL, NULL, NULL, NULL), (3, 'three', -3.50, DATE '1969-12-31', TIMESTAMP '1969-12-31 23:59:59.999999', false, -2.25)");
        assertThat(dataFiles()).as("3 rows under a limit of 10 are inlined").isEqualTo(files);
        trino.execute("INSERT INTO main.items SELECT n, 'n' || CAST(n AS varchar), CAST(n AS decimal(10,2)) / 4, DATE '2020-01-01' + n * INTERVAL '1' DAY, "
                + "TIMESTAMP '2020-01-01 00:00:00' + n * INTERVAL '1' SECOND, n % 2 = 0, CAST(n AS real) FROM UNNEST(sequence(100, 1099)) t(n)");
        assertThat(dataFiles()).as("1000 rows go to a data file").isGreaterThan(files);
        assertThat(rows("SELECT count(*), sum(id), count(name), sum(price), min(d), max(ts), count_if(flag), sum(r) FROM main.items"))
                .containsExactly("1003|599506|1002|149872.75|1969-12-31|2024-01-02T03:04:05.123456|501|599499.25");
        assertThat(rows("SELECT * FROM main.items WHERE id <= 3 ORDER BY id")).containsExactly(
                "1|one|1.25|2024-01-02|2024-01-02T03:04:05.123456|true|1.5",
                "2|null|null|null|null|null|null",
                "3|three|-3.50|1969-12-31|1969-12-31T23:59:59.999999|false|-2.25");
    }

    @Test
    public void testCreateTableAsPartitioned()
            throws Exception
    {
        trino.execute("CREATE TABLE main.sales WITH (partitioned_by = ARRAY['region', 'year(d)'], sorted_by = ARRAY['id DESC']) AS "
                + "SELECT n AS id, CASE n % 3 WHEN 0 THEN 'eu' WHEN 1 THEN 'us' ELSE 'apac' END AS region, DATE '2022-12-30' + n * INTERVAL '1' DAY AS d, "
                + "n * 1.5e0 AS amount FROM UNNEST(sequence(1, 300)) t(n)");
        assertThat(rows("SELECT count(*), sum(id), sum(amount) FROM main.sales")).containsExactly("300|45150|67725.0");
        assertThat(rows("SELECT region, year(d), count(*) FROM main.sales GROUP BY 1, 2 ORDER BY 1, 2")).containsExactly(
                "apac|2023|100", "eu|2023|100", "us|2022|1", "us|2023|99");
        assertThat(rows("SELECT DISTINCT regexp_extract(\"$path\", 'region=[a-z]+/year=[0-9]+') FROM main.sales ORDER BY 1")).containsExactly(
                "region=apac/year=2023", "region=eu/year=2023", "region=us/year=2022", "region=us/year=2023");

        trino.execute("CREATE TABLE main.small (id bigint, name varchar, price decimal(10,2), d date, flag boolean) WITH (data_inlining_row_limit = 10)");
        trino.execute("INSERT INTO main.small VALUES (1, 'one', 1.25, DATE '2024-01-02', true), (2, NULL, NULL, NULL, NULL), "
                + "(3, 'three', -3.50, DATE '1969-12-31', false)");

        // DuckDB reads what Trino wrote (files and inlined rows), then writes on; Trino reads that.
        List<String> duckdb = duckDb(
                "SELECT count(*), sum(id), sum(amount) FROM lake.main.sales",
                "SELECT region, year(d), count(*) FROM lake.main.sales GROUP BY ALL ORDER BY ALL",
                "SELECT id, name, price, d, flag FROM lake.main.small ORDER BY id",
                "INSERT INTO lake.main.sales VALUES (1000, 'eu', DATE '2030-05-05', 7.5)");
        assertThat(duckdb).contains("ROW 0 300|45150|67725.0", "ROW 1 apac|2023|100", "ROW 1 us|2022|1", "ROW 2 1|one|1.25|2024-01-02|true",
                "ROW 2 2|null|null|null|null", "ROW 2 3|three|-3.50|1969-12-31|false");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!rows("SELECT count(*) FROM main.sales").equals(List.of("301")) && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        assertThat(rows("SELECT id, region, d, amount FROM main.sales WHERE id = 1000")).containsExactly("1000|eu|2030-05-05|7.5");
        trino.execute("INSERT INTO main.sales VALUES (1001, 'us', DATE '2031-01-01', 8.5)");
        assertThat(rows("SELECT count(*), max(id) FROM main.sales")).containsExactly("302|1001");
    }

    @Test
    public void testShowCreateTableAndSetProperties()
    {
        trino.execute("CREATE SCHEMA props");
        trino.execute("CREATE TABLE props.t (id bigint COMMENT 'the id', region varchar, d date) COMMENT 'with properties' "
                + "WITH (partitioned_by = ARRAY['region', 'month(d)'], sorted_by = ARRAY['id DESC NULLS FIRST'], data_inlining_row_limit = 5)");
        String created = (String) trino.execute("SHOW CREATE TABLE props.t").getOnlyValue();
        assertThat(created).contains("COMMENT 'with properties'", "id bigint COMMENT 'the id'", "data_inlining_row_limit = 5",
                "partitioned_by = ARRAY['region','month(d)']", "sorted_by = ARRAY['id DESC NULLS FIRST']");
        trino.execute("ALTER TABLE props.t SET PROPERTIES partitioned_by = ARRAY['bucket(id, 4)'], sorted_by = ARRAY[], data_inlining_row_limit = 0");
        String altered = (String) trino.execute("SHOW CREATE TABLE props.t").getOnlyValue();
        assertThat(altered).contains("partitioned_by = ARRAY['bucket(id, 4)']", "data_inlining_row_limit = 0").doesNotContain("sorted_by");
        assertThatThrownBy(() -> trino.execute("ALTER TABLE props.t SET PROPERTIES data_inlining_row_limit = DEFAULT"))
                .hasMessageContaining("data_inlining_row_limit cannot be reset");
        // With the limit 0 an insert goes to a file, in the new partition layout.
        trino.execute("INSERT INTO props.t VALUES (1, 'eu', DATE '2024-01-01')");
        assertThat(rows("SELECT regexp_extract(\"$path\", 'id_bucket=[0-9]+') FROM props.t")).hasSize(1).allMatch(path -> !path.isEmpty());
        trino.execute("DROP TABLE props.t");
        trino.execute("DROP SCHEMA props");
    }

    @Test
    public void testViews()
            throws Exception
    {
        trino.execute("CREATE TABLE main.view_base (id bigint, name varchar)");
        trino.execute("INSERT INTO main.view_base VALUES (1, 'a'), (2, 'b'), (3, 'c')");
        trino.execute("CREATE VIEW main.v COMMENT 'big ids' AS SELECT id, upper(name) AS name FROM main.view_base WHERE id > 1");
        assertThat(rows("SELECT * FROM main.v ORDER BY id")).containsExactly("2|B", "3|C");
        assertThat(rows("SHOW TABLES FROM main LIKE 'v%'")).contains("v", "view_base");
        assertThat((String) trino.execute("SHOW CREATE VIEW main.v").getOnlyValue()).contains("COMMENT 'big ids'", "upper(name)");
        assertThatThrownBy(() -> trino.execute("CREATE VIEW main.v AS SELECT 1 x")).hasMessageContaining("already exists");
        trino.execute("CREATE OR REPLACE VIEW main.v AS SELECT count(*) AS n FROM main.view_base");
        assertThat(rows("SELECT * FROM main.v")).containsExactly("3");
        // DuckLake keeps the view as a view of dialect trino, with its comment as DuckLake's comment tag; DuckDB's views
        // are not Trino's to run.
        List<String> duckdb = duckDb(
                "SELECT view_name, dialect, regexp_replace(sql, '\\s+', ' ', 'g') FROM __ducklake_metadata_lake.ducklake_view WHERE view_name = 'v' AND end_snapshot IS NULL",
                "CREATE VIEW lake.main.duck_view AS SELECT 42 AS answer");
        assertThat(duckdb).anyMatch(line -> line.startsWith("ROW 0 v|trino|SELECT count(*) n FROM") && line.contains("main.view_base"));
        assertThat(rows("SHOW TABLES FROM main LIKE 'duck%'")).isEmpty();
        trino.execute("DROP VIEW main.v");
        assertThat(rows("SHOW TABLES FROM main LIKE 'v'")).isEmpty();
        assertThat(duckDb("SELECT count(*) FROM __ducklake_metadata_lake.ducklake_tag WHERE key = 'trino_view_definition' AND end_snapshot IS NULL"))
                .containsExactly("ROW 0 0");
    }

    @Test
    public void testTableProcedures()
            throws Exception
    {
        trino.execute("CREATE TABLE main.maint (id bigint, v varchar) WITH (data_inlining_row_limit = 0)");
        for (int i = 0; i < 3; i++) {
            trino.execute("INSERT INTO main.maint VALUES (" + (2 * i) + ", 'file'), (" + (2 * i + 1) + ", 'file')");
        }
        assertThat(tableDataFiles("maint")).isEqualTo(3);
        assertThat(rows("ALTER TABLE main.maint EXECUTE merge_adjacent_files")).containsExactly("compactions|1");
        assertThat(tableDataFiles("maint")).as("merged into one file").isEqualTo(1);
        trino.execute("DELETE FROM main.maint WHERE id < 4");
        assertThat(rows("ALTER TABLE main.maint EXECUTE rewrite_data_files(delete_threshold => 0.5)")).containsExactly("rewrites|1");
        assertThat(rows("SELECT count(*) FROM lake.ducklake.ducklake_delete_file WHERE end_snapshot IS NULL")).containsExactly("0");

        trino.execute("ALTER TABLE main.maint SET PROPERTIES data_inlining_row_limit = 100");
        trino.execute("INSERT INTO main.maint VALUES (10, 'inlined'), (11, 'inlined')");
        assertThat(tableDataFiles("maint")).as("a small insert is inlined").isEqualTo(1);
        assertThat(rows("ALTER TABLE main.maint EXECUTE flush_inlined_data")).containsExactlyInAnyOrder("flushed_files|1", "flushed_rows|2");
        assertThat(tableDataFiles("maint")).as("the flush wrote the inlined rows to a file").isEqualTo(2);
        assertThat(rows("SELECT id, v FROM main.maint ORDER BY id")).containsExactly("4|file", "5|file", "10|inlined", "11|inlined");

        assertThatThrownBy(() -> trino.execute("ALTER TABLE main.maint EXECUTE expire_snapshots(retention_threshold => 'soon')"))
                .hasMessageContaining("'soon' is not a duration");
        long snapshots = (long) trino.execute("SELECT count(*) FROM lake.ducklake.ducklake_snapshot").getOnlyValue();
        trino.execute("ALTER TABLE main.maint EXECUTE expire_snapshots(retention_threshold => '0s')");
        assertThat((long) trino.execute("SELECT count(*) FROM lake.ducklake.ducklake_snapshot").getOnlyValue())
                .as("every snapshot but the newest expired (lake-wide, as DuckLake's expiry)").isEqualTo(1).isLessThan(snapshots);
        trino.execute("ALTER TABLE main.maint EXECUTE cleanup_old_files(older_than => '0s')");
        assertThat(rows("SELECT count(*) FROM lake.ducklake.ducklake_files_scheduled_for_deletion")).containsExactly("0");
        assertThat(duckDb("SELECT id, v FROM lake.main.maint ORDER BY id")).containsExactly("ROW 0 4|file", "ROW 0 5|file", "ROW 0 10|inlined",
                "ROW 0 11|inlined");
    }

    /**
     * {@code remove_orphan_files} deletes what DuckLake's {@code ducklake_delete_orphaned_files} would (DuckDB's dry run
     * over the same lake names the same files): Parquet files under the data path that no snapshot references, older than
     * the threshold; live data and delete files, files scheduled for deletion, newer orphans and other files stay.
     */
    @Test
    public void testRemoveOrphanFiles()
            throws Exception
    {
        trino.execute("CREATE TABLE main.orphans (id bigint, v varchar) WITH (data_inlining_row_limit = 0)");
        for (int i = 0; i < 3; i++) {
            trino.execute("INSERT INTO main.orphans SELECT n, 'v' || CAST(n AS varchar) FROM UNNEST(sequence(" + (i * 100) + ", " + (i * 100 + 99) + ")) t(n)");
        }
        trino.execute("ALTER TABLE main.orphans EXECUTE merge_adjacent_files"); // the merged files are scheduled for deletion
        trino.execute("DELETE FROM main.orphans WHERE id BETWEEN 10 AND 40"); // a delete file of the merged file
        trino.execute("DELETE FROM main.orphans WHERE id BETWEEN 150 AND 180"); // another, the first one scheduled for deletion
        Path live = Path.of((String) trino.execute("SELECT min(\"$path\") FROM main.orphans").getOnlyValue());
        Path tableDirectory = live.getParent();
        Path dataDirectory = Path.of((String) trino.execute("SELECT value FROM lake.ducklake.ducklake_metadata WHERE key = 'data_path'").getOnlyValue());
        List<Path> oldOrphans = List.of(tableDirectory.resolve("ducklake-orphan-old.parquet"), dataDirectory.resolve("stray/deep/old.parquet"));
        Path newOrphan = tableDirectory.resolve("ducklake-orphan-new.parquet");
        Path notParquet = tableDirectory.resolve("notes.txt");
        for (Path file : List.of(oldOrphans.get(0), oldOrphans.get(1), newOrphan, notParquet)) {
            Files.createDirectories(file.getParent());
            Files.copy(live, file);
        }
        java.nio.file.attribute.FileTime hourAgo = java.nio.file.attribute.FileTime.from(java.time.Instant.now().minusSeconds(3600));
        for (Path file : List.of(oldOrphans.get(0), oldOrphans.get(1), notParquet)) {
            Files.setLastModifiedTime(file, hourAgo);
        }
        List<Path> before = parquetFiles(dataDirectory);
        List<String> dryRun = duckDb("SELECT path FROM ducklake_delete_orphaned_files('lake', older_than => now() - INTERVAL 10 MINUTE, dry_run => true) "
                + "ORDER BY path");
        assertThat(dryRun).containsExactlyInAnyOrderElementsOf(oldOrphans.stream().map(path -> "ROW 0 " + path).toList());

        long scheduled = (long) trino.execute("SELECT count(*) FROM lake.ducklake.ducklake_files_scheduled_for_deletion").getOnlyValue();
        assertThat(scheduled).as("the merge scheduled its sources for deletion").isPositive();
        assertThat(rows("ALTER TABLE main.orphans EXECUTE remove_orphan_files(retention_threshold => '10m')")).containsExactly("deleted_files|2");
        List<Path> after = parquetFiles(dataDirectory);
        assertThat(before).containsAll(after);
        assertThat(before.stream().filter(file -> !after.contains(file)).toList()).containsExactlyInAnyOrderElementsOf(oldOrphans);
        assertThat(newOrphan).exists();
        assertThat(notParquet).exists();
        assertThat(rows("SELECT count(*), sum(id) FROM main.orphans")).containsExactly("238|38960");
        assertThat(duckDb("SELECT count(*), sum(id) FROM lake.main.orphans")).containsExactly("ROW 0 238|38960");
        // With a threshold of 0 the newer orphan goes too; scheduled files stay for cleanup_old_files.
        assertThat(rows("ALTER TABLE main.orphans EXECUTE remove_orphan_files(retention_threshold => '0s')")).containsExactly("deleted_files|1");
        assertThat(newOrphan).doesNotExist();
        assertThat((long) trino.execute("SELECT count(*) FROM lake.ducklake.ducklake_files_scheduled_for_deletion").getOnlyValue()).isEqualTo(scheduled);
        assertThat(rows("ALTER TABLE main.orphans EXECUTE cleanup_old_files(older_than => '0s')")).containsExactly("deleted_files|" + scheduled);
        assertThat(rows("ALTER TABLE main.orphans EXECUTE remove_orphan_files(retention_threshold => '0s')")).containsExactly("deleted_files|0");
        assertThat(rows("SELECT count(*), sum(id) FROM main.orphans")).containsExactly("238|38960");
    }

    private static List<Path> parquetFiles(Path directory)
            throws java.io.IOException
    {
        try (java.util.stream.Stream<Path> files = Files.walk(directory)) {
            return files.filter(file -> file.toString().endsWith(".parquet")).sorted().toList();
        }
    }

    @Test
    public void testAddFilesProcedure()
            throws Exception
    {
        trino.execute("CREATE TABLE main.added (id bigint, name varchar, s row(a integer, b varchar))");
        Path file = directory.resolve("outside.parquet");
        Path reordered = directory.resolve("reordered.parquet");
        duckDb("COPY (SELECT range AS id, 'n' || range AS name, {'b': 'b' || range, 'a': range::INTEGER} AS s FROM range(5)) TO '" + file
                        + "' (FORMAT parquet)",
                "COPY (SELECT {'a': (range * 100)::INTEGER, 'b': 'c' || range} AS s, 'm' || range AS name, range + 10 AS id FROM range(3)) TO '" + reordered
                        + "' (FORMAT parquet)");
        trino.execute("CALL lake.system.add_files(schema_name => 'main', table_name => 'added', paths => ARRAY['" + file + "', '" + reordered + "'])");
        // DuckLake registers an added file (no field ids) with a name mapping; Trino reads it through the mapping as DuckDB
        // does, whatever the order of the file's columns and struct fields.
        String summary = "SELECT count(*), sum(id), max(name), sum(s.a), max(s.b), max_by(name, id) FROM %s.main.added";
        assertThat(duckDb(summary.formatted("lake"))).containsExactly("ROW 0 8|43|n4|310|c2|m2");
        assertThat(rows(summary.formatted("lake"))).containsExactly("8|43|n4|310|c2|m2");
        assertThat(rows("SELECT id, name, s.a, s.b FROM main.added WHERE id = 11")).containsExactly("11|m1|100|c1");
        assertThat(rows("SELECT id, s.b FROM main.added WHERE s.a = 3")).containsExactly("3|b3");
        // A row deleted from an added file; the change feed reads the files through their mappings too.
        trino.execute("DELETE FROM main.added WHERE id = 11");
        assertThat(duckDb(summary.formatted("lake"))).containsExactly("ROW 0 7|32|n4|210|c2|m2");
        assertThat(rows(summary.formatted("lake"))).containsExactly("7|32|n4|210|c2|m2");
        String feed = "SELECT count(*), sum(id), max(s.b) FROM TABLE(lake.system.%s(schema_name => 'main', table_name => 'added', start_snapshot => 0))";
        assertThat(rows(feed.formatted("table_insertions"))).containsExactly("8|43|c2");
        assertThat(rows(feed.formatted("table_deletions"))).containsExactly("1|11|c1");
        // A file DuckLake reads a column of from its hive partition directory (is_partition) is refused, naming the column.
        trino.execute("CREATE TABLE main.added_hive (k integer, v varchar)");
        Path hive = directory.resolve("hive");
        assertThat(duckDb("COPY (SELECT 1 AS k, 'x' AS v) TO '" + hive + "' (FORMAT parquet, PARTITION_BY (k))",
                "CALL ducklake_add_data_files('lake', 'added_hive', '" + hive + "/**/*.parquet', hive_partitioning => true)",
                "SELECT k, v FROM lake.main.added_hive")).containsExactly("ROW 2 1|x");
        assertThatThrownBy(() -> trino.execute("SELECT * FROM main.added_hive")).hasMessageContaining("hive partitioning")
                .hasMessageContaining("column 'k'");
        assertThatThrownBy(() -> trino.execute("CALL lake.system.add_files('main', 'added', ARRAY['" + directory.resolve("missing.parquet") + "'])"))
                .hasMessageContaining("missing.parquet");
        assertThatThrownBy(() -> trino.execute("CALL lake_ro.system.add_files('main', 'added', ARRAY['" + file + "'])"))
                .hasMessageContaining("read-only (moraine.read-only=true)");
    }

    private long tableDataFiles(String table)
    {
        return (long) trino.execute("SELECT count(*) FROM lake.ducklake.ducklake_data_file f JOIN lake.ducklake.ducklake_table t "
                + "ON f.table_id = t.table_id AND t.end_snapshot IS NULL WHERE t.table_name = '" + table + "' AND f.end_snapshot IS NULL").getOnlyValue();
    }

    @Test
    public void testReadOnlyCatalogRefusesWrites()
            throws Exception
    {
        trino.execute("CREATE TABLE main.ro (a bigint)");
        // The read-only catalog's reader follows the writer's commits within its poll interval.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!rows("SHOW TABLES FROM lake_ro.main").contains("ro") && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        for (String statement : List.of("INSERT INTO lake_ro.main.ro VALUES (1)", "CREATE TABLE lake_ro.main.ro2 (a bigint)",
                "CREATE TABLE lake_ro.main.ro3 AS SELECT 1 AS a", "CREATE SCHEMA lake_ro.nope", "DROP TABLE lake_ro.main.ro",
                "ALTER TABLE lake_ro.main.ro ADD COLUMN b varchar", "DELETE FROM lake_ro.main.ro WHERE a = 1", "UPDATE lake_ro.main.ro SET a = 2",
                "MERGE INTO lake_ro.main.ro t USING (VALUES 1) s(a) ON t.a = s.a WHEN NOT MATCHED THEN INSERT VALUES (s.a)",
                "TRUNCATE TABLE lake_ro.main.ro", "ALTER TABLE lake_ro.main.ro EXECUTE flush_inlined_data",
                "ALTER TABLE lake_ro.main.ro EXECUTE expire_snapshots", "ALTER TABLE lake_ro.main.ro EXECUTE remove_orphan_files")) {
            assertThatThrownBy(() -> trino.execute(statement)).as(statement).hasMessageContaining("read-only (moraine.read-only=true)");
        }
        assertThat(rows("SELECT count(*) FROM main.ro")).containsExactly("0");
    }

    private long dataFiles()
    {
        return (long) trino.execute("SELECT count(*) FROM lake.ducklake.ducklake_data_file").getOnlyValue();
    }

    private List<String> columns(String table)
    {
        return rows("DESCRIBE " + table).stream().map(row -> String.join(" ", Arrays.asList(row.split("\\|")).subList(0, 2))).toList();
    }

    private List<String> rows(String sql)
    {
        List<String> rows = new ArrayList<>();
        for (MaterializedRow row : trino.execute(sql).getMaterializedRows()) {
            rows.add(String.join("|", row.getFields().stream().map(String::valueOf).toList()));
        }
        return rows;
    }

    /**
     * Runs {@code statements} in DuckDB on the store and returns their rows, once Trino sees DuckDB's newest snapshot
     * ({@link EngineHead}).
     */
    private List<String> duckDb(String... statements)
            throws Exception
    {
        List<String> all = new ArrayList<>(List.of(statements));
        all.add("SELECT max(snapshot_id) FROM ducklake_snapshots('lake')");
        List<String> lines = new ArrayList<>(DuckDbOverStore.run(store, all.toArray(String[]::new)));
        String headRow = "ROW " + statements.length + " ";
        long head = Long.parseLong(lines.getLast().substring(headRow.length()));
        lines.removeIf(line -> line.startsWith(headRow));
        EngineHead.await("Trino", head, () -> (long) trino.execute("SELECT max(snapshot_id) FROM lake.ducklake.ducklake_snapshot").getOnlyValue());
        return lines;
    }
}
