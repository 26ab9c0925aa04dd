package io.moraine.trino;

import io.moraine.testing.DuckLakeHistory;
import io.moraine.testing.DuckLakeOracle;
import io.moraine.testing.LakeColumn;
import io.moraine.testing.LakeTable;
import io.trino.spi.QueryId;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.QueryRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static java.util.stream.Collectors.toSet;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The oracle workload (Parquet files, delete files, updates, schema evolution, partitions, flush, merge, rewrite,
 * expiry, a dropped table) read through Trino at a sample of its surviving snapshots (every table at its newest
 * snapshot, its oldest and every third counting back; every one in the moraine-cli module's {@code CatCommandTest}), and
 * filtered at every surviving snapshot, compared with DuckDB + DuckLake.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestMoraineOracleWorkload
{
    private DuckLakeOracle oracle;
    private QueryRunner trino;
    private DuckLakeComparison comparison;
    private Path directory;

    @BeforeAll
    void setUp()
            throws Exception
    {
        directory = Files.createTempDirectory("moraine-trino-workload");
        oracle = DuckLakeOracle.create(directory.resolve("lake"), DuckLakeOracle.CatalogDatabase.DUCKDB);
        oracle.runWorkload();
        trino = MoraineQueryRunner.create(oracle, directory, "main");
        comparison = new DuckLakeComparison(DuckLakeHistory.of(oracle, directory.resolve("history-copy.ducklake")), trino);
    }

    @AfterAll
    void tearDown()
            throws Exception
    {
        MoraineQueryRunner.close(trino, oracle);
    }

    @Test
    void everyTableAtSampledSnapshotsMatchesDuckLake()
            throws Exception
    {
        // 15 of the 36 table snapshots today (14 snapshots with orders only, 8 with orders and events, 2 with the dropped table as well).
        assertThat(comparison.sampledTableSnapshots()).isGreaterThanOrEqualTo(15);
    }

    @Test
    void filteredScansAtEverySurvivingSnapshotMatchDuckLake()
            throws Exception
    {
        // Predicates that file statistics can prune on; answers must not change when files are skipped.
        LakeTable orders = new LakeTable("sales", "orders");
        LakeTable events = new LakeTable("main", "events");
        List<Filter> filters = List.of(
                new Filter(orders, List.of("id"), "id > 99999"),
                new Filter(orders, List.of("id"), "id BETWEEN 10 AND 20"),
                new Filter(orders, List.of("amount"), "amount > 6000"),
                new Filter(orders, List.of("client"), "client = 'small-a2'"),
                new Filter(orders, List.of("client"), "client >= 'customer-9'"),
                new Filter(orders, List.of("note"), "note IS NULL"),
                new Filter(events, List.of("ts"), "ts >= TIMESTAMP '2025-01-01 00:00:00'"),
                new Filter(events, List.of("kind", "v"), "kind = 'k1' AND v < 100"));
        DuckLakeHistory history = comparison.history();
        DuckLakeComparison.Tally tally = comparison.tally();
        long expected = 0;
        for (Filter filter : filters) {
            expected += history.snapshotsWithColumns(filter.table(), filter.columns());
        }
        for (long snapshot : history.survivingSnapshots()) {
            List<LakeTable> tables = history.tablesAt(snapshot);
            for (Filter filter : filters) {
                if (tables.contains(filter.table()) && filter.columnsExistIn(history.columnsAt(filter.table(), snapshot))) {
                    tally.compare(filter.table(), snapshot, filter.predicate());
                }
            }
        }
        // 144 today: the id and amount filters at the 24 snapshots with orders, the client filters at the 17 after the
        // rename, the note filter at the 18 after the column was added, and the events filters at 10.
        assertThat(tally.finish()).isEqualTo(expected).isGreaterThanOrEqualTo(144);
    }

    @Test
    void fileStatisticsSkipDataFilesThatCannotMatch()
    {
        // events is partitioned by year(ts): only the 2024 files (214 days, less the deleted tenth) can hold these rows.
        assertThat(rowsReadBy("SELECT count(*) FROM lake.main.events WHERE ts < TIMESTAMP '2025-01-01 00:00:00'")).isLessThan(300);
        assertThat(rowsReadBy("SELECT count(*) FROM lake.main.events")).isGreaterThan(1000);
    }

    @Test
    void dataPathOverrideReadsTheLakeFromWhereItWasMoved()
            throws Exception
    {
        Path moved = Files.createTempDirectory("moraine-moved-lake");
        copyTree(oracle.dataPath(), moved);
        String store = io.moraine.core.store.StoreUri.parse(directory.resolve("store").toString()).toString();
        trino.createCatalog("moved", "moraine", Map.of("moraine.store-uri", store, "moraine.data-path", moved.toString()));
        trino.createCatalog("nowhere", "moraine", Map.of("moraine.store-uri", store, "moraine.data-path", moved.resolve("absent").toString()));
        String query = "SELECT count(*), sum(v) FROM %s.main.events";
        assertThat(trino.execute(query.formatted("moved")).getMaterializedRows())
                .isEqualTo(trino.execute(query.formatted("lake")).getMaterializedRows());
        assertThatThrownBy(() -> trino.execute(query.formatted("nowhere")))
                .hasMessageContaining("is missing at " + moved.resolve("absent"))
                .hasMessageContaining("set moraine.data-path");
    }

    private static void copyTree(Path from, Path to)
            throws java.io.IOException
    {
        try (var paths = Files.walk(from)) {
            for (Path source : paths.toList()) {
                Path target = to.resolve(from.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                }
                else {
                    Files.copy(source, target);
                }
            }
        }
    }

    private long rowsReadBy(String sql)
    {
        QueryId queryId = trino.executeWithPlan(trino.getDefaultSession(), sql).queryId();
        return ((DistributedQueryRunner) trino).getCoordinator().getQueryManager().getFullQueryInfo(queryId)
                .getQueryStats().getProcessedInputPositions();
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
