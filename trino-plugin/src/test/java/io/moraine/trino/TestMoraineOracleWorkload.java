package io.moraine.trino;

import io.moraine.testing.DuckLakeOracle;
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
