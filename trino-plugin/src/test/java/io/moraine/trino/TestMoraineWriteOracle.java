package io.moraine.trino;

import io.moraine.core.store.StoreUri;
import io.moraine.testing.CanonicalRowsAssert;
import io.moraine.testing.CanonicalText;
import io.moraine.testing.DuckDbSession;
import io.moraine.testing.EngineHead;
import io.moraine.testing.MergeInsertedRowIds;
import io.moraine.testing.OracleDifferences;
import io.moraine.testing.DuckLakeCatalogRows;
import io.moraine.testing.LakeColumn;
import io.trino.testing.QueryRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static com.google.common.io.MoreFiles.deleteRecursively;
import static com.google.common.io.RecursiveDeleteOption.ALLOW_INSECURE;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The write oracle: a workload of every write statement run through Trino on a moraine lake and, statement by
 * statement, its DuckDB equivalent through DuckDB+DuckLake on a DuckDB-file catalog (the oracle). After each
 * statement, every table at that statement's snapshot read by DuckDB through {@code ducklake:moraine:} and by Trino
 * equals the oracle's rows, all columns and row ids; the {@code ducklake_*} rows equal the oracle's as in the core's
 * oracle tests ({@link DuckLakeCatalogRows}). Then DuckDB writes on the Trino-written lake (and the oracle), Trino
 * reads that equal, and Trino writes on. One Trino and one DuckDB process serve the whole class.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public class TestMoraineWriteOracle
{
    private static final List<String> CATALOG = Stream.of(DuckLakeCatalogRows.PARTITIONED, List.of(DuckLakeCatalogRows.SCHEDULED_FOR_DELETION),
            DuckLakeCatalogRows.MORE).flatMap(List::stream).toList();
    private static final String ORACLE = "oracle";
    private static final String MORAINE = "lake";

    private Path directory;
    private DuckDbSession duckdb;
    private QueryRunner trino;
    /** Row ids a MERGE gave the rows it inserted, per table (DuckDB and Trino may number those rows differently). */
    private final OracleDifferences differences = new OracleDifferences();
    private MergeInsertedRowIds mergeInserted;
    private int catalogComparisons;
    private int tableComparisons;
    private int statements;

    @BeforeAll
    public void setUp()
            throws Exception
    {
        directory = Files.createTempDirectory("moraine-trino-write-oracle");
        Files.createDirectories(directory.resolve("oracle-data"));
        Files.createDirectories(directory.resolve("data"));
        StoreUri store = StoreUri.parse(directory.resolve("store").toString());
        duckdb = DuckDbSession.start();
        mergeInserted = new MergeInsertedRowIds(duckdb, "oracle_meta");
        duckdb.execute("ATTACH 'ducklake:" + directory.resolve("oracle.ducklake") + "' AS " + ORACLE + " (DATA_PATH '" + directory.resolve("oracle-data")
                + "/', METADATA_CATALOG 'oracle_meta')");
        duckdb.execute("ATTACH 'ducklake:moraine:" + store + "' AS " + MORAINE + " (DATA_PATH '" + directory.resolve("data") + "/', METADATA_CATALOG 'lake_meta')");
        for (String lake : List.of(ORACLE, MORAINE)) {
            duckdb.execute("CALL " + lake + ".set_option('data_inlining_row_limit', 10)");
        }
        // One writer per statement, as the single-threaded DuckDB writes: the same rows in the same files, so the same ids.
        trino = MoraineQueryRunner.onStore(store, Map.of(), Map.of("task_min_writer_count", "1", "task_max_writer_count", "1", "scale_writers", "false",
                "task_scale_writers_enabled", "false"), "main", 0);
    }

    @AfterAll
    public void tearDown()
            throws Exception
    {
        try (DuckDbSession session = duckdb) {
            if (trino != null) {
                trino.close();
            }
        }
        deleteRecursively(directory, ALLOW_INSECURE);
    }

    @Test
    public void testWriteWorkloadMatchesDuckLake()
            throws Exception
    {
        long started = System.nanoTime();
        compare();
        trino("CREATE SCHEMA s2", "CREATE SCHEMA {lake}.s2");
        trino("CREATE TABLE main.t (id bigint, name varchar, price decimal(10,2), d date, ts timestamp(6), flag boolean, x double)",
                "CREATE TABLE {lake}.main.t (id BIGINT, name VARCHAR, price DECIMAL(10,2), d DATE, ts TIMESTAMP, flag BOOLEAN, x DOUBLE)");
        String small = "(1, 'one', 1.25, DATE '2024-01-02', TIMESTAMP '2024-01-02 03:04:05.123456', true, 1.5), (2, NULL, NULL, NULL, NULL, NULL, NULL), "
                + "(3, 'three', -3.50, DATE '1969-12-31', TIMESTAMP '1969-12-31 23:59:59.999999', false, -2.25)";
        trino("INSERT INTO main.t VALUES " + small, "INSERT INTO {lake}.main.t VALUES " + small);
        trino("INSERT INTO main.t SELECT n, 'n' || CAST(n AS varchar), CAST(n AS decimal(10,2)), date_add('day', n, DATE '2020-01-01'), "
                        + "date_add('second', n, TIMESTAMP '2020-01-01 00:00:00.000000'), n % 2 = 0, n / 4e0 FROM UNNEST(sequence(100, 1099)) t(n)",
                "INSERT INTO {lake}.main.t SELECT i, 'n' || i, i::DECIMAL(10,2), DATE '2020-01-01' + i::INTEGER, TIMESTAMP '2020-01-01' + to_seconds(i), "
                        + "i % 2 = 0, i / 4 FROM range(100, 1100) r(i)");
        trino("INSERT INTO main.t (id, name) VALUES (2000, 'a'), (2001, 'b')", "INSERT INTO {lake}.main.t (id, name) VALUES (2000, 'a'), (2001, 'b')");
        trino("COMMENT ON TABLE main.t IS 'the table'", "COMMENT ON TABLE {lake}.main.t IS 'the table'");
        trino("CREATE TABLE main.c AS SELECT id, name, x FROM main.t WHERE id BETWEEN 100 AND 399",
                "CREATE TABLE {lake}.main.c AS SELECT id, name, x FROM {lake}.main.t WHERE id BETWEEN 100 AND 399");
        trino("CREATE TABLE s2.p WITH (partitioned_by = ARRAY['region', 'year(d)'], sorted_by = ARRAY['id']) AS SELECT n AS id, "
                        + "CASE n % 3 WHEN 0 THEN 'eu' WHEN 1 THEN 'us' ELSE 'apac' END AS region, date_add('day', n, DATE '2022-12-30') AS d, n * 1.5e0 AS amount "
                        + "FROM UNNEST(sequence(1, 300)) t(n)",
                "BEGIN; CREATE TABLE {lake}.s2.p (id BIGINT, region VARCHAR, d DATE, amount DOUBLE); ALTER TABLE {lake}.s2.p SET PARTITIONED BY (region, year(d)); "
                        + "ALTER TABLE {lake}.s2.p SET SORTED BY (id); INSERT INTO {lake}.s2.p SELECT i, CASE i % 3 WHEN 0 THEN 'eu' WHEN 1 THEN 'us' ELSE 'apac' END, "
                        + "DATE '2022-12-30' + i::INTEGER, i * 1.5::DOUBLE FROM range(1, 301) r(i); COMMIT");
        trino("INSERT INTO s2.p VALUES (400, 'eu', DATE '2024-02-02', 4.5), (401, 'us', NULL, NULL)",
                "INSERT INTO {lake}.s2.p VALUES (400, 'eu', DATE '2024-02-02', 4.5), (401, 'us', NULL, NULL)");

        // Deletes, updates and merges of inlined rows and file rows, small (inlined) and large (files).
        trino("DELETE FROM main.t WHERE id IN (2, 150, 151, 2000)", "DELETE FROM {lake}.main.t WHERE id IN (2, 150, 151, 2000)");
        trino("DELETE FROM main.t WHERE id BETWEEN 500 AND 599", "DELETE FROM {lake}.main.t WHERE id BETWEEN 500 AND 599");
        trino("UPDATE main.t SET name = 'u' WHERE id IN (1, 160, 2001)", "UPDATE {lake}.main.t SET name = 'u' WHERE id IN (1, 160, 2001)");
        trino("UPDATE main.t SET name = 'big', x = x + 1 WHERE id BETWEEN 600 AND 700", "UPDATE {lake}.main.t SET name = 'big', x = x + 1 WHERE id BETWEEN 600 AND 700");
        // DuckLake's MERGE takes one UPDATE or DELETE action. DuckLake 1.5.5 writes a MERGE's inserted rows to a file even when
        // they are few (Trino inlines them, as later DuckLake versions do): this MERGE inserts more than the inlining limit.
        String merge = "MERGE INTO %s.main.t AS t USING (SELECT * FROM (VALUES (3, 'm3'), (171, 'm171'), (2001, 'm2001')) v(id, name) UNION ALL %s) AS s "
                + "ON t.id = s.id WHEN MATCHED THEN UPDATE SET name = s.name WHEN NOT MATCHED THEN INSERT (id, name) VALUES (s.id, s.name)";
        mergeInserted.around("t", () -> trino(merge.formatted("lake", "SELECT n, 'new' || CAST(n AS varchar) FROM UNNEST(sequence(5000, 5019)) u(n)"),
                merge.formatted("{lake}", "SELECT i, 'new' || i FROM range(5000, 5020) r(i)")));
        String mergeDelete = "MERGE INTO %s.main.t AS t USING (VALUES (170), (172), (2001), (9999)) AS s(id) ON t.id = s.id WHEN MATCHED THEN DELETE";
        trino(mergeDelete.formatted("lake"), mergeDelete.formatted("{lake}"));
        // Rows moved across partitions (few: inlined with their row ids), and many rows updated within one partition (a file
        // with row ids). An update spreading many rows over several partitions writes the partitions' files in the order the
        // rows arrive, which differs between the engines' scans (so do the files' ids).
        trino("UPDATE s2.p SET region = 'eu', amount = -amount WHERE id IN (1, 2, 4, 400, 401)", "UPDATE {lake}.s2.p SET region = 'eu', amount = -amount WHERE id IN (1, 2, 4, 400, 401)");
        trino("UPDATE s2.p SET amount = amount + 1 WHERE region = 'apac' AND id < 200", "UPDATE {lake}.s2.p SET amount = amount + 1 WHERE region = 'apac' AND id < 200");
        trino("DELETE FROM s2.p WHERE region = 'us' AND id > 250", "DELETE FROM {lake}.s2.p WHERE region = 'us' AND id > 250");

        // Schema evolution.
        trino("ALTER TABLE main.t ADD COLUMN q integer", "ALTER TABLE {lake}.main.t ADD COLUMN q INTEGER");
        trino("INSERT INTO main.t (id, name, q) VALUES (6000, 'q', 7), (6001, 'q', 8)", "INSERT INTO {lake}.main.t (id, name, q) VALUES (6000, 'q', 7), (6001, 'q', 8)");
        trino("ALTER TABLE main.t RENAME COLUMN name TO label", "ALTER TABLE {lake}.main.t RENAME COLUMN name TO label");
        trino("ALTER TABLE main.t ALTER COLUMN q SET DATA TYPE bigint", "ALTER TABLE {lake}.main.t ALTER COLUMN q SET DATA TYPE BIGINT");
        trino("UPDATE main.t SET q = 9 WHERE id IN (6000, 3, 700)", "UPDATE {lake}.main.t SET q = 9 WHERE id IN (6000, 3, 700)");

        // Procedures, truncate, rename and drop.
        trino("ALTER TABLE main.t EXECUTE flush_inlined_data", "CALL ducklake_flush_inlined_data('{lake}', table_name => 't')");
        // After the flush: DuckLake's flush rewrites the table statistics of a column dropped before it (moraine's does not).
        trino("ALTER TABLE main.t DROP COLUMN flag", "ALTER TABLE {lake}.main.t DROP COLUMN flag");
        trino("INSERT INTO main.c SELECT n, 'c' || CAST(n AS varchar), n / 2e0 FROM UNNEST(sequence(3000, 3199)) t(n)",
                "INSERT INTO {lake}.main.c SELECT i, 'c' || i, i / 2 FROM range(3000, 3200) r(i)");
        trino("ALTER TABLE main.c EXECUTE merge_adjacent_files", "CALL ducklake_merge_adjacent_files('{lake}', 'c')");
        trino("TRUNCATE TABLE main.c", "TRUNCATE {lake}.main.c");
        trino("ALTER TABLE main.c RENAME TO c2", "ALTER TABLE {lake}.main.c RENAME TO c2");
        trino("ALTER TABLE main.t EXECUTE expire_snapshots(retention_threshold => '0s')", "CALL ducklake_expire_snapshots('{lake}', older_than => now())");
        trino("DROP TABLE main.c2", "DROP TABLE {lake}.main.c2");

        // DuckDB writes on the lake Trino wrote (and on the oracle); Trino reads what it wrote.
        duckDb("INSERT INTO {lake}.main.t (id, label, q) SELECT i, 'duck', i FROM range(7000, 7005) r(i)");
        duckDb("INSERT INTO {lake}.main.t (id, label, x) SELECT i, 'duckfile', i / 3 FROM range(8000, 8100) r(i)");
        duckDb("UPDATE {lake}.main.t SET label = 'dd' WHERE id IN (7000, 8000, 1, 5000)");
        duckDb("DELETE FROM {lake}.s2.p WHERE id % 7 = 0");
        duckDb("ALTER TABLE {lake}.main.t ADD COLUMN z VARCHAR");

        // And Trino writes on after DuckDB.
        trino("UPDATE main.t SET z = 'zz' WHERE id IN (7001, 8001, 1)", "UPDATE {lake}.main.t SET z = 'zz' WHERE id IN (7001, 8001, 1)");
        trino("INSERT INTO s2.p SELECT n, 'apac', DATE '2025-01-01', 1e0 FROM UNNEST(sequence(900, 949)) t(n)",
                "INSERT INTO {lake}.s2.p SELECT i, 'apac', DATE '2025-01-01', 1::DOUBLE FROM range(900, 950) r(i)");
        trino("DROP TABLE s2.p", "DROP TABLE {lake}.s2.p");
        trino("DROP SCHEMA s2", "DROP SCHEMA {lake}.s2");

        double seconds = (System.nanoTime() - started) / 1e9;
        System.out.println("TestMoraineWriteOracle: " + statements + " statements, " + catalogComparisons + " catalog and " + tableComparisons
                + " table comparisons in " + Math.round(seconds) + " s");
        differences.assertNone();
        assertThat(catalogComparisons).isEqualTo((statements + 1) * CATALOG.size());
        assertThat(tableComparisons).as("table comparisons (two engines)").isGreaterThanOrEqualTo(180);
    }

    /** {@code trinoSql} through Trino on the moraine lake, {@code duckDbSql} through DuckDB on the oracle; then {@link #compare}. */
    private void trino(String trinoSql, String duckDbSql)
            throws Exception
    {
        // a transaction's statements one at a time (DuckDB's JDBC driver runs one statement per call)
        for (String statement : duckDbSql.startsWith("BEGIN; ") ? duckDbSql.split("; ") : new String[] {duckDbSql}) {
            duckdb.execute(statement.replace("{lake}", ORACLE));
        }
        try {
            trino.execute(trinoSql);
        }
        catch (RuntimeException e) {
            throw new AssertionError("Trino failed " + trinoSql + " (DuckDB ran it): " + e.getMessage(), e);
        }
        statements++;
        compare();
    }

    /** {@code sql} through DuckDB on both lakes; then {@link #compare}. */
    private void duckDb(String sql)
            throws Exception
    {
        duckdb.execute(sql.replace("{lake}", ORACLE));
        duckdb.execute(sql.replace("{lake}", MORAINE));
        statements++;
        compare();
    }

    /**
     * The oracle's head snapshot, as both DuckDB (through {@code ducklake:moraine:}) and Trino see the moraine lake's;
     * its catalog rows; every table there in both engines. A difference is recorded, and the workload goes on.
     */
    private void compare()
            throws Exception
    {
        long head = Long.parseLong(duckdb.query("SELECT max(snapshot_id) FROM oracle_meta.ducklake_snapshot").getFirst().getFirst());
        EngineHead.await("DuckDB", head, () -> Long.parseLong(duckdb.query("SELECT max(snapshot_id) FROM lake_meta.ducklake_snapshot").getFirst().getFirst()));
        EngineHead.await("Trino", head, () -> (long) trino.execute("SELECT max(snapshot_id) FROM lake.ducklake.ducklake_snapshot").getOnlyValue());
        for (String sql : CATALOG) {
            List<List<String>> expected = duckdb.query(DuckLakeCatalogRows.on("oracle_meta", sql));
            List<List<String>> actual = duckdb.query(DuckLakeCatalogRows.on("lake_meta", sql));
            if (!actual.equals(expected)) {
                differences.add("after statement " + statements + " (snapshot " + head + "): " + sql + "\n  oracle: " + expected + "\n  moraine: " + actual);
            }
            catalogComparisons++;
        }
        for (List<String> table : duckdb.query("SELECT s.schema_name, t.table_name FROM oracle_meta.ducklake_table t JOIN oracle_meta.ducklake_schema s "
                + "USING (schema_id) WHERE t.end_snapshot IS NULL AND s.end_snapshot IS NULL ORDER BY ALL")) {
            compareTable(CanonicalText.stringOf(table.get(0)), CanonicalText.stringOf(table.get(1)), head);
        }
    }

    private void compareTable(String schema, String table, long snapshot)
            throws Exception
    {
        String name = "\"" + schema + "\".\"" + table + "\"";
        List<LakeColumn> columns = new ArrayList<>(duckdb.query("SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM " + ORACLE + "." + name
                + " AT (VERSION => " + snapshot + "))").stream().map(row -> new LakeColumn(CanonicalText.stringOf(row.get(0)), CanonicalText.stringOf(row.get(1)))).toList());
        String select = String.join(", ", columns.stream().map(LakeColumn::sqlName).toList());
        columns.add(new LakeColumn("rowid", "BIGINT"));
        String duckDbSql = "SELECT " + select + ", rowid FROM %s." + name + " AT (VERSION => " + snapshot + ")";
        List<List<String>> expected = mergeInserted.masked(table, duckdb.query(duckDbSql.formatted(ORACLE)));
        String what = schema + "." + table + " at snapshot " + snapshot + " after statement " + statements;
        differences.check(() -> CanonicalRowsAssert.assertSameRows(what, columns, expected, "DuckDB over moraine",
                mergeInserted.masked(table, duckdb.query(duckDbSql.formatted(MORAINE)))));
        differences.check(() -> CanonicalRowsAssert.assertSameRows(what, columns, expected, "Trino", mergeInserted.masked(table, TrinoCanonicalRows.of(
                trino.execute("SELECT " + select + ", \"$row_id\" FROM lake." + name + " FOR VERSION AS OF " + snapshot)))));
        tableComparisons += 2;
    }
}
