package io.moraine.spark;

import io.moraine.core.store.StoreUri;
import io.moraine.importer.CatalogImporter;
import io.moraine.importer.DuckLakeSource;
import io.moraine.testing.CanonicalRowsAssert;
import io.moraine.testing.CanonicalText;
import io.moraine.testing.ChangeFeedAnswers;
import io.moraine.testing.DuckLakeChangeFeed;
import io.moraine.testing.DuckLakeChangeFeed.Function;
import io.moraine.testing.DuckLakeChangeFeed.Range;
import io.moraine.testing.DuckLakeHistory;
import io.moraine.testing.DuckLakeOracle;
import io.moraine.testing.LakeColumn;
import io.moraine.testing.LakeTable;
import io.moraine.testing.OracleSample;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.duckdb.DuckDBStruct;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Array;
import java.sql.Blob;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The change feed of the oracle workload (inserts, deletes, updates, inlined rows, schema changes, flush, merge,
 * rewrite, expiry) read through Spark 4.2's native change-data-capture API equals DuckDB + DuckLake's
 * change functions: the raw feed of SQL {@code CHANGES FROM VERSION a TO VERSION b} equals
 * {@code ducklake_table_insertions} and {@code ducklake_table_deletions} for a sample of the ranges of surviving
 * snapshots ({@link OracleSample#ranges}: each table's whole history, and of the ranges ending at one of a
 * table's sampled range ends (its newest snapshot, its oldest, every ninth back) every one-snapshot range and every
 * fourth longer one); the DataFrame API ({@code spark.read.option("startingVersion", ...).changes(...)}) with
 * {@code computeUpdates} (updates paired by Spark) and Delta's reader options on {@code format("moraine")}
 * ({@code readChangeFeed}, updates paired by the core) equal {@code ducklake_table_changes} for every sampled range.
 * Every range is compared engine-free, once, by the moraine-cli module's {@code ChangeFeedAfterWorkloadTest}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestMoraineSparkChangeFeed
{
    private static final String DUCKLAKE_COLUMNS = "snapshot_id, rowid, change_type";
    private static final String SPARK_COLUMNS = "_commit_version, _row_id, _change_type";
    /** Of the oracle workload's 612 ranges, the engines' sample has about 45. */
    private static final long MINIMUM_SAMPLED_RANGES = 25;

    private DuckLakeOracle oracle;
    private DuckLakeHistory history;
    private DuckLakeChangeFeed feed;
    private SparkSession spark;
    private Path directory;
    private StoreUri uri;
    private String storeUri;

    @BeforeAll
    void setUp()
            throws Exception
    {
        directory = Files.createTempDirectory("moraine-spark-changes");
        oracle = DuckLakeOracle.create(directory.resolve("lake"), DuckLakeOracle.CatalogDatabase.DUCKDB);
        oracle.runWorkload();
        uri = StoreUri.parse(directory.resolve("store").toString());
        CatalogImporter.importCatalog(DuckLakeSource.parse(oracle.catalogCopy(directory.resolve("catalog-copy.ducklake"))), uri, Optional.empty(),
                CatalogImporter.Progress.SILENT);
        history = DuckLakeHistory.of(oracle, directory.resolve("history-copy.ducklake"));
        feed = new DuckLakeChangeFeed(history);
        storeUri = uri.toString();
        // Every range is a union branch of its own, so whole-stage code generation compiled a class per range and
        // adaptive execution planned each branch's shuffle: Spark's own costs, which this class paid once per range and read (~550 times).
        // What the connector hands Spark is the same either way; the other Spark test classes run with Spark's defaults.
        spark = SparkSessions.start(storeUri, Map.of(), Map.of("spark.sql.codegen.wholeStage", "false", "spark.sql.adaptive.enabled", "false", "spark.sql.shuffle.partitions", "1"));
    }

    @AfterAll
    void tearDown()
            throws Exception
    {
        try (DuckLakeOracle ignored = oracle) {
            if (spark != null) {
                spark.stop();
            }
        }
    }

    @Test
    void dataPathOverrideReadsTheChangeFeedFromWhereTheLakeWasMoved()
            throws Exception
    {
        Path moved = directory.resolve("moved");
        try (var paths = Files.walk(oracle.dataPath())) {
            for (Path source : paths.toList()) {
                Path target = moved.resolve(oracle.dataPath().relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                }
                else {
                    Files.copy(source, target);
                }
            }
        }
        for (String catalog : List.of("movedchanges", "nowherechanges")) {
            spark.conf().set("spark.sql.catalog." + catalog, MoraineSparkCatalog.class.getName());
            spark.conf().set("spark.sql.catalog." + catalog + ".store", uri.toString());
        }
        spark.conf().set("spark.sql.catalog.movedchanges.data-path", moved.toString());
        spark.conf().set("spark.sql.catalog.nowherechanges.data-path", moved.resolve("absent").toString());
        List<Long> snapshots = history.survivingSnapshots();
        long start = snapshots.getFirst();
        long end = snapshots.getLast();
        long compared = 0;
        for (LakeTable table : history.tablesAt(end)) {
            List<LakeColumn> columns = history.columnsAt(table, end);
            String sql = "SELECT " + SPARK_COLUMNS + ", " + names(columns) + " FROM %s." + table.schema() + "." + table.name() + " CHANGES FROM VERSION " + start
                    + " TO VERSION " + end;
            List<List<String>> duckdb = duckLakeRawChanges(table, columns, start, end);
            assertThat(duckdb).as("DuckDB's changes of %s", table).isNotEmpty();
            CanonicalRowsAssert.assertSameRows(table + " changes of the moved lake [" + start + ", " + end + "]", withChangeColumns(columns), duckdb, "Spark",
                    canonical(spark.sql(sql.formatted("movedchanges")).collectAsList(), 0, columns));
            compared++;
            assertThatThrownBy(() -> spark.sql(sql.formatted("nowherechanges")).collectAsList()).hasStackTraceContaining(moved.resolve("absent").toString());
        }
        assertThat(compared).isEqualTo(history.tablesAt(end).size()).isGreaterThan(0);
    }

    @Test
    void everyTableAndSampledRangeMatchesDuckLakeInsertionsAndDeletions()
            throws Exception
    {
        List<Range> sample = sampledRanges();
        List<String> failures = new ArrayList<>();
        long compared = 0;
        long expected = 0;
        List<ChangeFeedAnswers> answersRead = new ArrayList<>();
        for (List<Range> sameEnd : byTableAndEnd(sample)) {
            LakeTable table = sameEnd.getFirst().table();
            long end = sameEnd.getFirst().end();
            List<LakeColumn> columns = sameEnd.getFirst().columns();
            List<Long> starts = sameEnd.stream().map(Range::start).toList();
            expected += starts.size();
            // One Spark query per table and end: the raw feeds (no pairing, so no shuffle) from every start, each tagged with its start.
            String union = String.join(" UNION ALL ", starts.stream()
                    .map(start -> "SELECT CAST(" + start + " AS BIGINT) AS range_start, " + SPARK_COLUMNS + ", " + names(columns) + " FROM lake."
                            + table.schema() + "." + table.name() + " CHANGES FROM VERSION " + start + " TO VERSION " + end)
                    .toList());
            Map<Long, List<Row>> byStart = new HashMap<>();
            for (Row row : spark.sql(union).collectAsList()) {
                byStart.computeIfAbsent(row.getLong(0), key -> new ArrayList<>()).add(row);
            }
            ChangeFeedAnswers insertions = ChangeFeedAnswers.read(feed, Function.INSERTIONS, table, end, columns, starts, false);
            ChangeFeedAnswers deletions = ChangeFeedAnswers.read(feed, Function.DELETIONS, table, end, columns, starts, false);
            answersRead.addAll(List.of(insertions, deletions));
            for (long start : starts) {
                List<List<String>> duckdb = rawChanges(insertions.answer(start), deletions.answer(start));
                List<List<String>> read = canonical(byStart.getOrDefault(start, List.of()), 1, columns);
                try {
                    CanonicalRowsAssert.assertSameRows(table + " changes [" + start + ", " + end + "]", withChangeColumns(columns), duckdb, "Spark", read);
                }
                catch (AssertionError e) {
                    failures.add(e.getMessage());
                }
                compared++;
            }
        }
        if (!failures.isEmpty()) {
            throw new AssertionError(failures.size() + " of " + compared + " ranges differ:\n" + String.join("\n", failures));
        }
        assertThat(compared).isEqualTo(expected).isEqualTo(sample.size()).isGreaterThan(MINIMUM_SAMPLED_RANGES);
        assertThat(checked(answersRead)).as("derived answers checked against DuckDB's own").isGreaterThanOrEqualTo(answersRead.size());
        System.out.printf("change feed: %d sampled ranges (of %d) compared with ducklake_table_insertions and _deletions (DuckDB's answers read once per table "
                + "and end, %d of the ranges derived from them checked against DuckDB's own)%n", compared, feed.rangeCount(), checked(answersRead));
    }

    /**
     * Both ways of reading a feed with updates, compared with one {@code ducklake_table_changes} call per range (each on
     * its share of the sampled ranges): the
     * DataFrame API with {@code computeUpdates} (updates paired by Spark) and {@code readChangeFeed} (paired by the core).
     */
    @Test
    void computeUpdatesAndReadChangeFeedMatchDuckLakeTableChangesForEverySampledRange()
            throws Exception
    {
        Map<String, ChangeRead> reads = new LinkedHashMap<>();
        reads.put("computeUpdates", (table, start, end) -> spark.read()
                .option("startingVersion", Long.toString(start))
                .option("endingVersion", Long.toString(end))
                .option("computeUpdates", "true")
                .changes("lake." + table.schema() + "." + table.name()));
        reads.put("readChangeFeed", (table, start, end) -> readChangeFeed()
                .option("startingVersion", Long.toString(start))
                .option("endingVersion", Long.toString(end))
                .load(table.schema() + "." + table.name()));
        compareWithTableChanges(reads);
    }

    @Test
    void readChangeFeedHasDeltasColumnsAndTimestampBounds()
            throws Exception
    {
        LakeTable orders = new LakeTable("sales", "orders");
        List<Long> snapshots = history.survivingSnapshots();
        long start = snapshots.get(2);
        long end = snapshots.get(snapshots.size() - 2);
        List<LakeColumn> columns = history.columnsAt(orders, end);
        Dataset<Row> changes = readChangeFeed().option("startingTimestamp", time(start)).option("endingTimestamp", time(end)).load("sales.orders");
        List<String> names = new ArrayList<>(columns.stream().map(LakeColumn::name).toList());
        names.addAll(List.of("_change_type", "_commit_version", "_commit_timestamp", "_row_id"));
        assertThat(changes.columns()).containsExactlyElementsOf(names);
        List<Row> rows = changes.selectExpr(("_commit_version, _row_id, _change_type, " + names(columns)).split(", ")).collectAsList();
        CanonicalRowsAssert.assertSameRows("orders readChangeFeed by timestamp", withChangeColumns(columns), duckLakeChanges(orders, columns, start, end), "Spark",
                canonical(rows, 0, columns));
        assertThat(rows).isNotEmpty();
        // Without an end, the feed runs to the newest snapshot; each row's commit time is its snapshot's.
        List<Row> toNewest = readChangeFeed().option("startingVersion", Long.toString(start)).load("sales.orders")
                .selectExpr("_commit_version", "CAST(_commit_timestamp AS STRING)").distinct().collectAsList();
        assertThat(toNewest).isNotEmpty();
        Map<Long, String> times = new HashMap<>();
        for (List<String> row : oracle.query("SELECT snapshot_id, strftime(snapshot_time AT TIME ZONE 'UTC', '%Y-%m-%d %H:%M:%S') FROM ducklake_snapshots('lake')")) {
            times.put(Long.parseLong(row.get(0)), row.get(1));
        }
        long newest = snapshots.getLast();
        assertThat(readChangeFeed().option("startingVersion", Long.toString(start)).load("sales.orders").count()).isEqualTo(Long.parseLong(oracle.query(
                "SELECT count(*) FROM ducklake_table_changes('lake', 'sales', 'orders', " + start + ", " + newest + ")").getFirst().getFirst()));
        for (Row row : toNewest) {
            // NULL for a snapshot since expired, whose time is gone.
            String expected = times.get(row.getLong(0));
            if (expected == null) {
                assertThat(row.isNullAt(1)).as("commit time of expired snapshot " + row.getLong(0)).isTrue();
            }
            else {
                assertThat(row.getString(1)).as("commit time of snapshot " + row.getLong(0)).startsWith(expected);
            }
        }
    }

    @Test
    void badReadChangeFeedOptionsAreRefusedNamingTheProblem()
    {
        LakeTable orders = new LakeTable("sales", "orders");
        assertFeedRefused(readChangeFeed().option("startingVersion", "2").option("startingTimestamp", "2020-01-01 00:00:00"),
                "startingVersion", "startingTimestamp", "not both");
        assertFeedRefused(readChangeFeed().option("startingVersion", "10").option("endingVersion", "5"), "reversed", "10", "5");
        // The workload expires snapshot 3.
        assertFeedRefused(readChangeFeed().option("startingVersion", "3").option("endingVersion", "10"), "snapshot 3 was expired");
        assertFeedRefused(readChangeFeed().option("endingVersion", "10"), "needs a start", "startingVersion");
        assertFeedRefused(readChangeFeed().option("startingVersion", "x"), "'x'");
        assertFeedRefused(readChangeFeed().option("startingTimestamp", "yesterday"), "startingTimestamp", "'yesterday'");
    }

    private org.apache.spark.sql.DataFrameReader readChangeFeed()
    {
        return spark.read().format("moraine").option("store", storeUri).option("readChangeFeed", "true");
    }

    private static void assertFeedRefused(org.apache.spark.sql.DataFrameReader reader, String... fragments)
    {
        var assertion = assertThatThrownBy(() -> reader.load("sales.orders").collectAsList()).isInstanceOf(AnalysisException.class);
        for (String fragment : fragments) {
            assertion.hasMessageContaining(fragment);
        }
    }

    @FunctionalInterface
    private interface ChangeRead
    {
        Dataset<Row> changes(LakeTable table, long start, long end);
    }

    /**
     * Compares {@code reads} with {@code ducklake_table_changes} over the sampled ranges, one Spark query per table and
     * end (the sampled ranges of that end, each tagged with its start), the reads taking turns by table and end.
     */
    private void compareWithTableChanges(Map<String, ChangeRead> reads)
            throws Exception
    {
        List<Range> sample = sampledRanges();
        List<String> failures = new ArrayList<>();
        Map<String, Long> compared = new LinkedHashMap<>();
        long updates = 0;
        List<ChangeFeedAnswers> answersRead = new ArrayList<>();
        List<Map.Entry<String, ChangeRead>> readList = List.copyOf(reads.entrySet());
        int group = 0;
        for (List<Range> sameEnd : byTableAndEnd(sample)) {
            LakeTable table = sameEnd.getFirst().table();
            long end = sameEnd.getFirst().end();
            List<LakeColumn> columns = sameEnd.getFirst().columns();
            List<Long> starts = sameEnd.stream().map(Range::start).toList();
            String[] selected = ("range_start, " + SPARK_COLUMNS + ", " + names(columns)).split(", ");
            Map<String, Map<Long, List<Row>>> byRead = new LinkedHashMap<>();
            // The reads take turns by table and end: each is compared on its share of the sample, not all of it.
            Map.Entry<String, ChangeRead> turn = readList.get(group++ % readList.size());
            Map.of(turn.getKey(), turn.getValue()).forEach((what, read) -> {
                Dataset<Row> union = null;
                for (long start : starts) {
                    Dataset<Row> range = read.changes(table, start, end).withColumn("range_start", org.apache.spark.sql.functions.lit(start)).selectExpr(selected);
                    union = union == null ? range : union.unionAll(range);
                }
                Map<Long, List<Row>> byStart = new HashMap<>();
                for (Row row : union.collectAsList()) {
                    byStart.computeIfAbsent(row.getLong(0), key -> new ArrayList<>()).add(row);
                }
                byRead.put(what, byStart);
            });
            ChangeFeedAnswers changes = ChangeFeedAnswers.read(feed, Function.CHANGES, table, end, columns, starts, false);
            answersRead.add(changes);
            for (long start : starts) {
                List<List<String>> duckdb = changes.answer(start);
                updates += duckdb.stream().filter(row -> row.get(2).equals("'update_preimage'")).count();
                for (Map.Entry<String, Map<Long, List<Row>>> read : byRead.entrySet()) {
                    try {
                        CanonicalRowsAssert.assertSameRows(table + " " + read.getKey() + " [" + start + ", " + end + "]", withChangeColumns(columns), duckdb,
                                "Spark", canonical(read.getValue().getOrDefault(start, List.of()), 1, columns));
                    }
                    catch (AssertionError e) {
                        failures.add(e.getMessage());
                    }
                    compared.merge(read.getKey(), 1L, Long::sum);
                }
            }
        }
        if (!failures.isEmpty()) {
            throw new AssertionError(failures.size() + " comparisons of " + compared + " differ:\n" + String.join("\n", failures));
        }
        long ranges = sample.size();
        assertThat(ranges).isGreaterThan(MINIMUM_SAMPLED_RANGES);
        assertThat(compared.values().stream().mapToLong(Long::longValue).sum()).as("ranges compared, all reads").isEqualTo(ranges);
        assertThat(compared).hasSize(reads.size()).allSatisfy((what, count) -> assertThat(count).as(what).isGreaterThanOrEqualTo(MINIMUM_SAMPLED_RANGES / 3));
        assertThat(updates).as("update pairs in the compared feeds").isGreaterThan(0);
        assertThat(checked(answersRead)).as("derived answers checked against DuckDB's own").isGreaterThanOrEqualTo(answersRead.size());
        System.out.printf("change feed with updates: sampled ranges (of %d) compared with ducklake_table_changes %s, %d update rows (DuckDB's answers read "
                + "once per table and end, %d of the ranges derived from them checked against DuckDB's own)%n", feed.rangeCount(), compared, updates,
                checked(answersRead));
    }

    @Test
    void timestampBoundsAndRawChangesResolveAsDuckLake()
            throws Exception
    {
        LakeTable orders = new LakeTable("sales", "orders");
        List<Long> snapshots = history.survivingSnapshots();
        long start = snapshots.get(2);
        long end = snapshots.getLast();
        String startTime = time(start);
        String endTime = time(end);
        List<LakeColumn> columns = history.columnsAt(orders, end);
        List<Row> rows = spark.sql("SELECT " + SPARK_COLUMNS + ", " + names(columns) + " FROM lake.sales.orders CHANGES FROM TIMESTAMP '" + startTime
                + "' TO TIMESTAMP '" + endTime + "' WITH (computeUpdates = 'true')").collectAsList();
        CanonicalRowsAssert.assertSameRows("orders changes by timestamp", withChangeColumns(columns), duckLakeChanges(orders, columns, start, end), "Spark",
                canonical(rows, 0, columns));
        // Without computeUpdates, an update stays a deletion and an insertion: DuckLake's insertions and deletions.
        long raw = spark.sql("SELECT * FROM lake.sales.orders CHANGES FROM VERSION " + start + " TO VERSION " + end).count();
        long duckdb = Long.parseLong(oracle.query("SELECT (SELECT count(*) FROM ducklake_table_insertions('lake', 'sales', 'orders', " + start + ", " + end
                + ")) + (SELECT count(*) FROM ducklake_table_deletions('lake', 'sales', 'orders', " + start + ", " + end + "))").getFirst().getFirst());
        assertThat(raw).isEqualTo(duckdb).isGreaterThan(0);
    }

    @Test
    void badRangesAreRefusedNamingTheProblem()
            throws Exception
    {
        long newest = history.survivingSnapshots().getLast();
        assertRefused("SELECT * FROM lake.sales.orders CHANGES FROM VERSION 10 TO VERSION 5", "reversed", "10", "5");
        // The workload expires snapshot 3.
        assertRefused("SELECT * FROM lake.sales.orders CHANGES FROM VERSION 3 TO VERSION 10", "snapshot 3 was expired");
        assertRefused("SELECT * FROM lake.sales.orders CHANGES FROM VERSION " + (newest + 5), "does not exist");
        assertRefused("SELECT * FROM lake.sales.orders CHANGES FROM VERSION 'x'", "'x'");
        assertRefused("SELECT * FROM lake.main.dropped CHANGES FROM VERSION 2", "dropped");
    }

    private void assertRefused(String sql, String... fragments)
    {
        var assertion = assertThatThrownBy(() -> spark.sql(sql).collectAsList()).as(sql).isInstanceOf(AnalysisException.class);
        for (String fragment : fragments) {
            assertion.hasMessageContaining(fragment);
        }
    }

    private String time(long snapshot)
            throws Exception
    {
        return oracle.query("SELECT strftime(snapshot_time AT TIME ZONE 'UTC', '%Y-%m-%d %H:%M:%S.%f') FROM ducklake_snapshots('lake') WHERE snapshot_id = "
                + snapshot).getFirst().getFirst();
    }

    /** The engines' sample ({@link OracleSample#ranges}), checked against the catalog's counts. */
    private List<Range> sampledRanges()
            throws Exception
    {
        List<Range> sample = OracleSample.ranges(feed);
        OracleSample.assertRangeSample(feed, sample);
        return sample;
    }

    /** The ranges grouped by table and end, in their order (by end, then start). */
    private static java.util.Collection<List<Range>> byTableAndEnd(List<Range> ranges)
    {
        Map<String, List<Range>> groups = new LinkedHashMap<>();
        ranges.forEach(range -> groups.computeIfAbsent(range.table() + " " + range.end(), key -> new ArrayList<>()).add(range));
        return groups.values();
    }

    private static String names(List<LakeColumn> columns)
    {
        return String.join(", ", columns.stream().map(SparkDuckLakeComparison::quoted).toList());
    }

    private static List<LakeColumn> withChangeColumns(List<LakeColumn> columns)
    {
        List<LakeColumn> all = new ArrayList<>(List.of(new LakeColumn("snapshot_id", "BIGINT"), new LakeColumn("rowid", "BIGINT"),
                new LakeColumn("change_type", "VARCHAR")));
        all.addAll(columns);
        return all;
    }

    /** Spark's change rows from column {@code first} on: version, row id, change type, the table's columns. */
    private static List<List<String>> canonical(List<Row> rows, int first, List<LakeColumn> columns)
    {
        List<List<String>> canonical = new ArrayList<>();
        for (Row row : rows) {
            List<String> cells = new ArrayList<>();
            cells.add(CanonicalText.of(row.getLong(first)));
            cells.add(CanonicalText.of(row.getLong(first + 1)));
            cells.add(CanonicalText.of(row.getString(first + 2)));
            for (int i = 0; i < columns.size(); i++) {
                Object value = SparkCanonicalRows.plain(row.get(first + 3 + i));
                if (value instanceof String text && columns.get(i).duckdbType().equals("UUID")) {
                    value = UUID.fromString(text);
                }
                cells.add(CanonicalText.of(value));
            }
            canonical.add(cells);
        }
        return canonical;
    }

    private static long checked(List<ChangeFeedAnswers> answers)
    {
        return answers.stream().mapToLong(ChangeFeedAnswers::checked).sum();
    }

    /** DuckLake's insertions and deletions of a range as one raw feed: {@code insert} and {@code delete} rows. */
    private static List<List<String>> rawChanges(List<List<String>> insertions, List<List<String>> deletions)
    {
        List<List<String>> rows = new ArrayList<>(insertions.size() + deletions.size());
        for (List<String> row : insertions) {
            rows.add(withChangeType(row, "insert"));
        }
        for (List<String> row : deletions) {
            rows.add(withChangeType(row, "delete"));
        }
        return rows;
    }

    /** A row of {@code snapshot_id, rowid, columns...} with {@code change_type} after its row id. */
    private static List<String> withChangeType(List<String> row, String changeType)
    {
        List<String> tagged = new ArrayList<>(row.size() + 1);
        tagged.addAll(row.subList(0, 2));
        tagged.add(CanonicalText.of(changeType));
        tagged.addAll(row.subList(2, row.size()));
        return tagged;
    }

    /** DuckLake's {@code table_insertions} and {@code table_deletions} of the range, as {@code insert} and {@code delete} rows. */
    private List<List<String>> duckLakeRawChanges(LakeTable table, List<LakeColumn> columns, long start, long end)
            throws Exception
    {
        String select = String.join(", ", columns.stream().map(LakeColumn::sqlName).toList());
        String arguments = "('lake', '" + table.schema() + "', '" + table.name() + "', " + start + ", " + end + ")";
        return duckDbRows("SELECT snapshot_id, rowid, 'insert', " + select + " FROM ducklake_table_insertions" + arguments
                + " UNION ALL SELECT snapshot_id, rowid, 'delete', " + select + " FROM ducklake_table_deletions" + arguments);
    }

    private List<List<String>> duckLakeChanges(LakeTable table, List<LakeColumn> columns, long start, long end)
            throws Exception
    {
        return duckDbRows("SELECT " + DUCKLAKE_COLUMNS + ", " + String.join(", ", columns.stream().map(LakeColumn::sqlName).toList())
                + " FROM ducklake_table_changes('lake', '" + table.schema() + "', '" + table.name() + "', " + start + ", " + end + ")");
    }

    private List<List<String>> duckDbRows(String sql)
            throws Exception
    {
        List<List<String>> rows = new ArrayList<>();
        try (Statement statement = oracle.connection().createStatement(); ResultSet result = statement.executeQuery(sql)) {
            int width = result.getMetaData().getColumnCount();
            while (result.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= width; i++) {
                    row.add(CanonicalText.of(plain(result.getObject(i))));
                }
                rows.add(row);
            }
        }
        return rows;
    }

    private static Object plain(Object value)
            throws Exception
    {
        return switch (value) {
            case null -> null;
            case Timestamp timestamp -> timestamp.toLocalDateTime();
            case Blob blob -> blob.getBytes(1, (int) blob.length());
            case Array array -> {
                List<Object> elements = new ArrayList<>();
                for (Object element : (Object[]) array.getArray()) {
                    elements.add(plain(element));
                }
                yield elements;
            }
            case DuckDBStruct struct -> {
                Map<String, Object> fields = new LinkedHashMap<>();
                for (Map.Entry<String, Object> field : struct.getMap().entrySet()) {
                    fields.put(field.getKey(), plain(field.getValue()));
                }
                yield new CanonicalText.Struct(fields);
            }
            case Map<?, ?> map -> {
                Map<Object, Object> entries = new LinkedHashMap<>();
                for (Map.Entry<?, ?> entry : map.entrySet()) {
                    entries.put(plain(entry.getKey()), plain(entry.getValue()));
                }
                yield entries;
            }
            case String text when text.isEmpty() -> text;
            default -> value;
        };
    }
}
