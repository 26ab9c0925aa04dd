package io.moraine.launchers.trino;

import io.moraine.core.store.StoreUri;
import io.moraine.importer.CatalogImporter;
import io.moraine.importer.DuckLakeSource;
import io.moraine.launchers.CountingS3Proxy;
import io.moraine.testing.CanonicalRowsAssert;
import io.moraine.testing.DuckDbCanonicalRows;
import io.moraine.testing.DuckLakeChangeFeed;
import io.moraine.testing.DuckLakeChangeFeed.Function;
import io.moraine.testing.DuckLakeChangeFeed.Range;
import io.moraine.testing.DuckLakeHistory;
import io.moraine.testing.DuckLakeOracle;
import io.moraine.testing.LakeColumn;
import io.moraine.testing.LakeTable;
import io.moraine.testing.OracleSample;
import io.moraine.testing.S3ProxyServer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Trino cluster of three processes — Trino's own server as a coordinator that runs no task and two workers, each
 * with the plugin directory installed as a user installs it, discovery on 127.0.0.1 — reading the oracle workload
 * from S3 (S3Proxy): the moraine store in one bucket, the lake's data files in another. Every table at every surviving
 * snapshot, and {@code table_changes} over each table's whole history and every one-snapshot range of the oracle
 * sample ({@link OracleSample#ranges}), equal DuckDB + DuckLake's
 * answers over the local original. Each server reaches S3 only through a {@link CountingS3Proxy} of its own (its
 * store's S3 client by {@code AWS_ENDPOINT}, its file system by {@code s3.endpoint}), so the counts prove that the
 * workers read data files and never asked the store's bucket for anything: the coordinator alone reads the catalog.
 */
@Tag("cluster")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TrinoClusterOnS3Test
{
    private static final int WORKERS = 2;
    /** How many change-feed calls one Trino query makes (a UNION ALL). */
    private static final int CALLS_PER_QUERY = 64;

    private Path directory;
    private DuckLakeOracle oracle;
    private DuckLakeHistory history;
    private String catalogBucket;
    private String dataBucket;
    private CountingS3Proxy coordinatorS3;
    private final List<CountingS3Proxy> workerS3 = new ArrayList<>();
    private CompletableFuture<List<TrinoServerProcess>> starting;
    private List<TrinoServerProcess> cluster;
    private long trinoNanos;
    private long duckdbNanos;
    private Connection connection;

    @BeforeAll
    void setUp()
            throws Exception
    {
        long started = System.nanoTime();
        S3ProxyServer s3 = S3ProxyServer.shared();
        catalogBucket = s3.createBucket("moraine-cluster-catalog");
        dataBucket = s3.createBucket("moraine-cluster-data");
        StoreUri store = StoreUri.parse("s3://" + catalogBucket + "/catalog");
        coordinatorS3 = new CountingS3Proxy("coordinator", s3.endpoint());
        List<TrinoServerProcess.NodeSettings> workers = new ArrayList<>();
        for (int i = 0; i < WORKERS; i++) {
            CountingS3Proxy proxy = new CountingS3Proxy("worker-" + (i + 1), s3.endpoint());
            workerS3.add(proxy);
            workers.add(settings(proxy));
        }
        // The servers start while DuckDB writes the lake: the coordinator opens the store at its first query of the lake, the workers never.
        starting = CompletableFuture.supplyAsync(() -> {
            try {
                return TrinoServerProcess.startCluster(store, settings(coordinatorS3), workers);
            }
            catch (Exception e) {
                throw new CompletionException(e);
            }
        });
        directory = Files.createTempDirectory("moraine-trino-cluster");
        oracle = DuckLakeOracle.create(directory.resolve("lake"), DuckLakeOracle.CatalogDatabase.DUCKDB);
        oracle.runWorkload();
        history = DuckLakeHistory.of(oracle, directory.resolve("history-copy.ducklake"));
        s3.upload(dataBucket, oracle.dataPath(), "lake/data/");
        CatalogImporter.importCatalog(DuckLakeSource.parse(oracle.catalogCopy(directory.resolve("catalog-copy.ducklake"))), store,
                Optional.of("s3://" + dataBucket + "/lake/data/"), CatalogImporter.Progress.SILENT);
        double lakeReady = (System.nanoTime() - started) / 1e9;
        try {
            cluster = starting.join();
        }
        catch (CompletionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
        connection = cluster.getFirst().connect();
        System.out.printf("TrinoClusterOnS3Test: lake written and imported in %.1f s; a cluster of %d servers ready in %.1f s (the coordinator started in %.1f s)%n",
                lakeReady, cluster.size(), (System.nanoTime() - started) / 1e9, cluster.getFirst().startupTime().toMillis() / 1000.0);
    }

    /** One server's way to S3: its own counting proxy, for the store's client (the environment) and for data files (the catalog's file system). */
    private static TrinoServerProcess.NodeSettings settings(CountingS3Proxy proxy)
    {
        return new TrinoServerProcess.NodeSettings(Map.of(
                "fs.s3.enabled", "true",
                "s3.endpoint", proxy.endpoint(),
                "s3.region", "us-east-1",
                "s3.path-style-access", "true",
                "s3.aws-access-key", S3ProxyServer.ACCESS_KEY,
                "s3.aws-secret-key", S3ProxyServer.SECRET_KEY),
                Map.of("AWS_ENDPOINT", proxy.endpoint()));
    }

    @AfterAll
    void tearDown()
            throws Exception
    {
        if (connection != null) {
            connection.close();
        }
        if (cluster == null && starting != null) {
            try {
                cluster = starting.join();
            }
            catch (CompletionException e) {
                // It failed to start, and stopped what it had started.
            }
        }
        if (cluster != null) {
            cluster.forEach(TrinoServerProcess::close);
        }
        if (coordinatorS3 != null) {
            coordinatorS3.close();
        }
        for (CountingS3Proxy proxy : workerS3) {
            proxy.close();
        }
        if (oracle != null) {
            oracle.close();
        }
        if (directory != null) {
            io.moraine.cli.LocalDirectories.deleteRecursively(directory);
        }
    }

    @Test
    @Order(1)
    void everyTableAtEverySnapshotEqualsDuckLake()
            throws Exception
    {
        assertThat(JdbcCanonicalRows.query(connection, "SELECT count(*) FROM system.runtime.nodes WHERE NOT coordinator AND state = 'active'"))
                .containsExactly(List.of(Long.toString(WORKERS)));
        // Snapshots of a table with the same columns are read together, a UNION ALL per query (a cluster's query costs a second or so).
        Map<String, List<Long>> sameColumns = new LinkedHashMap<>();
        Map<String, LakeTable> tables = new HashMap<>();
        Map<String, List<LakeColumn>> columnsOf = new HashMap<>();
        for (long snapshot : history.survivingSnapshots()) {
            for (LakeTable table : history.tablesAt(snapshot)) {
                List<LakeColumn> columns = history.columnsAt(table, snapshot);
                String key = table + " " + columns;
                sameColumns.computeIfAbsent(key, k -> new ArrayList<>()).add(snapshot);
                tables.put(key, table);
                columnsOf.put(key, columns);
            }
        }
        List<String> failures = new ArrayList<>();
        long compared = 0;
        long rows = 0;
        for (Map.Entry<String, List<Long>> group : sameColumns.entrySet()) {
            LakeTable table = tables.get(group.getKey());
            List<LakeColumn> columns = columnsOf.get(group.getKey());
            List<Long> snapshots = group.getValue();
            String select = String.join(", ", columns.stream().map(LakeColumn::sqlName).toList());
            List<String> reads = new ArrayList<>();
            for (long snapshot : snapshots) {
                reads.add("SELECT " + snapshot + " AS snapshot, " + select + " FROM " + table.sqlName("lake") + " FOR VERSION AS OF " + snapshot);
            }
            Map<String, List<List<String>>> bySnapshot = new HashMap<>();
            long before = System.nanoTime();
            List<List<String>> read = JdbcCanonicalRows.query(connection, String.join("\nUNION ALL\n", reads));
            trinoNanos += System.nanoTime() - before;
            for (List<String> row : read) {
                bySnapshot.computeIfAbsent(row.getFirst(), k -> new ArrayList<>()).add(row.subList(1, row.size()));
            }
            for (long snapshot : snapshots) {
                long before2 = System.nanoTime();
                List<List<String>> expected = DuckDbCanonicalRows.read(oracle, table, snapshot, columns, "");
                duckdbNanos += System.nanoTime() - before2;
                try {
                    CanonicalRowsAssert.assertSameRows(table + " at snapshot " + snapshot, columns, expected, "Trino's cluster",
                            bySnapshot.getOrDefault(Long.toString(snapshot), List.of()));
                }
                catch (AssertionError e) {
                    failures.add(e.getMessage());
                }
                compared++;
                rows += expected.size();
            }
        }
        assertThat(failures).as("%d of %d comparisons failed", failures.size(), compared).isEmpty();
        assertThat(compared).as("every table at every surviving snapshot").isEqualTo(history.tableSnapshotPairs()).isGreaterThanOrEqualTo(30);
        assertThat(rows).as("rows compared").isGreaterThan(10_000);
        System.out.printf("TrinoClusterOnS3Test: %d table snapshots (%d rows, %d Trino queries) equal to DuckDB%n", compared, rows, sameColumns.size());
    }

    @Test
    @Order(2)
    void tableChangesOverSampledRangesEqualDuckLake()
            throws Exception
    {
        DuckLakeChangeFeed feed = new DuckLakeChangeFeed(history);
        List<Range> sample = OracleSample.ranges(feed);
        OracleSample.assertRangeSample(feed, sample);
        // Of the sample, each table's whole history and every one-snapshot range: the longer ranges repeat the whole
        // history's rows, and the in-process tests compare every sampled range (TestMoraineChangeFeedAfterWorkload).
        List<Range> ranges = sample.stream().filter(range -> range.start() == range.end() || isWholeHistory(sample, range)).toList();
        assertThat(ranges.stream().map(Range::table).distinct().count()).as("tables whose changes are compared").isEqualTo(sample.stream().map(Range::table).distinct().count());
        // Ranges of a table with the same columns at their ends are read together, a UNION ALL of calls per query.
        Map<String, List<Range>> sameColumns = new LinkedHashMap<>();
        ranges.forEach(range -> sameColumns.computeIfAbsent(range.table() + " " + range.columns(), key -> new ArrayList<>()).add(range));
        List<String> failures = new ArrayList<>();
        long compared = 0;
        long rows = 0;
        for (List<Range> group : sameColumns.values()) {
            for (int from = 0; from < group.size(); from += CALLS_PER_QUERY) {
                List<Range> chunk = group.subList(from, Math.min(group.size(), from + CALLS_PER_QUERY));
                long before = System.nanoTime();
                Map<Range, List<List<String>>> read = readTableChanges(chunk);
                trinoNanos += System.nanoTime() - before;
                for (Range range : chunk) {
                    long before2 = System.nanoTime();
                    List<List<String>> expected = feed.answer(Function.CHANGES, range, false);
                    duckdbNanos += System.nanoTime() - before2;
                    List<LakeColumn> columns = new ArrayList<>(Function.CHANGES.changeColumns());
                    columns.addAll(range.columns());
                    try {
                        CanonicalRowsAssert.assertSameRows("table_changes of " + range, columns, expected, "Trino's cluster", read.getOrDefault(range, List.of()));
                    }
                    catch (AssertionError e) {
                        failures.add(e.getMessage());
                    }
                    compared++;
                    rows += expected.size();
                }
            }
        }
        assertThat(failures).as("%d of %d comparisons failed", failures.size(), compared).isEmpty();
        assertThat(compared).isEqualTo(ranges.size()).isGreaterThanOrEqualTo(10);
        assertThat(rows).as("change rows compared").isGreaterThan(1000);
        System.out.printf("TrinoClusterOnS3Test: table_changes over %d ranges (of the %d sampled, of %d) (%d rows) equal to DuckDB%n", compared, sample.size(),
                feed.rangeCount(), rows);
    }

    private static boolean isWholeHistory(List<Range> sample, Range range)
    {
        List<Range> ofTable = sample.stream().filter(other -> other.table().equals(range.table())).toList();
        return range.start() == ofTable.stream().mapToLong(Range::start).min().orElseThrow() && range.end() == ofTable.stream().mapToLong(Range::end).max().orElseThrow();
    }

    /** Trino's rows of {@code table_changes} for ranges of a table with the same columns, by range, read by one query. */
    private Map<Range, List<List<String>>> readTableChanges(List<Range> ranges)
            throws SQLException
    {
        List<String> calls = new ArrayList<>();
        for (Range range : ranges) {
            List<String> select = new ArrayList<>(Function.CHANGES.changeColumns().stream().map(LakeColumn::sqlName).toList());
            range.columns().forEach(column -> select.add(column.sqlName()));
            calls.add("SELECT " + calls.size() + " AS range_index, " + String.join(", ", select) + " FROM TABLE(lake.system.table_changes(schema_name => '"
                    + range.table().schema() + "', table_name => '" + range.table().name() + "', start_snapshot => " + range.start() + ", end_snapshot => "
                    + range.end() + "))");
        }
        Map<Range, List<List<String>>> byRange = new HashMap<>();
        for (List<String> row : JdbcCanonicalRows.query(connection, String.join("\nUNION ALL\n", calls))) {
            byRange.computeIfAbsent(ranges.get(Integer.parseInt(row.getFirst())), range -> new ArrayList<>()).add(row.subList(1, row.size()));
        }
        return byRange;
    }

    /** Runs after the reads: every data file was read by a worker, every catalog read was the coordinator's. */
    @Test
    @Order(3)
    void workersReadDataFilesAndNeverTheStore()
    {
        System.out.printf("TrinoClusterOnS3Test: %.1f s in Trino's queries, %.1f s in DuckDB's%n", trinoNanos / 1e9, duckdbNanos / 1e9);
        System.out.println("TrinoClusterOnS3Test: S3 requests by process: " + coordinatorS3 + "; " + workerS3);
        assertThat(coordinatorS3.requests(catalogBucket)).as("the coordinator's requests for the store's bucket").isPositive();
        for (CountingS3Proxy worker : workerS3) {
            assertThat(worker.requests(catalogBucket)).as("%s's requests for the store's bucket", worker).isZero();
            assertThat(worker.requests("GET", dataBucket)).as("%s's GETs of data files", worker).isPositive();
            assertThat(worker.counts().keySet()).as("%s asked nothing of any bucket but the data's", worker).allMatch(key -> key.endsWith(" " + dataBucket));
        }
    }
}
