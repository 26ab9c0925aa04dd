package io.moraine.spark;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.store.StoreFacts;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreUri;
import io.moraine.core.io.LocalFileSystem;
import io.moraine.importer.CatalogImporter;
import io.moraine.importer.DuckLakeSource;
import io.moraine.sidecars.rowsum.PublishOutcomes;
import io.moraine.sidecars.rowsum.RowSummaryMetrics;
import io.moraine.sidecars.rowsum.RowSummaryPublisher;
import io.moraine.testing.CanonicalRowsAssert;
import io.moraine.testing.DuckDbCanonicalRows;
import io.moraine.testing.DuckLakeHistory;
import io.moraine.testing.DuckLakeOracle;
import io.moraine.testing.LakeColumn;
import io.moraine.testing.DuckLakeRowIds;
import io.moraine.testing.LakeTable;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code _row_id} lookups through Spark on the oracle workload's lake (flush, update rewrites, merge and rewrite
 * compactions) with {@code .rowsum} sidecars published: a point query and an {@code IN} query open exactly the data
 * files that physically hold the ids — which DuckDB works out here by reading each file's
 * {@code _ducklake_internal_row_id} column itself, or its {@code row_id_start} and record count — counted by the
 * scan's "data files opened" metric (one per data-file reader that ran) and named by the scan's input partitions; and
 * every 7th row id of every table at the newest snapshot reads the rows DuckDB's {@code rowid} lookup reads, all columns.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestMoraineSparkRowSummaryLookups
{
    private DuckLakeOracle oracle;
    private SparkSession spark;
    private DuckLakeHistory history;
    private PublishOutcomes published;
    private long newest;

    @BeforeAll
    void setUp()
            throws Exception
    {
        Path directory = Files.createTempDirectory("moraine-spark-rowsum");
        oracle = DuckLakeOracle.create(directory.resolve("lake"), DuckLakeOracle.CatalogDatabase.DUCKDB);
        oracle.runWorkload();
        StoreUri uri = StoreUri.parse(directory.resolve("store").toString());
        CatalogImporter.importCatalog(DuckLakeSource.parse(oracle.catalogCopy(directory.resolve("catalog-copy.ducklake"))), uri, Optional.empty(),
                CatalogImporter.Progress.SILENT);
        history = DuckLakeHistory.of(oracle, directory.resolve("history-copy.ducklake"));
        newest = history.survivingSnapshots().getLast();
        try (MoraineCatalog catalog = MoraineCatalog.open(uri, OpenMode.READ_ONLY);
                CatalogSnapshot snapshot = catalog.latest()) {
            published = new RowSummaryPublisher(LocalFileSystem.INSTANCE, RowSummaryPublisher.Options.defaults(), RowSummaryPublisher.Progress.SILENT)
                    .publishAll(snapshot, snapshot.facts().get(StoreFacts.DATA_PATH));
        }
        spark = SparkSessions.start(uri.toString(), Map.of());
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
    void rowIdPointAndInQueriesOpenOnlyTheFilesHoldingTheIds()
            throws Exception
    {
        assertThat(published.published()).isPositive();
        assertThat(published.failed()).isZero();
        RowSummaryMetrics.Snapshot before = RowSummaries.metrics().snapshot();
        long points = 0;
        long embeddedPoints = 0;
        long inQueries = 0;
        long opened = 0;
        for (LakeTable table : history.tablesAt(newest)) {
            Map<String, long[]> holders = DuckLakeRowIds.physicalRowIds(oracle, table);
            Set<String> embedded = new HashSet<>();
            for (String path : holders.keySet()) {
                if (DuckLakeRowIds.embedsRowIds(oracle, path)) {
                    embedded.add(DuckLakeRowIds.fileName(path));
                }
            }
            List<Long> ids = DuckLakeRowIds.rowIds(oracle, table);
            List<Long> asked = new ArrayList<>();
            for (int i = 0; i < ids.size(); i += Math.max(1, ids.size() / 12)) {
                long id = ids.get(i);
                asked.add(id);
                Set<String> expected = holding(holders, List.of(id));
                assertThat(expected).as("DuckDB places row id %s of %s in a file", id, table).isNotEmpty();
                opened += assertOpens("SELECT * FROM " + sqlName(table) + " WHERE _row_id = " + id, expected);
                points++;
                if (expected.stream().anyMatch(embedded::contains)) {
                    embeddedPoints++;
                }
            }
            opened += assertOpens("SELECT * FROM " + sqlName(table) + " WHERE _row_id IN (" + asked.stream().map(String::valueOf).collect(Collectors.joining(", ")) + ")",
                    holding(holders, asked));
            inQueries++;
        }
        RowSummaryMetrics.Snapshot after = RowSummaries.metrics().snapshot();
        System.out.printf("_row_id queries: %d points (%d on files that embed row ids), %d IN lists, %d data files opened; sidecar hits %d, misses %d, rejected %d; %s%n",
                points, embeddedPoints, inQueries, opened, after.hits() - before.hits(), after.misses() - before.misses(), after.rejected() - before.rejected(), published);
        assertThat(points).isGreaterThanOrEqualTo(20);
        // the files whose ids only a summary can tell (flush, rewrite and merge outputs) are among them, and their sidecars were read
        assertThat(embeddedPoints).isPositive();
        assertThat(after.hits()).isGreaterThan(before.hits());
        assertThat(after.rejected()).isEqualTo(before.rejected());
        assertThat(inQueries).isEqualTo(history.tablesAt(newest).size());
    }

    @Test
    void everySeventhRowIdReadsWhatDuckDbsRowidLookupReads()
            throws Exception
    {
        long compared = 0;
        long rows = 0;
        for (LakeTable table : history.tablesAt(newest)) {
            List<LakeColumn> columns = Stream.concat(Stream.of(new LakeColumn("rowid", "BIGINT")), history.columnsAt(table, newest).stream()).toList();
            List<String> duckdbExpressions = Stream.concat(Stream.of("rowid"),
                    columns.stream().skip(1).map(column -> DuckDbCanonicalRows.expression(table, column))).toList();
            String select = "SELECT _row_id, " + columns.stream().skip(1).map(SparkDuckLakeComparison::quoted).collect(Collectors.joining(", ")) + " FROM " + sqlName(table);
            List<Long> ids = DuckLakeRowIds.rowIds(oracle, table);
            List<Long> every7th = new ArrayList<>();
            for (int i = 0; i < ids.size(); i += 7) {
                every7th.add(ids.get(i));
            }
            for (int from = 0; from < every7th.size(); from += 100) {
                List<Long> batch = every7th.subList(from, Math.min(every7th.size(), from + 100));
                String list = batch.stream().map(String::valueOf).collect(Collectors.joining(", "));
                List<List<String>> expected = DuckDbCanonicalRows.readExpressions(oracle, table, newest, duckdbExpressions, "rowid IN (" + list + ")");
                List<List<String>> actual = SparkCanonicalRows.of(spark.sql(select + " WHERE _row_id IN (" + list + ")").collectAsList(), columns);
                CanonicalRowsAssert.assertSameRows(table + " WHERE rowid IN (" + batch.size() + " ids from " + batch.getFirst() + ")", columns, expected, "Spark", actual);
                assertThat(actual).hasSize(batch.size());
                compared++;
                rows += actual.size();
            }
            // a point, a small range, and ids no file holds
            long middle = ids.get(ids.size() / 2);
            for (String where : List.of("= " + middle, "BETWEEN " + middle + " AND " + (middle + 20))) {
                CanonicalRowsAssert.assertSameRows(table + " rowid " + where, columns,
                        DuckDbCanonicalRows.readExpressions(oracle, table, newest, duckdbExpressions, "rowid " + where), "Spark",
                        SparkCanonicalRows.of(spark.sql(select + " WHERE _row_id " + where).collectAsList(), columns));
                compared++;
            }
            assertThat(spark.sql("SELECT count(*) FROM " + sqlName(table) + " WHERE _row_id IN (" + (ids.getLast() + 1000) + ", " + (ids.getLast() + 1001) + ")")
                    .first().getLong(0)).isZero();
        }
        System.out.printf("every 7th row id through Spark: %d comparisons, %d rows compared, all columns%n", compared, rows);
        // orders has ~4,300 rows and events ~1,100: several hundred ids each
        assertThat(rows).isGreaterThan(500);
        assertThat(compared).isGreaterThan(5);
    }

    /**
     * Runs {@code sql} and checks that its scan opened exactly {@code expected} (data-file names): the readers that ran
     * (the scan's metric) and the files they were given (its input partitions). Returns how many were opened.
     */
    private long assertOpens(String sql, Set<String> expected)
    {
        Dataset<Row> query = spark.sql(sql);
        query.collectAsList();
        List<BatchScanExec> scans = scala.jdk.javaapi.CollectionConverters.asJava(query.queryExecution().executedPlan().collectLeaves()).stream()
                .filter(BatchScanExec.class::isInstance)
                .map(BatchScanExec.class::cast)
                .toList();
        assertThat(scans).as("scans of %s", sql).hasSize(1);
        BatchScanExec scan = scans.getFirst();
        Set<String> partitions = scala.jdk.javaapi.CollectionConverters.asJava(scan.inputPartitions()).stream()
                .flatMap(partition -> partition instanceof DataFileGroupPartition group ? group.files().stream() : java.util.stream.Stream.of(partition))
                .filter(DataFilePartition.class::isInstance)
                .map(partition -> DuckLakeRowIds.fileName(((DataFilePartition) partition).path()))
                .collect(Collectors.toSet());
        long opened = scan.metrics().apply(DataFilesOpened.NAME).value();
        assertThat(partitions).as("data files planned for %s", sql).isEqualTo(expected);
        assertThat(opened).as("data files opened for %s", sql).isEqualTo(expected.size());
        return opened;
    }

    private static Set<String> holding(Map<String, long[]> holders, List<Long> ids)
    {
        Set<Long> wanted = Set.copyOf(ids);
        return holders.entrySet().stream()
                .filter(entry -> Arrays.stream(entry.getValue()).anyMatch(wanted::contains))
                .map(entry -> DuckLakeRowIds.fileName(entry.getKey()))
                .collect(Collectors.toSet());
    }

    private static String sqlName(LakeTable table)
    {
        return "lake." + SparkDuckLakeComparison.quoted(table.schema()) + "." + SparkDuckLakeComparison.quoted(table.name());
    }


}
