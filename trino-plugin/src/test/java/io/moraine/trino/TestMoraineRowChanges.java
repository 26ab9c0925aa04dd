package io.moraine.trino;

import io.moraine.testing.DuckDbOverStore;

import io.moraine.core.store.StoreUri;
import io.moraine.testing.DuckLakeOracle;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static com.google.common.io.MoreFiles.deleteRecursively;
import static com.google.common.io.RecursiveDeleteOption.ALLOW_INSECURE;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Trino's DELETE, UPDATE, MERGE and TRUNCATE on a moraine lake, on rows still inlined in the catalog and on rows of
 * data files (small and large changes): Trino and DuckDB+DuckLake reading the lake through {@code ducklake:moraine:}
 * see the same rows with the same row ids, updated rows keep their ids, and DuckDB's change feed shows each update as
 * update_preimage/update_postimage pairs.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public class TestMoraineRowChanges
{
    private Path directory;
    private DuckLakeOracle oracle;
    private QueryRunner trino;
    private StoreUri store;

    @BeforeAll
    public void setUp()
            throws Exception
    {
        directory = Files.createTempDirectory("moraine-trino-row-changes");
        oracle = DuckLakeOracle.create(directory.resolve("lake"), DuckLakeOracle.CatalogDatabase.DUCKDB);
        store = StoreUri.parse(directory.resolve("store").toString());
        trino = MoraineQueryRunner.create(oracle, directory, store, Optional.empty(), Map.of(), "main", 1);
    }

    @AfterAll
    public void tearDown()
            throws Exception
    {
        MoraineQueryRunner.close(trino, oracle);
        deleteRecursively(directory, ALLOW_INSECURE);
    }

    @Test
    public void testInlinedRows()
            throws Exception
    {
        trino.execute("CREATE TABLE main.small (id bigint, v varchar) WITH (data_inlining_row_limit = 10)");
        trino.execute("INSERT INTO main.small VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd'), (5, 'e'), (6, 'f')");
        assertThat(dataFiles("small")).as("6 rows under a limit of 10 are inlined").isZero();
        Map<Long, Long> before = rowIds("main.small");

        trino.execute("DELETE FROM main.small WHERE id = 2");
        trino.execute("UPDATE main.small SET v = 'c2' WHERE id = 3");
        long update = lastSnapshot();
        trino.execute("MERGE INTO main.small t USING (VALUES (4, 'd2'), (5, NULL), (7, 'g')) s(id, v) ON t.id = s.id "
                + "WHEN MATCHED AND s.v IS NULL THEN DELETE WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.v)");
        long merge = lastSnapshot();
        assertThat(dataFiles("small")).as("every change stayed inlined").isZero();

        assertThat(rows("SELECT id, v FROM main.small ORDER BY id")).containsExactly("1|a", "3|c2", "4|d2", "6|f", "7|g");
        Map<Long, Long> after = rowIds("main.small");
        for (long id : List.of(1L, 3L, 4L, 6L)) {
            assertThat(after.get(id)).as("row id of row %s", id).isEqualTo(before.get(id));
        }
        assertThat(after.get(7L)).as("the row MERGE inserted gets a new row id").isNotIn(before.values());

        assertSameInDuckDb("small", update, List.of("update_postimage|1", "update_preimage|1"),
                merge, List.of("delete|1", "insert|1", "update_postimage|1", "update_preimage|1"));
    }

    @Test
    public void testFileRows()
            throws Exception
    {
        trino.execute("CREATE TABLE main.big (id bigint, v varchar) WITH (data_inlining_row_limit = 10)");
        trino.execute("INSERT INTO main.big SELECT n, 'v' || CAST(n AS varchar) FROM UNNEST(sequence(1, 1000)) t(n)");
        trino.execute("INSERT INTO main.big SELECT n, 'v' || CAST(n AS varchar) FROM UNNEST(sequence(1001, 1500)) t(n)");
        long files = dataFiles("big");
        assertThat(files).as("the large inserts wrote files").isGreaterThanOrEqualTo(2);
        trino.execute("INSERT INTO main.big VALUES (2001, 'x'), (2002, 'y')");
        assertThat(dataFiles("big")).as("the small insert is inlined").isEqualTo(files);
        Map<Long, Long> before = rowIds("main.big");

        // Small and large deletes of file rows, and of an inlined row.
        trino.execute("DELETE FROM main.big WHERE id IN (5, 1200, 2001)");
        trino.execute("DELETE FROM main.big WHERE id BETWEEN 100 AND 299");
        // A small update (inlined with the rows' ids) and a large one (a data file with the row-id column).
        trino.execute("UPDATE main.big SET v = 'small' WHERE id IN (7, 1300, 2002)");
        long smallUpdate = lastSnapshot();
        trino.execute("UPDATE main.big SET v = 'large' WHERE id BETWEEN 500 AND 699");
        long largeUpdate = lastSnapshot();
        trino.execute("MERGE INTO main.big t USING (SELECT n AS id FROM UNNEST(sequence(1490, 1510)) s(n)) s ON t.id = s.id "
                + "WHEN MATCHED AND s.id % 2 = 0 THEN DELETE WHEN MATCHED THEN UPDATE SET v = 'merged' WHEN NOT MATCHED THEN INSERT VALUES (s.id, 'new')");

        assertThat(rows("SELECT count(*), sum(id), count_if(v = 'small'), count_if(v = 'large'), count_if(v = 'merged'), count_if(v = 'new') FROM main.big"))
                .containsExactly("1303|1092732|3|200|5|10");
        Map<Long, Long> after = rowIds("main.big");
        for (long id : List.of(1L, 7L, 500L, 699L, 1300L, 1491L, 2002L)) {
            assertThat(after.get(id)).as("row id of row %s", id).isEqualTo(before.get(id));
        }
        assertThat(after).doesNotContainKeys(5L, 100L, 299L, 1200L, 2001L, 1490L);

        assertSameInDuckDb("big", smallUpdate, List.of("update_postimage|3", "update_preimage|3"),
                largeUpdate, List.of("update_postimage|200", "update_preimage|200"));
    }

    @Test
    public void testPartitionedTable()
            throws Exception
    {
        trino.execute("CREATE TABLE main.parts WITH (partitioned_by = ARRAY['region'], data_inlining_row_limit = 10) AS "
                + "SELECT n AS id, CASE n % 3 WHEN 0 THEN 'eu' WHEN 1 THEN 'us' ELSE 'apac' END AS region, CAST(n AS varchar) AS v "
                + "FROM UNNEST(sequence(1, 300)) t(n)");
        Map<Long, Long> before = rowIds("main.parts");
        // Rows of every partition updated, some moved to another partition; the new versions keep their row ids.
        trino.execute("UPDATE main.parts SET v = 'u', region = CASE WHEN id % 2 = 0 THEN 'eu' ELSE region END WHERE id <= 60");
        long update = lastSnapshot();
        trino.execute("DELETE FROM main.parts WHERE region = 'us' AND id > 250");
        assertThat(rows("SELECT region, count(*), count_if(v = 'u') FROM main.parts GROUP BY 1 ORDER BY 1"))
                .containsExactly("apac|90|10", "eu|120|40", "us|74|10");
        Map<Long, Long> after = rowIds("main.parts");
        for (long id = 1; id <= 60; id++) {
            assertThat(after.get(id)).as("row id of row %s", id).isEqualTo(before.get(id));
        }
        List<String> trinoRows = rows("SELECT id, region, v, \"$row_id\" FROM main.parts ORDER BY id").stream().map(row -> "ROW 0 " + row).toList();
        List<String> duckdb = DuckDbOverStore.run(store, "SELECT id, region, v, rowid FROM lake.main.parts ORDER BY id", changes("parts", update));
        assertThat(duckdb.stream().filter(line -> line.startsWith("ROW 0 ")).toList()).isEqualTo(trinoRows);
        assertThat(duckdb.stream().filter(line -> line.startsWith("ROW 1 ")).toList())
                .containsExactly("ROW 1 update_postimage|60", "ROW 1 update_preimage|60");
    }

    @Test
    public void testTruncate()
            throws Exception
    {
        trino.execute("CREATE TABLE main.gone (id bigint) WITH (data_inlining_row_limit = 10)");
        trino.execute("INSERT INTO main.gone SELECT n FROM UNNEST(sequence(1, 100)) t(n)");
        trino.execute("INSERT INTO main.gone VALUES (101), (102)");
        trino.execute("TRUNCATE TABLE main.gone");
        assertThat(rows("SELECT count(*) FROM main.gone")).containsExactly("0");
        trino.execute("INSERT INTO main.gone VALUES (7)");
        assertThat(rows("SELECT id FROM main.gone")).containsExactly("7");
        assertThat(DuckDbOverStore.run(store, "SELECT id FROM lake.main.gone")).containsExactly("ROW 0 7");
    }

    /**
     * DuckDB reads the same rows with the same row ids as Trino, and its change feed shows snapshots {@code first} and
     * {@code second} as the {@code change_type|count} lines given.
     */
    private void assertSameInDuckDb(String table, long first, List<String> firstChanges, long second, List<String> secondChanges)
            throws Exception
    {
        List<String> trinoRows = rows("SELECT id, v, \"$row_id\" FROM main." + table + " ORDER BY id").stream().map(row -> "ROW 0 " + row).toList();
        List<String> duckdb = DuckDbOverStore.run(store,
                "SELECT id, v, rowid FROM lake.main." + table + " ORDER BY id",
                changes(table, first),
                changes(table, second));
        assertThat(duckdb.stream().filter(line -> line.startsWith("ROW 0 ")).toList()).isEqualTo(trinoRows);
        assertThat(duckdb.stream().filter(line -> line.startsWith("ROW 1 ")).toList())
                .isEqualTo(firstChanges.stream().map(line -> "ROW 1 " + line).toList());
        assertThat(duckdb.stream().filter(line -> line.startsWith("ROW 2 ")).toList())
                .isEqualTo(secondChanges.stream().map(line -> "ROW 2 " + line).toList());
    }

    private static String changes(String table, long snapshot)
    {
        return "SELECT change_type, count(*) FROM ducklake_table_changes('lake', 'main', '" + table + "', " + snapshot + ", " + snapshot + ") "
                + "GROUP BY ALL ORDER BY ALL";
    }

    private long lastSnapshot()
    {
        return (long) trino.execute("SELECT max(snapshot_id) FROM lake.ducklake.ducklake_snapshot").getOnlyValue();
    }

    private long dataFiles(String table)
    {
        return (long) trino.execute("SELECT count(*) FROM lake.ducklake.ducklake_data_file f JOIN lake.ducklake.ducklake_table t ON f.table_id = t.table_id "
                + "WHERE t.table_name = '" + table + "' AND f.end_snapshot IS NULL AND t.end_snapshot IS NULL").getOnlyValue();
    }

    private Map<Long, Long> rowIds(String table)
    {
        Map<Long, Long> ids = new java.util.HashMap<>();
        for (MaterializedRow row : trino.execute("SELECT id, \"$row_id\" FROM " + table).getMaterializedRows()) {
            ids.put((Long) row.getField(0), (Long) row.getField(1));
        }
        return ids;
    }

    private List<String> rows(String sql)
    {
        List<String> rows = new ArrayList<>();
        for (MaterializedRow row : trino.execute(sql).getMaterializedRows()) {
            rows.add(String.join("|", row.getFields().stream().map(String::valueOf).toList()));
        }
        return rows;
    }
}
