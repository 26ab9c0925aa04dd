package io.moraine.trino;

import io.moraine.testing.DuckLakeHistory;
import io.moraine.testing.DuckLakeOracle;
import io.moraine.testing.LakeColumn;
import io.moraine.testing.LakeTable;
import io.moraine.testing.OracleSample;
import io.moraine.testing.OracleSample.TableSnapshot;
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
 * filtered at the same sample, compared with DuckDB + DuckLake.
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
    void filteredScansAtSampledSnapshotsMatchDuckLake()
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
        List<TableSnapshot> sample = OracleSample.tableSnapshots(history);
        OracleSample.assertTableSnapshotSample(history, sample);
        Map<Filter, Long> comparedByFilter = new java.util.LinkedHashMap<>();
        for (TableSnapshot pair : sample) {
            for (Filter filter : filters) {
                if (filter.table().equals(pair.table()) && filter.columnsExistIn(history.columnsAt(pair.table(), pair.snapshot()))) {
                    tally.compare(pair.table(), pair.snapshot(), filter.predicate());
                    comparedByFilter.merge(filter, 1L, Long::sum);
                }
            }
        }
        assertThat(comparedByFilter.keySet()).as("filters compared at a sampled snapshot").containsExactlyInAnyOrderElementsOf(filters);
        // 60 today: the filters at the sampled snapshots of orders and events (the client filters after the rename, the
        // note filter after the column was added).
        assertThat(tally.finish()).isEqualTo(comparedByFilter.values().stream().mapToLong(Long::longValue).sum()).isGreaterThanOrEqualTo(40);
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
