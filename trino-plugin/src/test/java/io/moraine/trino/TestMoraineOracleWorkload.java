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
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The oracle workload (Parquet files, delete files, updates, schema evolution, partitions, flush, merge, rewrite,
 * expiry, a dropped table) read through Trino at every surviving snapshot, compared with DuckDB + DuckLake.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestMoraineOracleWorkload
{
    private DuckLakeOracle oracle;
    private QueryRunner trino;

    @BeforeAll
    void setUp()
            throws Exception
    {
        Path directory = Files.createTempDirectory("moraine-trino-workload");
        oracle = DuckLakeOracle.create(directory.resolve("lake"), DuckLakeOracle.CatalogDatabase.DUCKDB);
        oracle.runWorkload();
        trino = MoraineQueryRunner.create(oracle, directory, "main");
    }

    @AfterAll
    void tearDown()
            throws Exception
    {
        if (trino != null) {
            trino.close();
        }
        if (oracle != null) {
            oracle.close();
        }
    }

    @Test
    void everyTableAtEverySurvivingSnapshotMatchesDuckLake()
            throws Exception
    {
        List<Long> snapshots = oracle.query("SELECT snapshot_id FROM ducklake_snapshots('lake') ORDER BY 1").stream()
                .map(row -> Long.parseLong(row.getFirst())).toList();
        int compared = 0;
        for (long snapshot : snapshots) {
            for (String table : List.of("sales.orders", "main.events")) {
                List<List<String>> expected;
                try {
                    expected = oracle.query(checksum(table, "lake." + table + " AT (VERSION => " + snapshot + ")", true));
                }
                catch (java.sql.SQLException e) {
                    continue; // the table does not exist at this snapshot
                }
                List<String> actual = trino.execute(checksum(table, "lake." + table + " FOR VERSION AS OF " + snapshot, false))
                        .getMaterializedRows().stream().map(MaterializedRow::getFields)
                        .map(fields -> fields.stream().map(String::valueOf).collect(Collectors.joining("|")))
                        .toList();
                assertThat(actual).as("%s at snapshot %d", table, snapshot)
                        .isEqualTo(expected.stream().map(row -> String.join("|", row.stream().map(String::valueOf).toList())).toList());
                compared++;
            }
        }
        assertThat(compared).isGreaterThan(20);
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
        List<Long> snapshots = oracle.query("SELECT snapshot_id FROM ducklake_snapshots('lake') ORDER BY 1").stream()
                .map(row -> Long.parseLong(row.getFirst())).toList();
        int compared = 0;
        for (long snapshot : snapshots) {
            for (List<String> filter : filters) {
                String table = filter.get(0);
                String predicate = filter.get(1);
                List<List<String>> expected;
                try {
                    expected = oracle.query(checksum(table, "lake." + table + " AT (VERSION => " + snapshot + ") WHERE " + predicate, true));
                }
                catch (java.sql.SQLException e) {
                    continue; // the table or column does not exist at this snapshot
                }
                List<String> actual = trino.execute(checksum(table, "lake." + table + " FOR VERSION AS OF " + snapshot + " WHERE " + predicate, false))
                        .getMaterializedRows().stream().map(MaterializedRow::getFields)
                        .map(fields -> fields.stream().map(String::valueOf).collect(Collectors.joining("|")))
                        .toList();
                assertThat(actual).as("%s at snapshot %d WHERE %s", table, snapshot, predicate)
                        .isEqualTo(expected.stream().map(row -> String.join("|", row.stream().map(String::valueOf).toList())).toList());
                compared++;
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

    private long rowsReadBy(String sql)
    {
        QueryId queryId = trino.executeWithPlan(trino.getDefaultSession(), sql).queryId();
        return ((DistributedQueryRunner) trino).getCoordinator().getQueryManager().getFullQueryInfo(queryId)
                .getQueryStats().getProcessedInputPositions();
    }

    /** Row count and order-independent sums over columns both engines print alike. */
    private static String checksum(String table, String relation, boolean duckdb)
    {
        String text = duckdb ? "VARCHAR" : "varchar";
        if (table.equals("sales.orders")) {
            return "SELECT count(*), CAST(sum(id) AS " + text + "), CAST(sum(amount) AS " + text + "), count(DISTINCT client), count(note) FROM " + relation;
        }
        return "SELECT count(*), CAST(sum(v) AS " + text + "), count(DISTINCT kind) FROM " + relation;
    }
}
