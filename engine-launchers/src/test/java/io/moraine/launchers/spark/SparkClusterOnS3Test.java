package io.moraine.launchers.spark;

import io.moraine.core.store.StoreUri;
import io.moraine.importer.CatalogImporter;
import io.moraine.importer.DuckLakeSource;
import io.moraine.launchers.CountingS3Proxy;
import io.moraine.testing.DuckLakeChangeFeed;
import io.moraine.testing.DuckLakeChangeFeed.Range;
import io.moraine.testing.DuckLakeHistory;
import io.moraine.testing.DuckLakeOracle;
import io.moraine.testing.LakeColumn;
import io.moraine.testing.LakeTable;
import io.moraine.testing.OracleSample;
import io.moraine.testing.S3ProxyServer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real Spark cluster: PyPI's pyspark's own spark-submit with only the moraine bundle jar added, on master
 * {@code local-cluster[2,1,1024]} (Spark's standalone master and two workers, each running an executor in a JVM of its
 * own), reading the oracle workload from S3 (S3Proxy) — the moraine store in one bucket, the lake's data files in
 * another: every table at the oldest, a middle and the newest surviving snapshot with tables, and the change feed
 * ({@code CHANGES ... WITH (computeUpdates = 'true')}, DuckLake's {@code table_changes}) over each table's whole
 * history and the one-snapshot ranges of the oracle sample ({@link OracleSample#ranges}), each equal to DuckDB +
 * DuckLake's answer over the local original; then an INSERT and a MERGE INTO run on the cluster (their data files
 * written by the executors, the MERGE's delete file by the driver), and the table they wrote equals what DuckDB computes. The driver reaches S3 through one {@link CountingS3Proxy}, the executors
 * ({@code spark.executorEnv.AWS_ENDPOINT}) through another, so the counts prove that the executors read and wrote the
 * data files and never asked the store's bucket for anything: the driver alone reads and commits the catalog.
 */
@Tag("cluster")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SparkClusterOnS3Test
{
    private static final int EXECUTORS = 2;
    private static final String MASTER = "local-cluster[" + EXECUTORS + ",1,1024]";

    private SparkSubmit spark;
    private Path directory;
    private DuckLakeOracle oracle;
    private DuckLakeHistory history;
    private String catalogBucket;
    private String dataBucket;
    private CountingS3Proxy driverS3;
    private CountingS3Proxy executorS3;

    @BeforeAll
    void setUp()
            throws Exception
    {
        try {
            spark = SparkSubmit.of(SparkSubmit.checkoutRoot()).onMaster(MASTER);
        }
        catch (SparkSubmit.SparkUnavailableException e) {
            Assumptions.abort("skipping the Spark cluster test: " + e.getMessage());
        }
        directory = Files.createTempDirectory("moraine-spark-cluster");
        oracle = DuckLakeOracle.create(directory.resolve("lake"), DuckLakeOracle.CatalogDatabase.DUCKDB);
        oracle.runWorkload();
        history = DuckLakeHistory.of(oracle, directory.resolve("history-copy.ducklake"));
        S3ProxyServer s3 = S3ProxyServer.shared();
        catalogBucket = s3.createBucket("moraine-spark-cluster-catalog");
        dataBucket = s3.createBucket("moraine-spark-cluster-data");
        s3.upload(dataBucket, oracle.dataPath(), "lake/data/");
        CatalogImporter.importCatalog(DuckLakeSource.parse(oracle.catalogCopy(directory.resolve("catalog-copy.ducklake"))),
                StoreUri.parse("s3://" + catalogBucket + "/catalog"), Optional.of("s3://" + dataBucket + "/lake/data/"), CatalogImporter.Progress.SILENT);
        driverS3 = new CountingS3Proxy("driver", s3.endpoint());
        executorS3 = new CountingS3Proxy("executors", s3.endpoint());
    }

    @AfterAll
    void tearDown()
            throws Exception
    {
        if (driverS3 != null) {
            driverS3.close();
        }
        if (executorS3 != null) {
            executorS3.close();
        }
        if (oracle != null) {
            oracle.close();
        }
        if (directory != null) {
            io.moraine.cli.LocalDirectories.deleteRecursively(directory);
        }
    }

    @Test
    void executorsReadAndWriteTheLakeOnS3AsDuckLakeDoesAndNeverOpenTheStore()
            throws Exception
    {
        List<Comparison> reads = new ArrayList<>();
        for (long snapshot : sampledSnapshots()) {
            for (LakeTable table : history.tablesAt(snapshot)) {
                reads.add(Comparison.ofTable("t" + reads.size(), table, snapshot, history.columnsAt(table, snapshot)));
            }
        }
        List<Range> ranges = changeFeedRanges();
        for (Range range : ranges) {
            reads.add(Comparison.ofChanges("c" + reads.size(), range));
        }
        // Orders at the oldest and middle snapshots, orders and events at the newest; two tables' whole histories and their one-snapshot ranges.
        assertThat(reads.size()).isGreaterThanOrEqualTo(4 + 2 + 2);

        // The write: a table of its own (so no file stays inlined), an INSERT of orders rows, a MERGE that updates one and inserts one.
        List<String> writes = List.of(
                "CREATE TABLE lake.main.written (id BIGINT, client STRING, amount DECIMAL(12, 2)) TBLPROPERTIES ('data_inlining_row_limit' = '0')",
                "INSERT INTO lake.main.written SELECT id, client, amount FROM lake.sales.orders WHERE id < 2000",
                "MERGE INTO lake.main.written t USING (SELECT * FROM VALUES (1L, 'renamed'), (900001L, 'added') AS s(id, client)) s ON t.id = s.id "
                        + "WHEN MATCHED THEN UPDATE SET client = s.client WHEN NOT MATCHED THEN INSERT (id, client, amount) VALUES (s.id, s.client, NULL)");
        String writtenByDuckDb = "SELECT b.id, coalesce(s.client, b.client) AS client, b.amount FROM (SELECT id, client, amount FROM lake.sales.orders WHERE id < 2000) b "
                + "LEFT JOIN (VALUES (1, 'renamed')) s(id, client) ON b.id = s.id UNION ALL SELECT 900001, 'added', NULL";
        Comparison written = new Comparison("written", "SELECT id, client, amount FROM lake.main.written", writtenByDuckDb,
                List.of(new LakeColumn("id", "BIGINT"), new LakeColumn("client", "VARCHAR"), new LakeColumn("amount", "DECIMAL(12,2)")), "the table Spark wrote");

        List<String> steps = new ArrayList<>(reads.stream().map(Comparison::step).toList());
        writes.forEach(sql -> steps.add("{\"sql\": \"" + json(sql) + "\"}"));
        steps.add(written.step());
        Path answers = directory.resolve("answers");
        Path stepsFile = directory.resolve("steps.json");
        Files.writeString(stepsFile, String.join(",\n", steps.stream().toList()).transform(text -> "[\n" + text + "\n]\n"));
        Path script = directory.resolve("cluster_steps.py");
        try (InputStream in = getClass().getResourceAsStream("/spark/cluster_steps.py")) {
            Files.write(script, in.readAllBytes());
        }
        long started = System.nanoTime();
        Process process = spark.python(script, Map.of(
                        "spark.sql.catalog.lake", "io.moraine.spark.MoraineSparkCatalog",
                        "spark.sql.catalog.lake.store", "s3://" + catalogBucket + "/catalog",
                        "spark.sql.parquet.outputTimestampType", "TIMESTAMP_MICROS",
                        "spark.executor.memory", "768m",
                        // Two executors of one core: the change feed's update pairing and the MERGE shuffle into 4 partitions, not 200.
                        "spark.sql.shuffle.partitions", "4",
                        "spark.executorEnv.AWS_ENDPOINT", executorS3.endpoint()),
                List.of(stepsFile.toString(), answers.toString(), Integer.toString(EXECUTORS)), Map.of("AWS_ENDPOINT", driverS3.endpoint()))
                .redirectErrorStream(true)
                .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int exit = process.waitFor();
        System.out.printf("SparkClusterOnS3Test: spark-submit on %s ran %d steps in %.1f s%n", MASTER, steps.size(), (System.nanoTime() - started) / 1e9);
        output.lines().filter(line -> line.startsWith("timing: ")).forEach(line -> System.out.println("SparkClusterOnS3Test: " + line.substring("timing: ".length())));
        assertThat(exit).as("spark-submit exit status; its output:%n%s", output).isZero();
        assertThat(output).contains("executors: ['0', '1']").contains("wrote " + (reads.size() + 1) + " answers");

        List<String> failures = new ArrayList<>();
        for (Comparison comparison : reads) {
            try {
                comparison.assertSame(oracle, answers.resolve(comparison.name()));
            }
            catch (AssertionError e) {
                failures.add(e.getMessage());
            }
        }
        assertThat(failures).as("%d of %d comparisons failed", failures.size(), reads.size()).isEmpty();
        written.assertSame(oracle, answers.resolve(written.name()));
        assertThat(count(oracle, "SELECT count(*) FROM (" + writtenByDuckDb + ")")).as("rows of the written table").isGreaterThan(1000);

        System.out.println("SparkClusterOnS3Test: S3 requests by process: " + driverS3 + "; " + executorS3);
        assertThat(driverS3.requests(catalogBucket)).as("the driver's requests for the store's bucket").isPositive();
        assertThat(driverS3.requests("PUT", catalogBucket)).as("the driver's writes to the store (its commits)").isPositive();
        assertThat(executorS3.requests(catalogBucket)).as("the executors' requests for the store's bucket").isZero();
        assertThat(executorS3.requests("GET", dataBucket)).as("the executors' reads of data files").isPositive();
        // The written table's objects, by the process that PUT them: the data files are the executors'.
        String prefix = "lake/data/main/written/";
        Map<String, Long> objects = S3ProxyServer.shared().objects(dataBucket, prefix);
        List<String> byExecutors = objects.keySet().stream().filter(key -> executorS3.changes().contains("PUT /" + dataBucket + "/" + key)).toList();
        List<String> byDriver = objects.keySet().stream().filter(key -> driverS3.changes().contains("PUT /" + dataBucket + "/" + key)).toList();
        System.out.printf("SparkClusterOnS3Test: the written table's files: %s by the executors, %s by the driver; the executors' changes %s, the driver's %s%n",
                byExecutors, byDriver, executorS3.changes(), driverS3.changes().stream().filter(change -> change.contains(dataBucket)).toList());
        assertThat(byExecutors.size() + byDriver.size()).as("files of the written table put by the driver or the executors: %s", objects.keySet()).isEqualTo(objects.size());
        assertThat(byExecutors).as("data files the executors wrote (the INSERT's and the MERGE's)").hasSizeGreaterThanOrEqualTo(2);
        assertThat(executorS3.counts().keySet()).as("the executors asked nothing of any bucket but the data's").allMatch(key -> key.endsWith(" " + dataBucket));
    }

    /** The oldest, a middle and the newest surviving snapshot with tables (every snapshot is the embedded tests' job). */
    private List<Long> sampledSnapshots()
            throws SQLException
    {
        List<Long> withTables = new ArrayList<>();
        for (long snapshot : history.survivingSnapshots()) {
            if (!history.tablesAt(snapshot).isEmpty()) {
                withTables.add(snapshot);
            }
        }
        return List.of(withTables.getFirst(), withTables.get(withTables.size() / 2), withTables.getLast());
    }

    /** Of the oracle sample's ranges, each table's whole history and its one-snapshot ranges at its newest and oldest snapshot. */
    private List<Range> changeFeedRanges()
            throws SQLException
    {
        DuckLakeChangeFeed feed = new DuckLakeChangeFeed(history);
        List<Range> sample = OracleSample.ranges(feed);
        OracleSample.assertRangeSample(feed, sample);
        List<Range> chosen = new ArrayList<>();
        for (LakeTable table : sample.stream().map(Range::table).distinct().toList()) {
            List<Range> ofTable = sample.stream().filter(range -> range.table().equals(table)).toList();
            long first = ofTable.stream().mapToLong(Range::start).min().orElseThrow();
            long last = ofTable.stream().mapToLong(Range::end).max().orElseThrow();
            ofTable.stream().filter(range -> (range.start() == first && range.end() == last)
                            || (range.start() == range.end() && (range.end() == last || range.end() == ofTable.getFirst().end())))
                    .forEach(chosen::add);
        }
        return chosen;
    }

    private static String json(String text)
    {
        return text.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    private static long count(DuckLakeOracle oracle, String sql)
            throws SQLException
    {
        return Long.parseLong(oracle.query(sql).getFirst().getFirst());
    }

    /** A Spark query whose answer (Parquet) must equal DuckDB's query over the oracle, column by column in DuckDB's text, both ways. */
    private record Comparison(String name, String sparkSql, String duckdbSql, List<LakeColumn> columns, String what)
    {
        static Comparison ofTable(String name, LakeTable table, long snapshot, List<LakeColumn> columns)
        {
            String spark = "SELECT " + columns.stream().map(column -> "`" + column.name().replace("`", "``") + "`").collect(Collectors.joining(", "))
                    + " FROM lake.`" + table.schema() + "`.`" + table.name() + "` VERSION AS OF " + snapshot;
            String duckdb = "SELECT " + columns.stream().map(LakeColumn::sqlName).collect(Collectors.joining(", ")) + " FROM " + table.sqlName("lake")
                    + " AT (VERSION => " + snapshot + ")";
            return new Comparison(name, spark, duckdb, columns, table + " at snapshot " + snapshot);
        }

        /** DuckLake's table_changes of {@code range}: Spark's change feed with updates paired, its change columns named as DuckDB's. */
        static Comparison ofChanges(String name, Range range)
        {
            List<LakeColumn> columns = new ArrayList<>(DuckLakeChangeFeed.Function.CHANGES.changeColumns());
            columns.addAll(range.columns());
            String tableColumns = range.columns().stream().map(column -> "`" + column.name().replace("`", "``") + "`").collect(Collectors.joining(", "));
            String spark = "SELECT _commit_version AS snapshot_id, _row_id AS rowid, _change_type AS change_type, " + tableColumns + " FROM lake.`"
                    + range.table().schema() + "`.`" + range.table().name() + "` CHANGES FROM VERSION " + range.start() + " TO VERSION " + range.end()
                    + " WITH (computeUpdates = 'true')";
            String duckdb = "SELECT snapshot_id, rowid, change_type, " + range.columns().stream().map(LakeColumn::sqlName).collect(Collectors.joining(", "))
                    + " FROM ducklake_table_changes('lake', '" + range.table().schema() + "', '" + range.table().name() + "', " + range.start() + ", " + range.end() + ")";
            return new Comparison(name, spark, duckdb, columns, "table_changes of " + range);
        }

        String step()
        {
            return "{\"name\": \"" + name + "\", \"sql\": \"" + json(sparkSql) + "\"}";
        }

        void assertSame(DuckLakeOracle oracle, Path answer)
                throws SQLException
        {
            String text = columns.stream().map(column -> "CAST(" + column.sqlName() + " AS VARCHAR)").collect(Collectors.joining(", "));
            String duckdb = "SELECT " + text + " FROM (" + duckdbSql + ")";
            String spark = "SELECT " + text + " FROM read_parquet('" + answer + "/*.parquet')";
            long duckdbRows = count(oracle, "SELECT count(*) FROM (" + duckdbSql + ")");
            long sparkRows = count(oracle, "SELECT count(*) FROM read_parquet('" + answer + "/*.parquet')");
            assertThat(sparkRows).as("rows of %s read by the Spark cluster", what).isEqualTo(duckdbRows);
            List<List<String>> missing = oracle.query("(" + duckdb + ") EXCEPT ALL (" + spark + ") LIMIT 5");
            List<List<String>> extra = oracle.query("(" + spark + ") EXCEPT ALL (" + duckdb + ") LIMIT 5");
            assertThat(missing).as("rows of %s that DuckDB has and Spark does not (Spark has %s instead)", what, extra).isEmpty();
            assertThat(extra).as("rows of %s that Spark has and DuckDB does not", what).isEmpty();
        }
    }
}
