package io.moraine.trino;

import io.moraine.testing.DuckLakeOracle;
import io.trino.spi.QueryId;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The oracle workload (Parquet files, delete files, updates, schema evolution, partitions, flush, merge, rewrite,
 * expiry, a dropped table) read through Trino at every surviving snapshot, compared with DuckDB + DuckLake.
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
        comparison = new DuckLakeComparison(oracle, trino);
    }

    @AfterAll
    void tearDown()
            throws Exception
    {
        MoraineQueryRunner.close(trino, oracle);
    }

    @Test
    void everyTableAtEverySurvivingSnapshotMatchesDuckLake()
            throws Exception
    {
        assertThat(comparison.everyTableAtEverySnapshot()).isGreaterThan(20);
    }

    @Test
    void filteredScansAtEverySurvivingSnapshotMatchDuckLake()
            throws Exception
    {
        // Predicates that file statistics can prune on; answers must not change when files are skipped.
        List<List<String>> filters = List.of(
                List.of("sales.orders", "id > 99999"),
                List.of("sales.orders", "id BETWEEN 10 AND 20"),
                List.of("sales.orders", "amount > 6000"),
                List.of("sales.orders", "client = 'small-a2'"),
                List.of("sales.orders", "client >= 'customer-9'"),
                List.of("sales.orders", "note IS NULL"),
                List.of("main.events", "ts >= TIMESTAMP '2025-01-01 00:00:00'"),
                List.of("main.events", "kind = 'k1' AND v < 100"));
        int compared = 0;
        for (long snapshot : comparison.survivingSnapshots()) {
            for (List<String> filter : filters) {
                compared += comparison.sameChecksum(filter.get(0), snapshot, " WHERE " + filter.get(1)) ? 1 : 0;
            }
        }
        assertThat(compared).isGreaterThan(20);
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
}
