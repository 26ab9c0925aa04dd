package io.moraine.launchers.spark;

import io.moraine.core.store.StoreUri;
import io.moraine.importer.CatalogImporter;
import io.moraine.importer.DuckLakeSource;
import io.moraine.testing.DuckLakeHistory;
import io.moraine.testing.DuckLakeOracle;
import io.moraine.testing.LakeColumn;
import io.moraine.testing.LakeTable;
import io.moraine.testing.S3ProxyServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real Spark distribution — PyPI's pyspark, its own spark-submit, a PySpark application — with only the moraine
 * bundle jar added, reading a lake whose catalog (the moraine store) and data files both live in S3 (S3Proxy): every
 * table of the oracle workload at its oldest, a middle and its newest surviving snapshot by {@code VERSION AS OF}, all
 * columns, plus filtered scans, each equal to DuckDB + DuckLake's answer over the local original. Spark writes each answer as Parquet and DuckDB
 * compares it with its own, column by column in DuckDB's text, both ways ({@code EXCEPT ALL}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SparkSubmitOnS3Test
{
    private DuckLakeOracle oracle;
    private DuckLakeHistory history;
    private SparkSubmit spark;
    private Path directory;
    private String bucket;

    @BeforeAll
    void setUp()
            throws Exception
    {
        try {
            spark = SparkSubmit.of(SparkSubmit.checkoutRoot());
        }
        catch (SparkSubmit.SparkUnavailableException e) {
            Assumptions.abort("skipping the real-Spark test: " + e.getMessage());
        }
        directory = Files.createTempDirectory("moraine-spark-submit-s3");
        oracle = DuckLakeOracle.create(directory.resolve("lake"), DuckLakeOracle.CatalogDatabase.DUCKDB);
        oracle.runWorkload();
        history = DuckLakeHistory.of(oracle, directory.resolve("history-copy.ducklake"));
        S3ProxyServer s3 = S3ProxyServer.shared();
        bucket = s3.createBucket("moraine-spark-lake");
        s3.upload(bucket, oracle.dataPath(), "lake/data/");
        CatalogImporter.importCatalog(DuckLakeSource.parse(oracle.catalogCopy(directory.resolve("catalog-copy.ducklake"))),
                StoreUri.parse("s3://" + bucket + "/catalog"), Optional.of("s3://" + bucket + "/lake/data/"), CatalogImporter.Progress.SILENT);
    }

    @AfterAll
    void tearDown()
            throws Exception
    {
        if (oracle != null) {
            oracle.close();
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
    void sparkSubmitWithTheBundleReadsALakeOnS3AsDuckLakeDoes()
            throws Exception
    {
        // Every table at three surviving snapshots that have tables (the oldest, one in the middle, the newest): what the
        // bundle must carry shows at any snapshot; every snapshot is the embedded tests' job (TestMoraineSparkOracleWorkload).
        List<Long> surviving = history.survivingSnapshots();
        List<Long> withTables = new ArrayList<>();
        for (long snapshot : surviving) {
            if (!history.tablesAt(snapshot).isEmpty()) {
                withTables.add(snapshot);
            }
        }
        List<Long> snapshots = List.of(withTables.getFirst(), withTables.get(withTables.size() / 2), withTables.getLast());
        List<Comparison> comparisons = new ArrayList<>();
        for (long snapshot : snapshots) {
            for (LakeTable table : history.tablesAt(snapshot)) {
                comparisons.add(new Comparison("q" + comparisons.size(), table, snapshot, history.columnsAt(table, snapshot), ""));
            }
        }
        long head = surviving.getLast();
        LakeTable orders = new LakeTable("sales", "orders");
        LakeTable events = new LakeTable("main", "events");
        comparisons.add(new Comparison("q" + comparisons.size(), orders, head, history.columnsAt(orders, head), "id BETWEEN 10 AND 20"));
        comparisons.add(new Comparison("q" + comparisons.size(), events, head, history.columnsAt(events, head), "kind = 'k1' AND v < 100"));
        // At least orders at the oldest and middle snapshots, orders and events at the newest, and the 2 filtered scans.
        assertThat(comparisons).hasSizeGreaterThanOrEqualTo(6);

        Path answers = directory.resolve("answers");
        Path queries = directory.resolve("queries.json");
        Files.writeString(queries, comparisons.stream().map(Comparison::json).collect(Collectors.joining(",\n", "[\n", "\n]\n")));
        Path script = directory.resolve("write_answers.py");
        try (InputStream in = getClass().getResourceAsStream("/spark/write_answers.py")) {
            Files.write(script, in.readAllBytes());
        }
        ProcessBuilder submit = spark.python(script, Map.of(
                        "spark.sql.catalog.lake", "io.moraine.spark.MoraineSparkCatalog",
                        "spark.sql.catalog.lake.store", "s3://" + bucket + "/catalog",
                        "spark.sql.parquet.outputTimestampType", "TIMESTAMP_MICROS"),
                List.of(queries.toString(), answers.toString()), Map.of())
                .redirectErrorStream(true);
        Process process = submit.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int exit = process.waitFor();
        assertThat(exit).as("spark-submit exit status; its output:%n%s", output).isZero();
        assertThat(output).contains("wrote " + comparisons.size() + " answers");

        int compared = 0;
        for (Comparison comparison : comparisons) {
            comparison.assertSame(oracle, answers.resolve(comparison.name()));
            compared++;
        }
        assertThat(compared).isEqualTo(comparisons.size());
    }

    private record Comparison(String name, LakeTable table, long snapshot, List<LakeColumn> columns, String where)
    {
        String sparkSql()
        {
            return "SELECT " + columns.stream().map(column -> "`" + column.name().replace("`", "``") + "`").collect(Collectors.joining(", "))
                    + " FROM lake.`" + table.schema() + "`.`" + table.name() + "` VERSION AS OF " + snapshot + (where.isEmpty() ? "" : " WHERE " + where);
        }

        String json()
        {
            return "{\"name\": \"" + name + "\", \"sql\": \"" + sparkSql().replace("\\", "\\\\").replace("\"", "\\\"") + "\"}";
        }

        /** DuckDB's rows and Spark's (read back from its Parquet), every column as DuckDB's text, equal as multisets. */
        void assertSame(DuckLakeOracle oracle, Path answer)
                throws Exception
        {
            String text = columns.stream().map(column -> "CAST(" + column.sqlName() + " AS VARCHAR)").collect(Collectors.joining(", "));
            String duckdb = "SELECT " + text + " FROM " + table.sqlName("lake") + " AT (VERSION => " + snapshot + ")" + (where.isEmpty() ? "" : " WHERE " + where);
            String sparkText = columns.stream().map(column -> "CAST(" + column.sqlName() + " AS VARCHAR)").collect(Collectors.joining(", "));
            String spark = "SELECT " + sparkText + " FROM read_parquet('" + answer + "/*.parquet')";
            String what = table + " at snapshot " + snapshot + (where.isEmpty() ? "" : " where " + where);
            long duckdbRows = count(oracle, "SELECT count(*) FROM (" + duckdb + ")");
            long sparkRows = count(oracle, "SELECT count(*) FROM (" + spark + ")");
            assertThat(sparkRows).as("rows of %s through spark-submit", what).isEqualTo(duckdbRows);
            List<List<String>> missing = oracle.query("(" + duckdb + ") EXCEPT ALL (" + spark + ") LIMIT 5");
            List<List<String>> extra = oracle.query("(" + spark + ") EXCEPT ALL (" + duckdb + ") LIMIT 5");
            assertThat(missing).as("rows of %s that DuckDB has and Spark does not (Spark has %s instead)", what, extra).isEmpty();
            assertThat(extra).as("rows of %s that Spark has and DuckDB does not", what).isEmpty();
        }

        private static long count(DuckLakeOracle oracle, String sql)
                throws java.sql.SQLException
        {
            return Long.parseLong(oracle.query(sql).getFirst().getFirst());
        }
    }
}
