package io.moraine.trino;

import com.google.common.collect.HashMultiset;
import com.google.common.collect.ImmutableMultiset;
import com.google.common.collect.Multiset;
import io.moraine.core.store.StoreUri;
import io.moraine.testing.CanonicalRowsAssert;
import io.moraine.testing.DuckDbCanonicalRows;
import io.moraine.testing.DuckLakeChangeFeed.Function;
import io.moraine.testing.DuckLakeOracle;
import io.moraine.testing.LakeColumn;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.trino.testing.DistributedQueryRunner;
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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The change-feed functions as table scans: projections and predicates are pushed into them (EXPLAIN shows them in the
 * scan), a selective predicate opens fewer data files, filtered and projected answers equal DuckDB's (also where a
 * predicate passes only an update's postimage, which must stay {@code update_postimage}), and {@code moraine.data-path}
 * reads a moved lake. The table has 12 data files of 100 rows each, an update moving 10 rows' values above 1000 (a
 * delete file and a new file), a delete, and inlined rows.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestMoraineChangeFeedPushdown
{
    private static final int DATA_FILES = 12;
    private static final List<LakeColumn> COLUMNS = List.of(new LakeColumn("id", "BIGINT"), new LakeColumn("part", "VARCHAR"), new LakeColumn("v", "DOUBLE"));
    private static final List<LakeColumn> PROJECTED = List.of(new LakeColumn("id", "BIGINT"), new LakeColumn("v", "DOUBLE"));

    private DuckLakeOracle oracle;
    private QueryRunner trino;
    private Path directory;
    private long firstInsertSnapshot;
    private long updateSnapshot;
    private long newest;

    @BeforeAll
    void setUp()
            throws Exception
    {
        directory = Files.createTempDirectory("moraine-trino-change-pushdown");
        oracle = DuckLakeOracle.create(directory.resolve("lake"), DuckLakeOracle.CatalogDatabase.DUCKDB);
        oracle.execute("CALL lake.set_option('data_inlining_row_limit', 0)");
        oracle.execute("CREATE TABLE lake.main.t (id BIGINT, part VARCHAR, v DOUBLE)");
        for (int file = 0; file < DATA_FILES; file++) {
            oracle.execute("INSERT INTO lake.main.t SELECT i, 'p" + file + "', i * 0.5 FROM range(" + file * 100 + ", " + (file + 1) * 100 + ") r(i)");
            if (file == 0) {
                firstInsertSnapshot = snapshot();
            }
        }
        oracle.execute("UPDATE lake.main.t SET v = v + 1000 WHERE id BETWEEN 150 AND 159");
        updateSnapshot = snapshot();
        oracle.execute("DELETE FROM lake.main.t WHERE id BETWEEN 1000 AND 1004");
        oracle.execute("CALL lake.set_option('data_inlining_row_limit', 100)");
        oracle.execute("INSERT INTO lake.main.t VALUES (5000, 'inline', 1.0), (5001, 'inline', 2000.0)");
        oracle.execute("UPDATE lake.main.t SET v = 3000.0 WHERE id = 5000");
        newest = snapshot();
        StoreUri store = StoreUri.parse(directory.resolve("store").toString());
        trino = MoraineQueryRunner.create(oracle, directory, store, Optional.empty(), Map.of("moraine.metadata-cache.max-tables", "0"), "main", 0);
    }

    private long snapshot()
            throws Exception
    {
        return Long.parseLong(oracle.query("SELECT max(snapshot_id) FROM ducklake_snapshots('lake')").getFirst().getFirst());
    }

    @AfterAll
    void tearDown()
            throws Exception
    {
        MoraineQueryRunner.close(trino, oracle);
    }

    private static String call(String catalog, Function function)
    {
        return ChangeFeedCalls.withSnapshotAndRowid(catalog, function, "schema_name => 'main', table_name => 't', start_snapshot => 1");
    }

    @Test
    void explainShowsTheProjectionAndPredicateInTheScan()
    {
        String plan = (String) trino.execute("EXPLAIN SELECT id, v FROM " + call("lake", Function.CHANGES) + " WHERE v > 1000 AND snapshot_id = " + updateSnapshot)
                .getOnlyValue();
        assertThat(plan)
                .contains("ScanFilterProject[table = lake:table_changes(main.t, 1 to " + newest + ")")
                .contains("table_changes(main.t, 1 to " + newest + ")")
                .containsPattern("columns=\\[(snapshot_id, v|v, snapshot_id|id, v, snapshot_id|snapshot_id, id, v|id, snapshot_id, v|v, id, snapshot_id|snapshot_id, v, id|v, snapshot_id, id)\\]")
                .contains("constraint=[")
                .contains("snapshot_id ")
                .doesNotContain("TableFunction");
        // A predicate on change_type or rowid is Trino's alone.
        String changeType = (String) trino.execute("EXPLAIN SELECT id FROM " + call("lake", Function.CHANGES) + " WHERE change_type = 'insert'").getOnlyValue();
        assertThat(changeType).contains("columns=[").doesNotContain("constraint=[");
    }

    @Test
    void aSelectivePredicateOpensFewerDataFiles()
    {
        for (Function function : List.of(Function.INSERTIONS, Function.CHANGES)) {
            long all = dataFilesOpened("SELECT id, v FROM " + call("lake", function));
            long selective = dataFilesOpened("SELECT id, v FROM " + call("lake", function) + " WHERE id BETWEEN 300 AND 320");
            System.out.println("%s: %d data files opened unfiltered, %d with id BETWEEN 300 AND 320".formatted(function.functionName(), all, selective));
            assertThat(all).as("data files %s opens unfiltered", function).isGreaterThanOrEqualTo(DATA_FILES + 1);
            assertThat(selective).as("data files %s opens for one file's ids", function).isEqualTo(1);
        }
        // Deletions happened in the update's and the delete's snapshots only.
        assertThat(dataFilesOpened("SELECT id FROM " + call("lake", Function.DELETIONS) + " WHERE snapshot_id = " + updateSnapshot)).isEqualTo(1);
        assertThat(dataFilesOpened("SELECT id FROM " + call("lake", Function.CHANGES) + " WHERE snapshot_id = " + firstInsertSnapshot)).isEqualTo(1);
    }

    /** Predicates that prune (by statistics, by snapshot) and ones that do not; each is compared for every function. */
    private List<String> predicates()
    {
        return List.of(
                "id BETWEEN 150 AND 159",
                // Only the postimages pass: pruning must keep the preimages' file so that they pair.
                "v > 1000",
                "v < 10",
                "id < 50 OR id >= 1150",
                "snapshot_id = " + updateSnapshot,
                "snapshot_id BETWEEN 3 AND 5 AND id > 250",
                "part = 'inline'",
                "rowid IN (3, 155, 1001)");
    }

    @Test
    void filteredAndProjectedAnswersEqualDuckDbs()
            throws Exception
    {
        long compared = 0;
        long rows = 0;
        List<String> failures = new ArrayList<>();
        for (String predicate : predicates()) {
            for (Function function : Function.values()) {
                List<LakeColumn> columns = new ArrayList<>(function.changeColumns());
                columns.addAll(PROJECTED);
                String select = String.join(", ", columns.stream().map(LakeColumn::sqlName).toList());
                List<List<String>> expected = DuckDbCanonicalRows.query(oracle, "SELECT " + select + " FROM ducklake_" + function.functionName() + "('lake', 'main', 't', 1, "
                        + newest + ") WHERE " + predicate);
                List<List<String>> actual = TrinoCanonicalRows.of(trino.execute("SELECT " + select + " FROM " + call("lake", function) + " WHERE " + predicate));
                try {
                    CanonicalRowsAssert.assertSameRows(function.functionName() + " WHERE " + predicate, columns, expected, "Trino", actual);
                }
                catch (AssertionError e) {
                    failures.add(e.getMessage());
                }
                long expectedCount = Long.parseLong(oracle.query("SELECT count(*) FROM ducklake_" + function.functionName() + "('lake', 'main', 't', 1, " + newest
                        + ") WHERE " + predicate).getFirst().getFirst());
                long count = (Long) trino.execute("SELECT count(*) FROM " + call("lake", function) + " WHERE " + predicate).getOnlyValue();
                if (count != expectedCount) {
                    failures.add(function.functionName() + " WHERE " + predicate + ": Trino counted " + count + ", DuckDB " + expectedCount);
                }
                compared += 2;
                rows += expected.size();
            }
        }
        List<List<String>> postimages = TrinoCanonicalRows.of(trino.execute("SELECT change_type FROM " + call("lake", Function.CHANGES) + " WHERE v > 1000 AND id < 1000"));
        assertThat(failures).as("%d of %d comparisons failed", failures.size(), compared).isEmpty();
        assertThat(compared).isEqualTo(2L * 3 * predicates().size());
        assertThat(rows).as("change rows compared").isGreaterThan(100);
        assertThat(postimages).as("the updated rows' new values").hasSize(10).allSatisfy(row -> assertThat(row.getFirst()).contains("update_postimage"));
        System.out.println("%d filtered and projected change-feed comparisons with DuckDB (%d rows)".formatted(compared, rows));
    }

    @Test
    void dataPathOverrideReadsTheFeedFromWhereTheLakeWasMoved()
            throws Exception
    {
        Path moved = Files.createTempDirectory("moraine-moved-change-lake");
        copyTree(oracle.dataPath(), moved);
        String store = StoreUri.parse(directory.resolve("store").toString()).toString();
        trino.createCatalog("moved", "moraine", Map.of("moraine.store-uri", store, "moraine.data-path", moved.toString()));
        trino.createCatalog("nowhere", "moraine", Map.of("moraine.store-uri", store, "moraine.data-path", moved.resolve("absent").toString()));
        long compared = 0;
        for (Function function : Function.values()) {
            List<LakeColumn> columns = new ArrayList<>(function.changeColumns());
            columns.addAll(COLUMNS);
            String select = String.join(", ", columns.stream().map(LakeColumn::sqlName).toList());
            List<List<String>> expected = DuckDbCanonicalRows.query(oracle, "SELECT " + select + " FROM ducklake_" + function.functionName() + "('lake', 'main', 't', 1, "
                    + newest + ")");
            assertThat(expected).as("DuckDB's %s", function).isNotEmpty();
            CanonicalRowsAssert.assertSameRows(function.functionName() + " of the moved lake", columns, expected, "Trino",
                    TrinoCanonicalRows.of(trino.execute("SELECT " + select + " FROM " + call("moved", function))));
            compared++;
            assertThatThrownBy(() -> trino.execute("SELECT " + select + " FROM " + call("nowhere", function) + " WHERE id < 1000"))
                    .hasMessageContaining(moved.resolve("absent").toString())
                    .hasMessageContaining("missing")
                    .hasMessageContaining("set moraine.data-path");
        }
        assertThat(compared).isEqualTo(3);
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

    private long dataFilesOpened(String sql)
    {
        return fileOperations(sql).count("InputFile.newInput data file");
    }

    private Multiset<String> fileOperations(String sql)
    {
        DistributedQueryRunner runner = (DistributedQueryRunner) trino;
        runner.executeWithPlan(runner.getDefaultSession(), sql);
        Multiset<String> operations = HashMultiset.create();
        for (SpanData span : runner.getSpans()) {
            String location = span.getAttributes().get(AttributeKey.stringKey("trino.file.location"));
            if (location != null && (span.getName().startsWith("Input") || span.getName().startsWith("InputFile"))) {
                operations.add(span.getName() + " " + (location.endsWith("-delete.parquet") ? "delete file" : "data file"));
            }
        }
        return ImmutableMultiset.copyOf(operations);
    }
}
