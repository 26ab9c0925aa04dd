package io.moraine.trino;

import com.google.common.collect.HashMultiset;
import com.google.common.collect.Lists;
import io.moraine.testing.CanonicalRowsAssert;
import io.moraine.testing.ChangeFeedAnswers;
import io.moraine.testing.CanonicalText;
import io.moraine.testing.DuckLakeChangeFeed;
import io.moraine.testing.DuckLakeChangeFeed.Function;
import io.moraine.testing.DuckLakeChangeFeed.Range;
import io.moraine.testing.DuckLakeHistory;
import io.moraine.testing.DuckLakeOracle;
import io.moraine.testing.LakeColumn;
import io.moraine.testing.LakeTable;
import io.moraine.testing.OracleSample;
import io.trino.spi.ErrorCodeSupplier;
import io.trino.spi.type.Type;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedResult;
import io.trino.testing.QueryFailedException;
import io.trino.testing.QueryRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Trino's {@code lake.system.table_changes}, {@code table_insertions} and {@code table_deletions} equal DuckDB +
 * DuckLake's {@code ducklake_table_changes} (etc.) for a sample of the ranges of surviving snapshots
 * ({@link OracleSample#ranges}: each table's whole history, and of the ranges ending at one of a table's
 * sampled range ends (its newest snapshot, its oldest, every ninth back) every one-snapshot range and every fourth
 * longer one),
 * bounds as snapshot ids and as the snapshots' times, every column, as multisets; and a call's insertions and
 * deletions are exactly the corresponding rows of its changes. Every range is compared engine-free, once, by the
 * moraine-cli module's {@code ChangeFeedBeforeFlushTest} and {@code ChangeFeedAfterWorkloadTest}. Ranges of a table with the same columns at their ends are read by one Trino
 * query (a UNION ALL of one call per range). Subclasses pick how much of the oracle workload ran before the import.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ChangeFeedFunctionsMatchDuckLake
{
    /** How many calls one Trino query makes (a UNION ALL): fewer round trips, a plan of modest size. */
    private static final int CALLS_PER_QUERY = 64;

    DuckLakeOracle oracle;
    QueryRunner trino;
    DuckLakeChangeFeed feed;
    Path directory;

    /** The workload steps run before the import. */
    abstract List<String> steps();

    @BeforeAll
    void setUp()
            throws Exception
    {
        directory = Files.createTempDirectory("moraine-trino-changes");
        oracle = DuckLakeOracle.create(directory.resolve("lake"), DuckLakeOracle.CatalogDatabase.DUCKDB);
        for (String step : steps()) {
            oracle.execute(step);
        }
        trino = MoraineQueryRunner.create(oracle, directory, "main");
        feed = new DuckLakeChangeFeed(DuckLakeHistory.of(oracle, directory.resolve("history-copy.ducklake")));
    }

    @AfterAll
    void tearDown()
            throws Exception
    {
        MoraineQueryRunner.close(trino, oracle);
    }

    @Test
    void everyCallOverTheSampledRangesMatchesDuckLake()
            throws Exception
    {
        List<Range> ranges = OracleSample.ranges(feed);
        OracleSample.assertRangeSample(feed, ranges);
        assertThat((long) ranges.size()).as("sampled ranges of the workload").isGreaterThanOrEqualTo(15);
        // Ranges whose tables have the same columns at the end are read together, a chunk per query.
        Map<String, List<Range>> sameColumns = new LinkedHashMap<>();
        ranges.forEach(range -> sameColumns.computeIfAbsent(range.table() + " " + range.columns(), key -> new ArrayList<>()).add(range));

        Map<String, List<Long>> startsByEnd = new HashMap<>();
        ranges.forEach(range -> startsByEnd.computeIfAbsent(range.table() + " " + range.end(), key -> new ArrayList<>()).add(range.start()));
        List<ChangeFeedAnswers> answersRead = new ArrayList<>();

        List<String> failures = new ArrayList<>();
        long compared = 0;
        long subsets = 0;
        long rows = 0;
        for (List<Range> together : sameColumns.values()) {
            // DuckDB's answers, read once per function, table and end: a group's ranges come by end, then start, so a chunk
            // needs those of its own ends only, the first perhaps kept from the chunk before.
            Map<String, ChangeFeedAnswers> answers = new HashMap<>();
            for (List<Range> chunk : Lists.partition(together, CALLS_PER_QUERY)) {
                Set<String> needed = new HashSet<>();
                for (Range range : chunk) {
                    for (Function function : Function.values()) {
                        needed.add(function + " " + range.table() + " " + range.end());
                    }
                }
                answers.keySet().retainAll(needed);
                for (Range range : chunk) {
                    for (Function function : Function.values()) {
                        String key = function + " " + range.table() + " " + range.end();
                        if (!answers.containsKey(key)) {
                            ChangeFeedAnswers read = ChangeFeedAnswers.read(feed, function, range.table(), range.end(), range.columns(),
                                    startsByEnd.get(range.table() + " " + range.end()), true);
                            answers.put(key, read);
                            answersRead.add(read);
                        }
                    }
                }
                for (boolean byTimestamp : new boolean[] {false, true}) {
                    Map<Function, Map<Range, List<List<String>>>> read = new HashMap<>();
                    for (Function function : Function.values()) {
                        read.put(function, readByRange(function, chunk, byTimestamp));
                        for (Range range : chunk) {
                            List<List<String>> expected = answers.get(function + " " + range.table() + " " + range.end()).answer(range.start());
                            List<List<String>> actual = read.get(function).getOrDefault(range, List.of());
                            rows += expected.size();
                            String what = function.functionName() + " of " + range + (byTimestamp ? " by timestamp" : " by snapshot id");
                            try {
                                CanonicalRowsAssert.assertSameRows(what, columns(function, range), expected, "Trino", actual);
                            }
                            catch (AssertionError e) {
                                failures.add(e.getMessage());
                            }
                            compared++;
                        }
                    }
                    for (Range range : chunk) {
                        List<List<String>> changes = read.get(Function.CHANGES).getOrDefault(range, List.of());
                        assertSideOfChanges(range, changes, read.get(Function.INSERTIONS).getOrDefault(range, List.of()), "insert", "update_postimage", failures);
                        assertSideOfChanges(range, changes, read.get(Function.DELETIONS).getOrDefault(range, List.of()), "delete", "update_preimage", failures);
                        subsets += 2;
                    }
                }
            }
        }
        assertThat(failures).as("%d of %d comparisons failed", failures.size(), compared + subsets).isEmpty();
        assertThat(compared).as("comparisons with DuckDB: three functions, two kinds of bounds, every sampled range").isEqualTo(6L * ranges.size());
        assertThat(subsets).as("insertions and deletions against changes, per range and kind of bounds").isEqualTo(4L * ranges.size());
        assertThat(rows).as("change rows compared").isGreaterThan(1000);
        long checked = answersRead.stream().mapToLong(ChangeFeedAnswers::checked).sum();
        assertThat((long) answersRead.size()).as("DuckDB's answers, read once per function, table and end").isEqualTo(3L * startsByEnd.size());
        assertThat(checked).as("derived answers checked against DuckDB's own").isGreaterThanOrEqualTo(answersRead.size());
        // One string: Trino's logging takes each piece printf writes as a line of its own.
        System.out.println(("%s: %d change-feed comparisons with DuckDB + DuckLake over %d sampled ranges of %d (%d rows), %d of insertions and deletions "
                + "with changes; DuckDB's answers read once per function, table and end (%d), %d of the ranges derived from them checked against DuckDB's own")
                .formatted(getClass().getSimpleName(), compared, ranges.size(), feed.rangeCount(), rows, subsets, answersRead.size(), checked));
    }

    /** Trino's rows of {@code function} for ranges of a table with the same columns, by range, read by one query. */
    private Map<Range, List<List<String>>> readByRange(Function function, List<Range> ranges, boolean byTimestamp)
    {
        List<String> calls = new ArrayList<>();
        Map<Integer, Range> byIndex = new HashMap<>();
        for (Range range : ranges) {
            String bounds = byTimestamp
                    ? "start_timestamp => TIMESTAMP '" + feed.snapshotTime(range.start()) + " UTC', end_timestamp => TIMESTAMP '" + feed.snapshotTime(range.end()) + " UTC'"
                    : "start_snapshot => " + range.start() + ", end_snapshot => " + range.end();
            List<String> select = new ArrayList<>(function.changeColumns().stream().map(LakeColumn::sqlName).toList());
            range.columns().forEach(column -> select.add(column.sqlName()));
            byIndex.put(calls.size(), range);
            calls.add("SELECT " + calls.size() + " AS range_index, " + String.join(", ", select) + " FROM " + ChangeFeedCalls.withSnapshotAndRowid("lake", function,
                    "schema_name => '" + range.table().schema() + "', table_name => '" + range.table().name() + "', " + bounds));
        }
        Map<Range, List<List<String>>> byRange = new HashMap<>();
        for (List<String> row : TrinoCanonicalRows.of(trino.execute(String.join("\nUNION ALL\n", calls)))) {
            byRange.computeIfAbsent(byIndex.get(Integer.parseInt(row.getFirst())), range -> new ArrayList<>()).add(row.subList(1, row.size()));
        }
        return byRange;
    }

    /** A side of a call equals the rows of its changes of those two types, without change_type. */
    private static void assertSideOfChanges(Range range, List<List<String>> changes, List<List<String>> side, String plain, String update, List<String> failures)
    {
        List<List<String>> ofChanges = new ArrayList<>();
        for (List<String> row : changes) {
            if (row.get(2).equals(CanonicalText.of(plain)) || row.get(2).equals(CanonicalText.of(update))) {
                List<String> withoutType = new ArrayList<>(row.subList(0, 2));
                withoutType.addAll(row.subList(3, row.size()));
                ofChanges.add(withoutType);
            }
        }
        if (!HashMultiset.create(ofChanges).equals(HashMultiset.create(side))) {
            failures.add(range + ": the " + plain + " and " + update + " rows of table_changes (" + ofChanges.size() + ") are not the rows of the matching side ("
                    + side.size() + ")");
        }
    }

    static List<LakeColumn> columns(Function function, Range range)
    {
        List<LakeColumn> columns = new ArrayList<>(function.changeColumns());
        columns.addAll(range.columns());
        return columns;
    }

    /** The widest range of {@code table} whose changes are not empty and at whose start the table exists. */
    Range widestRangeWithChanges(LakeTable table)
            throws SQLException
    {
        Range widest = null;
        for (Range range : feed.everyRange()) {
            if (range.table().equals(table) && (widest == null || range.end() - range.start() > widest.end() - widest.start())
                    && feed.history().tablesAt(range.start()).contains(table) && !feed.answer(Function.CHANGES, range, false).isEmpty()) {
                widest = range;
            }
        }
        assertThat(widest).as("a range of %s with changes", table).isNotNull();
        return widest;
    }

    /**
     * A query moved from DuckDB to Trino keeps its shape: each function's columns are those of DuckLake's function of
     * the same name, in its order ({@code DESCRIBE SELECT * FROM ducklake_table_insertions(...)}), the table's typed as
     * Trino types the table; {@code virtual_columns => true} puts {@code snapshot_id} and {@code rowid} first, as DuckDB's
     * {@code SELECT snapshot_id, rowid, * FROM ducklake_table_insertions(...)} does.
     */
    @Test
    void eachFunctionHasTheColumnsOfDuckLakesFunctionOfTheSameName()
            throws Exception
    {
        long newest = feed.history().survivingSnapshots().getLast();
        List<LakeTable> tables = feed.history().tablesAt(newest);
        long compared = 0;
        for (LakeTable table : tables) {
            MaterializedResult ofTable = trino.execute("SELECT * FROM " + table.sqlName("lake") + " LIMIT 0");
            for (Function function : Function.values()) {
                String duckdbCall = "ducklake_" + function.functionName() + "('lake', '" + table.schema() + "', '" + table.name() + "', " + newest + ", " + newest + ")";
                String trinoArguments = "schema_name => '" + table.schema() + "', table_name => '" + table.name() + "', start_snapshot => " + newest;
                List<Type> expectedTypes = new ArrayList<>();
                if (function == Function.CHANGES) {
                    expectedTypes.addAll(List.of(BIGINT, BIGINT, VARCHAR));
                }
                expectedTypes.addAll(ofTable.getTypes());

                MaterializedResult plain = trino.execute("SELECT * FROM TABLE(lake.system." + function.functionName() + "(" + trinoArguments + ")) LIMIT 0");
                assertThat(plain.getColumnNames()).as("columns of %s of %s", function.functionName(), table).isEqualTo(describedColumns("SELECT * FROM " + duckdbCall));
                assertThat(plain.getTypes()).as("types of %s of %s", function.functionName(), table).isEqualTo(expectedTypes);
                compared++;
                if (function != Function.CHANGES) {
                    MaterializedResult withVirtual = trino.execute("SELECT * FROM " + ChangeFeedCalls.withSnapshotAndRowid("lake", function, trinoArguments) + " LIMIT 0");
                    assertThat(withVirtual.getColumnNames()).as("columns of %s of %s with virtual_columns", function.functionName(), table)
                            .isEqualTo(describedColumns("SELECT snapshot_id, rowid, * FROM " + duckdbCall));
                    List<Type> withVirtualTypes = new ArrayList<>(List.of(BIGINT, BIGINT));
                    withVirtualTypes.addAll(expectedTypes);
                    assertThat(withVirtual.getTypes()).as("types of %s of %s with virtual_columns", function.functionName(), table).isEqualTo(withVirtualTypes);
                    compared++;
                }
            }
        }
        assertThat(tables).as("tables at the newest snapshot").hasSizeGreaterThanOrEqualTo(2);
        assertThat(compared).isEqualTo(5L * tables.size());
    }

    /** The column names DuckDB describes for {@code query}, in order; Trino's names are lower case. */
    private List<String> describedColumns(String query)
            throws SQLException
    {
        return oracle.query("SELECT column_name FROM (DESCRIBE " + query + ")").stream()
                .map(row -> row.getFirst().toLowerCase(java.util.Locale.ROOT))
                .toList();
    }

    @Test
    void aStartAfterTheEndIsEmptyAsInDuckLake()
            throws Exception
    {
        Range widest = widestRangeWithChanges(new LakeTable("sales", "orders"));
        // DuckLake looks the table up at the end bound: reversed, it must exist at the start.
        Range reversed = new Range(widest.table(), widest.end(), widest.start(), feed.history().columnsAt(widest.table(), widest.start()));
        for (Function function : Function.values()) {
            assertThat(feed.answer(function, reversed, false)).as("DuckDB's %s of %s", function, reversed).isEmpty();
            assertThat(trino.execute("SELECT * FROM TABLE(lake.system." + function.functionName() + "(schema_name => 'sales', table_name => 'orders', start_snapshot => "
                    + widest.end() + ", end_snapshot => " + widest.start() + "))").getRowCount()).isZero();
        }
    }

    @Test
    void anUnknownTableOrSchemaIsRefused()
    {
        assertFails("SELECT * FROM TABLE(lake.system.table_changes(schema_name => 'sales', table_name => 'nothing', start_snapshot => 0))",
                MoraineErrorCode.MORAINE_NOT_FOUND, "table_changes: table sales.nothing does not exist at snapshot");
        assertFails("SELECT * FROM TABLE(lake.system.table_insertions(schema_name => 'nowhere', table_name => 'orders', start_snapshot => 0))",
                MoraineErrorCode.MORAINE_NOT_FOUND, "table_insertions: schema nowhere does not exist at snapshot");
    }

    @Test
    void theBoundsMustBeGivenOnce()
    {
        assertFails("SELECT * FROM TABLE(lake.system.table_changes(schema_name => 'sales', table_name => 'orders'))",
                MoraineErrorCode.MORAINE_INVALID_ARGUMENT, "neither start_snapshot nor start_timestamp was given: give exactly one of them");
        assertFails("SELECT * FROM TABLE(lake.system.table_changes(schema_name => 'sales', table_name => 'orders', start_snapshot => 1, "
                + "start_timestamp => TIMESTAMP '2020-01-01 00:00:00 UTC'))", MoraineErrorCode.MORAINE_INVALID_ARGUMENT, "both start_snapshot and start_timestamp was given");
        assertFails("SELECT * FROM TABLE(lake.system.table_deletions(schema_name => 'sales', table_name => 'orders', start_snapshot => 1, end_snapshot => 2, "
                + "end_timestamp => TIMESTAMP '2020-01-01 00:00:00 UTC'))", MoraineErrorCode.MORAINE_INVALID_ARGUMENT, "both end_snapshot and end_timestamp were given");
        assertFails("SELECT * FROM TABLE(lake.system.table_deletions(schema_name => NULL, table_name => 'orders', start_snapshot => 1))",
                MoraineErrorCode.MORAINE_INVALID_ARGUMENT, "schema_name is NULL");
        assertFails("SELECT * FROM TABLE(lake.system.table_insertions(schema_name => 'sales', table_name => 'orders', start_snapshot => 1, virtual_columns => NULL))",
                MoraineErrorCode.MORAINE_INVALID_ARGUMENT, "virtual_columns is NULL");
    }

    @Test
    void boundsOutsideTheSnapshotsAreRefused()
            throws Exception
    {
        long newest = feed.history().survivingSnapshots().getLast();
        assertFails("SELECT * FROM TABLE(lake.system.table_changes(schema_name => 'sales', table_name => 'orders', start_snapshot => " + (newest + 5) + "))",
                MoraineErrorCode.MORAINE_NOT_FOUND, "snapshot " + (newest + 5) + " does not exist, so a change feed cannot start there");
        assertFails("SELECT * FROM TABLE(lake.system.table_changes(schema_name => 'sales', table_name => 'orders', start_snapshot => 0, end_snapshot => " + (newest + 5)
                + "))", MoraineErrorCode.MORAINE_NOT_FOUND, "" + (newest + 5));
        assertFails("SELECT * FROM TABLE(lake.system.table_changes(schema_name => 'sales', table_name => 'orders', start_snapshot => 0, "
                + "end_timestamp => TIMESTAMP '2000-01-01 00:00:00 UTC'))", MoraineErrorCode.MORAINE_NOT_FOUND, "has no snapshot at or before 2000-01-01T00:00:00Z");
        assertFails("SELECT * FROM TABLE(lake.system.table_changes(schema_name => 'sales', table_name => 'orders', start_timestamp => TIMESTAMP '2999-01-01 00:00:00 UTC'))",
                MoraineErrorCode.MORAINE_NOT_FOUND, "has no snapshot at or after 2999-01-01T00:00:00Z");
    }

    /** The query fails with {@code code} (as the coordinator recorded it) and a message containing {@code message}. */
    void assertFails(String sql, ErrorCodeSupplier code, String message)
    {
        assertThatThrownBy(() -> trino.execute(sql))
                .isInstanceOf(QueryFailedException.class)
                .hasMessageContaining(message)
                .satisfies(failure -> assertThat(((DistributedQueryRunner) trino).getCoordinator().getDispatchManager()
                        .getQueryInfo(((QueryFailedException) failure).getQueryId()).getErrorCode()).isEqualTo(code.toErrorCode()));
    }
}
