package io.moraine.trino;

import io.moraine.testing.DuckLakeHistory;
import io.moraine.testing.DuckLakeOracle;
import io.trino.Session;
import io.trino.testing.MaterializedResult;
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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The first slice of the Trino connector, on a real Trino (DistributedQueryRunner) over a lake written by real
 * DuckLake and imported into moraine: metadata at any snapshot, and inlined rows equal to DuckDB's answers.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestMoraineInlinedTables
{
    private static final List<String> WORKLOAD = List.of(
            "CREATE SCHEMA lake.sales",
            "CREATE TABLE lake.sales.orders (id INTEGER, customer VARCHAR, amount DECIMAL(10, 2), placed DATE, paid BOOLEAN, score DOUBLE)",
            "INSERT INTO lake.sales.orders VALUES (1, 'ann', 10.50, DATE '2026-01-01', true, 0.5), (2, 'bob', NULL, NULL, false, NULL)",
            "INSERT INTO lake.sales.orders VALUES (3, 'cid', 3.25, DATE '2026-02-03', NULL, 2.25)",
            "UPDATE lake.sales.orders SET amount = 99.99 WHERE id = 2",
            "DELETE FROM lake.sales.orders WHERE id = 1",
            "ALTER TABLE lake.sales.orders ADD COLUMN note VARCHAR",
            "INSERT INTO lake.sales.orders (id, customer, note) VALUES (4, 'dee', 'late')",
            "CREATE TABLE lake.main.nested (id INTEGER, tags VARCHAR[], point STRUCT(x INTEGER, label VARCHAR), attrs MAP(VARCHAR, INTEGER), "
                    + "big UBIGINT, at_ms TIMESTAMP_MS, clock TIME, grid INTEGER[][], wait INTERVAL)",
            "INSERT INTO lake.main.nested VALUES "
                    + "(1, ['a', NULL, 'c'], {'x': 7, 'label': 'seven'}, MAP {'k': 1, 'z': NULL}, 18446744073709551615, TIMESTAMP '2026-03-04 05:06:07.089', TIME '12:34:56.789012', [[1, 2], [], NULL], INTERVAL 90 MINUTE), "
                    + "(2, [], {'x': NULL, 'label': NULL}, MAP {}, 0, NULL, NULL, [], INTERVAL '1 year 2 months 3 days'), "
                    + "(3, NULL, NULL, NULL, NULL, TIMESTAMP '1969-12-31 23:59:59.999', TIME '00:00:00', NULL, NULL)",
            // Rows inlined before a rename keep their schema version's names: readers find columns by id.
            "CREATE TABLE lake.main.renamed (id INTEGER, name VARCHAR, s STRUCT(a INTEGER, b VARCHAR))",
            "INSERT INTO lake.main.renamed VALUES (1, 'one', {'a': 1, 'b': 'x'})",
            // Too many rows to inline: a Parquet file written with the old names.
            "INSERT INTO lake.main.renamed SELECT i, 'n' || i, {'a': i, 'b': 'v' || i} FROM range(10, 2010) t(i)",
            "ALTER TABLE lake.main.renamed RENAME COLUMN name TO label",
            "ALTER TABLE lake.main.renamed RENAME COLUMN s.b TO c",
            "INSERT INTO lake.main.renamed VALUES (2, 'two', {'a': 2, 'c': 'y'})",
            // HUGEINT and UHUGEINT, inlined in their lossless 16-byte form (ArrowHugeint), still read as DECIMAL(38, 0).
            "CREATE TABLE lake.main.wide (id INTEGER, h HUGEINT, u UHUGEINT, s STRUCT(h HUGEINT), l HUGEINT[])",
            "INSERT INTO lake.main.wide VALUES (1, -99999999999999999999999999999999999999, 99999999999999999999999999999999999999, "
                    + "{'h': -12345678901234567890123}, [0, 99999999999999999999999999999999999999]), "
                    + "(2, 0, 0, {'h': NULL}, []), (3, NULL, NULL, NULL, NULL), (4, 9223372036854775808, 18446744073709551616, {'h': 1}, [NULL])");

    private Path directory;
    private DuckLakeOracle oracle;
    private QueryRunner trino;

    @BeforeAll
    void setUp()
            throws Exception
    {
        directory = Files.createTempDirectory("moraine-trino-test");
        oracle = DuckLakeOracle.create(directory.resolve("lake"), DuckLakeOracle.CatalogDatabase.DUCKDB);
        for (String step : WORKLOAD) {
            oracle.execute(step);
        }
        trino = MoraineQueryRunner.create(oracle, directory, "sales");
    }

    @AfterAll
    void tearDown()
            throws Exception
    {
        MoraineQueryRunner.close(trino, oracle);
    }

    @Test
    void schemasTablesAndColumns()
    {
        assertThat(column(trino.execute("SHOW SCHEMAS FROM lake"))).contains("main", "sales");
        assertThat(column(trino.execute("SHOW TABLES FROM lake.sales"))).containsExactly("orders");
        MaterializedResult describe = trino.execute("DESCRIBE lake.sales.orders");
        assertThat(describe.getMaterializedRows().stream().map(row -> row.getField(0) + " " + row.getField(1)).toList())
                .containsExactly("id integer", "customer varchar", "amount decimal(10,2)", "placed date", "paid boolean", "score double", "note varchar");
    }

    @Test
    void inlinedRowsAtEverySnapshotEqualDuckLakes()
            throws Exception
    {
        DuckLakeComparison comparison = new DuckLakeComparison(DuckLakeHistory.of(oracle, directory.resolve("history-copy.ducklake")), trino);
        // 29 today: orders at the 15 snapshots from its creation, nested at the last 8, renamed at the last 6.
        assertThat(comparison.everyTableAtEverySnapshot())
                .isEqualTo(comparison.history().tableSnapshotPairs())
                .isGreaterThanOrEqualTo(29);
    }

    @Test
    void nestedAndWidenedInlinedValuesEqualDuckLakes()
            throws Exception
    {
        List<String> expected = oracle.query("SELECT id, len(tags), tags[1], tags[2], point.x, point.label, len(map_keys(attrs)), attrs['k'], attrs['z'], "
                        + "CAST(big AS VARCHAR), strftime(at_ms, '%Y-%m-%d %H:%M:%S.%g'), strftime(DATE '2000-01-01' + clock, '%H:%M:%S.%f'), len(grid), grid[1][2], len(grid[2]) "
                        + "FROM lake.main.nested ORDER BY id")
                .stream().map(row -> String.join("|", row.stream().map(String::valueOf).toList())).toList();
        List<String> actual = trino.execute("SELECT id, cardinality(tags), element_at(tags, 1), element_at(tags, 2), point.x, point.label, cardinality(map_keys(attrs)), "
                        + "element_at(attrs, 'k'), element_at(attrs, 'z'), CAST(big AS varchar), format_datetime(at_ms, 'yyyy-MM-dd HH:mm:ss.SSS'), "
                        + "CAST(clock AS varchar), cardinality(grid), element_at(element_at(grid, 1), 2), cardinality(element_at(grid, 2)) "
                        + "FROM lake.main.nested ORDER BY id")
                .getMaterializedRows().stream()
                .map(row -> row.getFields().stream().map(String::valueOf).collect(Collectors.joining("|")))
                .toList();
        assertThat(actual).isEqualTo(expected);
    }

    @Test
    void inlinedHugeintAndUhugeintReadAsDecimal38EqualToDuckLakes()
            throws Exception
    {
        MaterializedResult describe = trino.execute("DESCRIBE lake.main.wide");
        assertThat(describe.getMaterializedRows().stream().map(row -> row.getField(0) + " " + row.getField(1)).toList())
                .containsExactly("id integer", "h decimal(38,0)", "u decimal(38,0)", "s row(\"h\" decimal(38,0))", "l array(decimal(38,0))");
        List<String> expected = oracle.query("SELECT id, CAST(h AS VARCHAR), CAST(u AS VARCHAR), CAST(s.h AS VARCHAR), len(l), CAST(l[2] AS VARCHAR) "
                        + "FROM lake.main.wide ORDER BY id")
                .stream().map(row -> String.join("|", row.stream().map(String::valueOf).toList())).toList();
        List<String> actual = trino.execute("SELECT id, CAST(h AS varchar), CAST(u AS varchar), CAST(s.h AS varchar), cardinality(l), "
                        + "CAST(element_at(l, 2) AS varchar) FROM lake.main.wide ORDER BY id")
                .getMaterializedRows().stream()
                .map(row -> row.getFields().stream().map(String::valueOf).collect(Collectors.joining("|")))
                .toList();
        assertThat(actual).isEqualTo(expected).hasSize(4);
    }

    @Test
    void snapshotPrecedenceIsQueryThenSessionThenNewest()
    {
        Session pinned = Session.builder(trino.getDefaultSession()).setCatalogSessionProperty("lake", "read_snapshot_id", "3").build();
        assertThat(column(trino.execute(pinned, "SELECT count(*) FROM lake.sales.orders"))).containsExactly("2");
        assertThat(column(trino.execute(pinned, "SELECT count(*) FROM lake.sales.orders FOR VERSION AS OF 4"))).containsExactly("3");
        assertThat(column(trino.execute("SELECT count(*) FROM lake.sales.orders"))).containsExactly("3");
        Session badTimestamp = Session.builder(trino.getDefaultSession()).setCatalogSessionProperty("lake", "read_snapshot_timestamp", "yesterday").build();
        assertThatThrownBy(() -> trino.execute(badTimestamp, "SELECT count(*) FROM lake.sales.orders")).hasMessageContaining("ISO-8601");
    }

    @Test
    void timestampAsOfReadsTheSnapshotDuckLakeReadsAtEverySnapshotTime()
            throws Exception
    {
        int compared = 0;
        for (List<String> snapshot : oracle.query("SELECT snapshot_id, strftime(snapshot_time AT TIME ZONE 'UTC', '%Y-%m-%d %H:%M:%S.%f') "
                + "FROM ducklake_snapshots('lake') WHERE snapshot_id >= 2 ORDER BY 1")) {
            String time = snapshot.get(1);
            List<String> expected = oracle.query("SELECT count(*), CAST(sum(id) AS VARCHAR) FROM lake.sales.orders AT (TIMESTAMP => TIMESTAMPTZ '" + time + "+00')")
                    .stream().map(row -> String.join("|", row.stream().map(String::valueOf).toList())).toList();
            List<String> actual = trino.execute("SELECT count(*), CAST(sum(id) AS varchar) FROM lake.sales.orders FOR TIMESTAMP AS OF TIMESTAMP '" + time + " UTC'")
                    .getMaterializedRows().stream().map(row -> row.getFields().stream().map(String::valueOf).collect(Collectors.joining("|"))).toList();
            assertThat(actual).as("orders as of %s (snapshot %s)", time, snapshot.get(0)).isEqualTo(expected);
            compared++;
        }
        // orders exists from snapshot 2 on: one comparison per later snapshot.
        assertThat(compared).isEqualTo(Integer.parseInt(oracle.query("SELECT count(*) FROM ducklake_snapshots('lake') WHERE snapshot_id >= 2").getFirst().getFirst()));
        assertThatThrownBy(() -> trino.execute("SELECT count(*) FROM lake.sales.orders FOR TIMESTAMP AS OF TIMESTAMP '2000-01-01 00:00:00 UTC'"))
                .hasMessageContaining("2000-01-01");
    }

    @Test
    void unknownSnapshotsAreRefusedWithAClearMessage()
    {
        assertThatThrownBy(() -> trino.execute("SELECT * FROM lake.sales.orders FOR VERSION AS OF 999"))
                .hasMessageContaining("snapshot 999 does not exist");
    }

    private static List<String> column(MaterializedResult result)
    {
        return result.getMaterializedRows().stream().map(MaterializedRow::getFields).map(fields -> String.valueOf(fields.getFirst())).toList();
    }
}
