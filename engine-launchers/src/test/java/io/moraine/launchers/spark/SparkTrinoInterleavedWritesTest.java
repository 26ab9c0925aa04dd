package io.moraine.launchers.spark;

import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.catalog.NewCatalog;
import io.moraine.core.store.StoreOptions;
import io.moraine.core.store.StoreUri;
import io.moraine.launchers.trino.TrinoServerProcess;
import io.moraine.testing.DuckDbSession;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spark and Trino write one table on one store in turn — inserts (inlined and to files), updates, merges and deletes —
 * each engine a real installation (Spark: PyPI's pyspark with only the bundle jar; Trino: its own server with the
 * plugin directory), the writer handed from one to the other at each commit. After every statement both engines read
 * the rows the statements so far make; at the end DuckDB reads the lake through {@code ducklake:moraine:} equal to
 * them, and all three engines give every row the same row id.
 */
@Tag("cluster")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SparkTrinoInterleavedWritesTest
{
    /** Every value as text (the outputs named apart from {@code id}: Spark would otherwise sort by the text of id). */
    private static final String ROWS = "SELECT CAST(id AS %1$s) AS i, CAST(v AS %1$s) AS s, CAST(n AS %1$s) AS k FROM %2$s ORDER BY id";
    private static final String ROWS_WITH_ROW_IDS = "SELECT CAST(id AS %1$s) AS i, CAST(v AS %1$s) AS s, CAST(n AS %1$s) AS k, CAST(%3$s AS %1$s) AS r "
            + "FROM %2$s ORDER BY id";

    private Path directory;
    private StoreUri store;
    private TrinoServerProcess trino;
    private Connection connection;
    private SparkDriverSession spark;
    /** id → "v|n": the rows the statements so far make. */
    private final TreeMap<Long, String> expected = new TreeMap<>();
    private int comparisons;

    @BeforeAll
    void setUp()
            throws Exception
    {
        SparkSubmit submit;
        try {
            submit = SparkSubmit.of(SparkSubmit.checkoutRoot());
        }
        catch (SparkSubmit.SparkUnavailableException e) {
            Assumptions.abort("skipping the real-Spark test: " + e.getMessage());
            return;
        }
        directory = Files.createTempDirectory("moraine-spark-trino-writes");
        Path data = Files.createDirectories(directory.resolve("data"));
        store = StoreUri.parse(directory.resolve("store").toUri().toString());
        try (MoraineCatalog ignored = MoraineCatalog.openOrCreate(store, NewCatalog.bootstrapped(data + "/"), StoreOptions.DEFAULTS)) {
            // created
        }
        trino = TrinoServerProcess.start(store, 0);
        connection = trino.connect();
        spark = SparkDriverSession.start(submit, directory, Map.of(
                "spark.sql.catalog.lake", "io.moraine.spark.MoraineSparkCatalog",
                "spark.sql.catalog.lake.store", store.toString(),
                "spark.sql.shuffle.partitions", "2"));
    }

    @AfterAll
    void tearDown()
            throws Exception
    {
        try (SparkDriverSession session = spark; TrinoServerProcess server = trino; Connection closed = connection) {
            // closed in reverse order
        }
        if (directory != null) {
            try (var paths = Files.walk(directory)) {
                for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(path);
                }
            }
        }
    }

    @Test
    void sparkAndTrinoWriteOneTableInTurnAndDuckDbReadsTheResult()
            throws Exception
    {
        spark("CREATE TABLE lake.main.t (id BIGINT, v STRING, n INT) TBLPROPERTIES ('data_inlining_row_limit' = '10')");
        trino("INSERT INTO t VALUES (1, 't1', 1), (2, 't2', 2)");
        put(1, "t1", 1);
        put(2, "t2", 2);
        compareBoth("Trino's inlined insert");

        spark("INSERT INTO lake.main.t SELECT id, concat('s', id), CAST(id AS INT) FROM range(100, 150, 1, 1)");
        for (long id = 100; id < 150; id++) {
            put(id, "s" + id, id);
        }
        compareBoth("Spark's insert to a file");

        trino("INSERT INTO t SELECT x, 't' || CAST(x AS varchar), CAST(x AS integer) FROM UNNEST(sequence(200, 239)) u(x)");
        for (long id = 200; id < 240; id++) {
            put(id, "t" + id, id);
        }
        compareBoth("Trino's insert to a file");

        spark("UPDATE lake.main.t SET v = 'su' WHERE id IN (1, 120, 210)");
        for (long id : new long[] {1, 120, 210}) {
            setV(id, "su");
        }
        compareBoth("Spark's update of Trino's and its own rows");

        trino("UPDATE t SET n = n + 1000 WHERE id IN (2, 130, 210)");
        for (long id : new long[] {2, 130, 210}) {
            setN(id, n(id) + 1000);
        }
        compareBoth("Trino's update of Spark's and its own rows");

        spark("MERGE INTO lake.main.t t USING (SELECT * FROM VALUES (2L, 'sm2'), (140L, 'sm140'), (300L, 'sm300') AS s(id, v)) s ON t.id = s.id "
                + "WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT (id, v, n) VALUES (s.id, s.v, -1)");
        setV(2, "sm2");
        setV(140, "sm140");
        put(300, "sm300", -1);
        compareBoth("Spark's merge");

        trino("MERGE INTO t USING (VALUES (BIGINT '1', 'tm1'), (BIGINT '230', 'tm230'), (BIGINT '300', 'tm300'), (BIGINT '400', 'tm400')) AS s(id, v) "
                + "ON t.id = s.id WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT (id, v, n) VALUES (s.id, s.v, -2)");
        setV(1, "tm1");
        setV(230, "tm230");
        setV(300, "tm300");
        put(400, "tm400", -2);
        compareBoth("Trino's merge");

        spark("DELETE FROM lake.main.t WHERE id BETWEEN 100 AND 104 OR id IN (300, 235)");
        expected.keySet().removeIf(id -> id >= 100 && id <= 104 || id == 300 || id == 235);
        compareBoth("Spark's delete");

        trino("DELETE FROM t WHERE id IN (2, 145, 400)");
        expected.keySet().removeAll(List.of(2L, 145L, 400L));
        compareBoth("Trino's delete");

        spark("INSERT INTO lake.main.t VALUES (500, 'last', 5)");
        put(500, "last", 5);
        compareBoth("Spark's last insert");

        // DuckDB reads the lake both engines wrote; every row has one row id in all three engines.
        List<String> trinoRowIds = trinoRows("SELECT CAST(id AS varchar) AS i, CAST(\"$row_id\" AS varchar) AS r FROM t ORDER BY id");
        assertThat(spark.query("SELECT CAST(id AS STRING) AS i, CAST(_row_id AS STRING) AS r FROM lake.main.t ORDER BY id")).as("row ids, Spark and Trino")
                .containsExactlyElementsOf(trinoRowIds);
        try (DuckDbSession duckdb = DuckDbSession.start()) {
            duckdb.execute("ATTACH 'ducklake:moraine:" + store + "' AS lake (READ_ONLY)");
            List<String> rows = duckdb.query(ROWS.formatted("VARCHAR", "lake.main.t")).stream().map(SparkTrinoInterleavedWritesTest::duckDbRow).toList();
            assertThat(rows).as("DuckDB reads what Spark and Trino wrote").containsExactlyElementsOf(expectedRows());
            List<String> rowIds = duckdb.query("SELECT CAST(id AS VARCHAR) AS i, CAST(rowid AS VARCHAR) AS r FROM lake.main.t ORDER BY id").stream()
                    .map(SparkTrinoInterleavedWritesTest::duckDbRow).toList();
            assertThat(rowIds).as("row ids, DuckDB and Trino").containsExactlyElementsOf(trinoRowIds);
            comparisons += 3;
        }
        // 10 statements, each read by both engines, then DuckDB's rows and the row ids in three engines
        assertThat(comparisons).isEqualTo(23);
        assertThat(expected).hasSize(85);
    }

    private void spark(String sql)
            throws Exception
    {
        spark.query(sql);
    }

    private void trino(String sql)
            throws Exception
    {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    /** Both engines read the expected rows with the same row ids (each sees the other's last commit at its next read). */
    private void compareBoth(String after)
            throws Exception
    {
        List<String> rows = expectedRows();
        String trinoSql = ROWS_WITH_ROW_IDS.formatted("varchar", "t", "\"$row_id\"");
        awaitRows(() -> withoutRowIds(trinoRows(trinoSql)), rows);
        List<String> trinoRows = trinoRows(trinoSql);
        assertThat(withoutRowIds(trinoRows)).as("Trino after " + after).containsExactlyElementsOf(rows);
        assertThat(awaitRows(() -> spark.query(ROWS_WITH_ROW_IDS.formatted("STRING", "lake.main.t", "_row_id")), trinoRows))
                .as("Spark after " + after + ", row ids as Trino's").containsExactlyElementsOf(trinoRows);
        comparisons += 2;
    }

    private static List<String> withoutRowIds(List<String> rows)
    {
        return rows.stream().map(row -> row.substring(0, row.lastIndexOf('|'))).toList();
    }

    /** The engine's rows once they equal {@code rows}, or after 20 s. */
    private static List<String> awaitRows(Reader reader, List<String> rows)
            throws Exception
    {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        List<String> read = reader.read();
        while (!read.equals(rows) && System.nanoTime() < deadline) {
            Thread.sleep(200);
            read = reader.read();
        }
        return read;
    }

    private List<String> trinoRows(String sql)
            throws Exception
    {
        List<String> rows = new ArrayList<>();
        try (Statement statement = connection.createStatement(); ResultSet result = statement.executeQuery(sql)) {
            int columns = result.getMetaData().getColumnCount();
            while (result.next()) {
                List<String> values = new ArrayList<>();
                for (int i = 1; i <= columns; i++) {
                    values.add(result.getString(i) == null ? "NULL" : result.getString(i));
                }
                rows.add(String.join("|", values));
            }
        }
        return rows;
    }

    /** A DuckDbSession row (cells in canonical text: strings quoted) as values joined by {@code |}. */
    private static String duckDbRow(List<String> cells)
    {
        return String.join("|", cells.stream().map(cell -> cell.equals("NULL") ? "NULL" : cell.substring(1, cell.length() - 1).replace("''", "'")).toList());
    }

    private List<String> expectedRows()
    {
        return expected.entrySet().stream().map(entry -> entry.getKey() + "|" + entry.getValue()).toList();
    }

    private void put(long id, String v, long n)
    {
        expected.put(id, v + "|" + n);
    }

    private void setV(long id, String v)
    {
        put(id, v, n(id));
    }

    private void setN(long id, long n)
    {
        put(id, expected.get(id).split("\\|")[0], n);
    }

    private long n(long id)
    {
        return Long.parseLong(expected.get(id).split("\\|")[1]);
    }

    private interface Reader
    {
        List<String> read()
                throws Exception;
    }
}
