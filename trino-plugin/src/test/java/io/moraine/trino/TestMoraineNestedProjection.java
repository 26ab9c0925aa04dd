package io.moraine.trino;

import io.moraine.core.row.TableKind;
import io.moraine.testing.CanonicalRowsAssert;
import io.moraine.testing.DuckDbCanonicalRows;
import io.moraine.testing.DuckLakeHistory;
import io.moraine.testing.DuckLakeOracle;
import io.moraine.testing.LakeColumn;
import io.moraine.testing.LakeTable;
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
import java.util.Objects;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Nested projection pushdown: {@code SELECT s.a} reads only that leaf of the struct. Every struct field of every table
 * of the oracle workload (and of a table with nested structs, a renamed field, a struct inside a list, inlined rows
 * and Parquet files) read alone equals DuckDB's answer at every surviving snapshot; a pruned read reads fewer bytes.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestMoraineNestedProjection
{
    private DuckLakeOracle oracle;
    private QueryRunner trino;
    private DuckLakeHistory history;

    @BeforeAll
    void setUp()
            throws Exception
    {
        Path directory = Files.createTempDirectory("moraine-trino-nested");
        oracle = DuckLakeOracle.create(directory.resolve("lake"), DuckLakeOracle.CatalogDatabase.DUCKDB);
        oracle.runWorkload();
        oracle.execute("CREATE TABLE lake.main.shapes (id INTEGER, s STRUCT(a INTEGER, b VARCHAR, sub STRUCT(x DOUBLE, y VARCHAR)), ls STRUCT(p INTEGER)[])");
        oracle.execute("INSERT INTO lake.main.shapes SELECT i, CASE WHEN i % 10 = 0 THEN NULL ELSE {'a': CASE WHEN i % 7 = 0 THEN NULL ELSE i END, "
                + "'b': 'b' || i, 'sub': CASE WHEN i % 5 = 0 THEN NULL ELSE {'x': i * 0.5, 'y': 'y' || (i % 3)} END} END, [{'p': i}] FROM range(3000) t(i)");
        // Inlined (DuckLake's default limit is 10 rows), before and after a rename of a nested field.
        oracle.execute("INSERT INTO lake.main.shapes VALUES (-1, {'a': -1, 'b': 'inline', 'sub': {'x': -1.5, 'y': 'in'}}, []), (-2, NULL, NULL)");
        oracle.execute("ALTER TABLE lake.main.shapes RENAME COLUMN s.b TO b2");
        oracle.execute("INSERT INTO lake.main.shapes VALUES (-3, {'a': -3, 'b2': 'renamed', 'sub': NULL}, [{'p': 3}])");
        oracle.execute("INSERT INTO lake.main.shapes SELECT i, {'a': i, 'b2': 'after' || i, 'sub': {'x': i, 'y': NULL}}, NULL FROM range(3000, 6000) t(i)");
        // A file over the reader's small-file threshold (3 MB), so reads are by column chunk.
        oracle.execute("CREATE TABLE lake.main.wide (id INTEGER, s STRUCT(a INTEGER, big VARCHAR))");
        oracle.execute("INSERT INTO lake.main.wide SELECT i, {'a': i, 'big': md5(i::VARCHAR) || md5((i + 1)::VARCHAR)} FROM range(200000) t(i)");
        trino = MoraineQueryRunner.create(oracle, directory, "main");
        history = DuckLakeHistory.of(oracle, directory.resolve("history-copy.ducklake"));
    }

    @AfterAll
    void tearDown()
            throws Exception
    {
        MoraineQueryRunner.close(trino, oracle);
    }

    @Test
    void everyStructFieldAtEverySnapshotMatchesDuckLake()
            throws Exception
    {
        List<List<String>> tables = oracle.catalogRows(TableKind.TABLE);
        List<List<String>> schemas = oracle.catalogRows(TableKind.SCHEMA);
        List<List<String>> columns = oracle.catalogRows(TableKind.COLUMN);
        long comparisons = 0;
        long expected = 0;
        for (long snapshot : history.survivingSnapshots()) {
            for (LakeTable table : history.tablesAt(snapshot)) {
                String tableId = tableId(tables, schemas, table, snapshot);
                List<List<String>> visible = columns.stream().filter(row -> row.get(3).equals(tableId) && visibleAt(row.get(1), row.get(2), snapshot)).toList();
                List<List<String>> fields = new ArrayList<>();
                for (List<String> column : visible) {
                    if (column.get(10) == null && column.get(6).equals("struct")) {
                        collectFields(visible, column, List.of(column.get(5)), fields);
                    }
                }
                expected += fields.size();
                for (List<String> path : fields) {
                    compare(table, snapshot, path);
                    comparisons++;
                }
            }
        }
        assertThat(comparisons).isEqualTo(expected);
        // sales.orders.address (city, zip) at 32 snapshots, main.shapes (a, b or b2 after the rename, sub.x, sub.y) at 8,
        // main.wide (a, big) at 2.
        assertThat(comparisons).isEqualTo(2 * 32 + 4 * 8 + 2 * 2);
    }

    /** The fields under a struct column reached through structs only, each as its path of names (structs recursed into). */
    private static void collectFields(List<List<String>> visible, List<String> struct, List<String> path, List<List<String>> fields)
    {
        List<List<String>> children = visible.stream().filter(row -> struct.getFirst().equals(row.get(10)))
                .sorted(java.util.Comparator.comparingLong(row -> Long.parseLong(row.get(4))))
                .toList();
        for (List<String> child : children) {
            List<String> childPath = new ArrayList<>(path);
            childPath.add(child.get(5));
            if (child.get(6).equals("struct")) {
                collectFields(visible, child, childPath, fields);
            }
            else {
                fields.add(childPath);
            }
        }
    }

    private void compare(LakeTable table, long snapshot, List<String> path)
            throws Exception
    {
        String expression = path.stream().map(LakeTable::quote).collect(Collectors.joining("."));
        List<List<String>> duckdb = DuckDbCanonicalRows.readExpressions(oracle, table, snapshot, List.of(expression), "");
        List<List<String>> read = TrinoCanonicalRows.of(trino.execute("SELECT " + expression + " FROM " + table.sqlName("lake") + " FOR VERSION AS OF " + snapshot));
        CanonicalRowsAssert.assertSameRows(table + "." + String.join(".", path) + " at snapshot " + snapshot, List.of(new LakeColumn(String.join(".", path), "?")),
                duckdb, "Trino", read);
    }

    private static String tableId(List<List<String>> tables, List<List<String>> schemas, LakeTable table, long snapshot)
    {
        Map<String, String> schemaIds = schemas.stream().filter(row -> visibleAt(row.get(2), row.get(3), snapshot) && row.get(4).equals(table.schema()))
                .collect(Collectors.toMap(row -> row.get(4), row -> row.getFirst()));
        return tables.stream()
                .filter(row -> visibleAt(row.get(2), row.get(3), snapshot) && row.get(5).equals(table.name()) && Objects.equals(row.get(4), schemaIds.get(table.schema())))
                .map(List::getFirst)
                .findFirst()
                .orElseThrow();
    }

    private static boolean visibleAt(String begin, String end, long snapshot)
    {
        return Long.parseLong(begin) <= snapshot && (end == null || snapshot < Long.parseLong(end));
    }

    @Test
    void aNestedFieldIsPushedIntoTheScan()
    {
        String plan = (String) trino.execute("EXPLAIN SELECT s.sub.x, s.a FROM shapes").getOnlyValue();
        assertThat(plan).contains("name=s.sub.x").contains("name=s.a");
        // A field of a struct inside a list is not a dereference of the column: the list is read.
        String listPlan = (String) trino.execute("EXPLAIN SELECT transform(ls, e -> e.p) FROM shapes").getOnlyValue();
        assertThat(listPlan).contains("name=ls,").doesNotContain("name=ls.");
    }

    @Test
    void aPrunedStructReadsFewerBytes()
    {
        long leaf = physicalInputBytes("SELECT sum(s.a) FROM wide");
        long whole = physicalInputBytes("SELECT count(s) FROM wide WHERE s IS NOT NULL");
        assertThat(leaf * 10).as("bytes read for s.a (%s) vs s (%s)", leaf, whole).isLessThan(whole);
        assertThat((Long) trino.execute("SELECT sum(s.a) FROM wide").getOnlyValue()).isEqualTo(199999L * 200000 / 2);
    }

    private long physicalInputBytes(String sql)
    {
        DistributedQueryRunner runner = (DistributedQueryRunner) trino;
        var queryId = runner.executeWithPlan(runner.getDefaultSession(), sql).queryId();
        return runner.getCoordinator().getQueryManager().getFullQueryInfo(queryId).getQueryStats().getPhysicalInputDataSize().toBytes();
    }
}
