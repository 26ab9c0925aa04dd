package io.moraine.spark;

import io.moraine.core.store.StoreUri;
import io.moraine.importer.CatalogImporter;
import io.moraine.importer.DuckLakeSource;
import io.moraine.testing.DuckLakeHistory;
import io.moraine.testing.OracleSample;
import io.moraine.testing.DuckLakeOracle;
import io.moraine.testing.LakeColumn;
import io.moraine.testing.LakeTable;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static java.util.stream.Collectors.toSet;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The oracle workload (Parquet files, delete files, updates, inlined rows, added, renamed, dropped and retyped columns,
 * partitions, flush, merge, rewrite, expiry, a dropped table) read through Spark at a sample of its surviving snapshots
 * (every table at its newest snapshot, its oldest and every third counting back; {@code io.moraine.testing.OracleSample})
 * — by VERSION AS OF, by TIMESTAMP AS OF and by {@code format("moraine")} reader options — compared with DuckDB +
 * DuckLake, all columns; filtered and {@code count(*)} at every surviving snapshot. Every table at every snapshot is
 * compared engine-free by the moraine-cli module's {@code CatCommandTest}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestMoraineSparkOracleWorkload
{
    private DuckLakeOracle oracle;
    private SparkSession spark;
    private SparkDuckLakeComparison comparison;
    private String store;

    @BeforeAll
    void setUp()
            throws Exception
    {
        Path directory = Files.createTempDirectory("moraine-spark-workload");
        oracle = DuckLakeOracle.create(directory.resolve("lake"), DuckLakeOracle.CatalogDatabase.DUCKDB);
        oracle.runWorkload();
        StoreUri uri = StoreUri.parse(directory.resolve("store").toString());
        CatalogImporter.importCatalog(DuckLakeSource.parse(oracle.catalogCopy(directory.resolve("catalog-copy.ducklake"))), uri, Optional.empty(),
                CatalogImporter.Progress.SILENT);
        store = uri.toString();
        spark = SparkSessions.start(store, Map.of());
        comparison = new SparkDuckLakeComparison(DuckLakeHistory.of(oracle, directory.resolve("history-copy.ducklake")), spark);
    }

    @AfterAll
    void tearDown()
            throws Exception
    {
        try (DuckLakeOracle closed = oracle) {
            if (spark != null) {
                spark.stop();
            }
        }
    }

    @Test
    void everyTableAtSampledSnapshotsMatchesDuckLakeByVersion()
            throws Exception
    {
        // 15 of the 36 table snapshots today (14 snapshots with orders only, 8 with orders and events, 2 with the dropped table as well).
        assertThat(comparison.sampledTableSnapshots(comparison.sql(snapshot -> "VERSION AS OF " + snapshot))).isGreaterThanOrEqualTo(15);
    }

    @Test
    void everyTableAtSampledSnapshotsMatchesDuckLakeByTimestamp()
            throws Exception
    {
        Map<Long, String> times = new HashMap<>();
        for (List<String> row : oracle.query("SELECT snapshot_id, strftime(snapshot_time AT TIME ZONE 'UTC', '%Y-%m-%d %H:%M:%S.%f') FROM ducklake_snapshots('lake')")) {
            times.put(Long.parseLong(row.get(0)), row.get(1));
        }
        // Distinct times, so that the snapshot current at a snapshot's time is that snapshot.
        assertThat(Set.copyOf(times.values())).hasSameSizeAs(times.keySet());
        assertThat(comparison.sampledTableSnapshots(comparison.sql(snapshot -> "TIMESTAMP AS OF '" + times.get(snapshot) + "'"))).isGreaterThanOrEqualTo(15);
    }

    @Test
    void everyTableAtSampledSnapshotsMatchesDuckLakeThroughTheDataSource()
            throws Exception
    {
        SparkDuckLakeComparison.Reader reader = (table, snapshot, columns, where) -> spark.read().format("moraine")
                .option("store", store)
                .option("versionAsOf", Long.toString(snapshot))
                .load(table.schema() + "." + table.name())
                .selectExpr(columns.stream().map(SparkDuckLakeComparison::quoted).toArray(String[]::new))
                .collectAsList();
        assertThat(comparison.sampledTableSnapshots(reader)).isGreaterThanOrEqualTo(15);
    }

    @Test
    void countStarIsAnsweredFromTheCatalogWhereExactAndEqualsDuckLakeAtEverySnapshot()
            throws Exception
    {
        DuckLakeHistory history = comparison.history();
        long compared = 0;
        long fromCatalog = 0;
        for (long snapshot : history.survivingSnapshots()) {
            for (LakeTable table : history.tablesAt(snapshot)) {
                Dataset<Row> count = spark.sql("SELECT count(*) FROM lake." + table.schema() + "." + table.name() + " VERSION AS OF " + snapshot);
                boolean pushed = scala.jdk.javaapi.CollectionConverters.asJava(count.queryExecution().optimizedPlan().collectLeaves()).stream()
                        .anyMatch(leaf -> leaf instanceof org.apache.spark.sql.execution.datasources.v2.DataSourceV2ScanRelation relation
                                && relation.scan() instanceof MetadataCountScan);
                long expected = Long.parseLong(oracle.query("SELECT count(*) FROM " + table.sqlName("lake") + " AT (VERSION => " + snapshot + ")").getFirst().getFirst());
                assertThat(count.first().getLong(0)).as("count(*) of %s at %s (from the catalog: %s)", table, snapshot, pushed).isEqualTo(expected);
                try (io.moraine.core.catalog.CatalogSnapshot at = OpenStores.catalog(MoraineSettings.from(
                        new org.apache.spark.sql.util.CaseInsensitiveStringMap(Map.of("store", store)), "test")).at(snapshot)) {
                    long tableId = at.table(table.schema(), table.name()).orElseThrow().getLong("table_id");
                    boolean exact = io.moraine.core.stats.TableStatistics.of(at, tableId, io.moraine.core.types.TableSchema.of(at.columnTree(tableId)),
                            io.moraine.core.scan.ScanFilter.all()).rowCount().isPresent();
                    assertThat(pushed).as("count(*) of %s at %s pushed exactly when the core's row count is exact", table, snapshot).isEqualTo(exact);
                }
                compared++;
                fromCatalog += pushed ? 1 : 0;
            }
        }
        assertThat(compared).isEqualTo(history.tableSnapshotPairs());
        // Both kinds occur in the workload: exact counts, and counts the catalog cannot make exact (files read before their newest rows, several delete files).
        assertThat(fromCatalog).isGreaterThan(0).isLessThan(compared);
        // A filter keeps the count on the files.
        assertThat(spark.sql("SELECT count(*) FROM lake.sales.orders WHERE id > 5").queryExecution().optimizedPlan().toString()).doesNotContain("count(*) from the catalog");
        System.out.printf("count(*): %d table snapshots compared with DuckDB, %d answered from the catalog%n", compared, fromCatalog);
    }

    @Test
    void filteredScansAtSampledSnapshotsMatchDuckLake()
            throws Exception
    {
        // Predicates that file statistics and partitions can prune on; answers must not change when files are skipped.
        LakeTable orders = new LakeTable("sales", "orders");
        LakeTable events = new LakeTable("main", "events");
        List<Filter> filters = List.of(
                new Filter(orders, List.of("id"), "id > 99999"),
                new Filter(orders, List.of("id"), "id BETWEEN 10 AND 20"),
                new Filter(orders, List.of("amount"), "amount > 6000"),
                new Filter(orders, List.of("client"), "client = 'small-a2'"),
                new Filter(orders, List.of("client"), "client >= 'customer-9'"),
                new Filter(orders, List.of("note"), "note IS NULL"),
                new Filter(events, List.of("ts"), "ts >= '2025-01-01 00:00:00'"),
                new Filter(events, List.of("kind", "v"), "kind = 'k1' AND v < 100"));
        DuckLakeHistory history = comparison.history();
        SparkDuckLakeComparison.Tally tally = comparison.tally(comparison.sql(snapshot -> "VERSION AS OF " + snapshot));
        // The engines' sample of (table, snapshot) pairs, as Trino's test of the same filters.
        List<OracleSample.TableSnapshot> sample = OracleSample.tableSnapshots(history);
        OracleSample.assertTableSnapshotSample(history, sample);
        java.util.Map<Filter, Long> comparedByFilter = new java.util.LinkedHashMap<>();
        for (OracleSample.TableSnapshot pair : sample) {
            for (Filter filter : filters) {
                if (filter.table().equals(pair.table()) && filter.columnsExistIn(history.columnsAt(pair.table(), pair.snapshot()))) {
                    tally.compare(pair.table(), pair.snapshot(), filter.predicate());
                    comparedByFilter.merge(filter, 1L, Long::sum);
                }
            }
        }
        assertThat(comparedByFilter.keySet()).as("filters compared at a sampled snapshot").containsExactlyInAnyOrderElementsOf(filters);
        // 60 today, as in the Trino test of the same filters.
        assertThat(tally.finish()).isEqualTo(comparedByFilter.values().stream().mapToLong(Long::longValue).sum()).isGreaterThanOrEqualTo(40);
    }

    /** A predicate on a table, run at the snapshots where the table has every column it names. */
    private record Filter(LakeTable table, List<String> columns, String predicate)
    {
        boolean columnsExistIn(List<LakeColumn> columnsAtSnapshot)
        {
            Set<String> present = columnsAtSnapshot.stream().map(LakeColumn::name).collect(toSet());
            return present.containsAll(columns);
        }
    }
}
