package io.moraine.trino;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.store.StoreFacts;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreUri;
import io.moraine.files.LakeFileSystems;
import io.moraine.sidecars.rowsum.PublishOutcomes;
import io.moraine.sidecars.rowsum.RowSummaryPublisher;
import io.moraine.testing.CanonicalRowsAssert;
import io.moraine.testing.DuckDbCanonicalRows;
import io.moraine.testing.DuckLakeHistory;
import io.moraine.testing.DuckLakeOracle;
import io.moraine.testing.LakeColumn;
import io.moraine.testing.DuckLakeRowIds;
import io.moraine.testing.LakeTable;
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
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code $row_id} lookups on the oracle workload's lake (flush, update rewrites, merge and rewrite compactions) with
 * {@code .rowsum} sidecars published: a point query opens exactly the data files that physically hold the id — which
 * DuckDB works out here by reading each file's {@code _ducklake_internal_row_id} column itself, or its
 * {@code row_id_start} and record count — and every 7th row id of every table at the newest snapshot reads the rows
 * DuckDB's {@code rowid} lookup reads, all columns.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestMoraineRowSummaryLookups
{
    private DuckLakeOracle oracle;
    private QueryRunner trino;
    private DuckLakeHistory history;
    private PublishOutcomes firstPass;
    private PublishOutcomes secondPass;
    private long newest;

    @BeforeAll
    void setUp()
            throws Exception
    {
        Path directory = Files.createTempDirectory("moraine-trino-rowsum");
        oracle = DuckLakeOracle.create(directory.resolve("lake"), DuckLakeOracle.CatalogDatabase.DUCKDB);
        oracle.runWorkload();
        trino = MoraineQueryRunner.create(oracle, directory, "main");
        history = DuckLakeHistory.of(oracle, directory.resolve("history-copy.ducklake"));
        newest = history.survivingSnapshots().getLast();
        try (MoraineCatalog catalog = MoraineCatalog.open(StoreUri.parse(directory.resolve("store").toString()), OpenMode.READ_ONLY);
                CatalogSnapshot snapshot = catalog.latest();
                LakeFileSystems files = LakeFileSystems.fromEnvironment(Map.of())) {
            String dataPath = snapshot.facts().get(StoreFacts.DATA_PATH);
            firstPass = new RowSummaryPublisher(files, RowSummaryPublisher.Options.defaults(), RowSummaryPublisher.Progress.SILENT).publishAll(snapshot, dataPath);
            secondPass = new RowSummaryPublisher(files, RowSummaryPublisher.Options.defaults(), RowSummaryPublisher.Progress.SILENT).publishAll(snapshot, dataPath);
        }
    }

    @AfterAll
    void tearDown()
            throws Exception
    {
        MoraineQueryRunner.close(trino, oracle);
    }

    @Test
    void aBackfillPublishesOnceAndThenReadsOnlyHeaders()
    {
        assertThat(firstPass.published()).isPositive();
        assertThat(firstPass.failed()).isZero();
        assertThat(firstPass.cancelled()).isFalse();
        assertThat(secondPass.published()).isZero();
        assertThat(secondPass.alreadyPublished()).isEqualTo(firstPass.published());
        assertThat(secondPass.dense()).isEqualTo(firstPass.dense());
    }

    @Test
    void aRowIdPointQueryOpensOnlyTheFilesHoldingTheId()
            throws Exception
    {
        long checked = 0;
        long embeddedChecked = 0;
        for (LakeTable table : history.tablesAt(newest)) {
            Map<String, long[]> holders = DuckLakeRowIds.physicalRowIds(oracle, table);
            Set<String> embedded = embeddingFiles(holders.keySet());
            List<Long> ids = DuckLakeRowIds.rowIds(oracle, table);
            for (int i = 0; i < ids.size(); i += Math.max(1, ids.size() / 12)) {
                long id = ids.get(i);
                Set<String> expected = holders.entrySet().stream()
                        .filter(entry -> java.util.Arrays.stream(entry.getValue()).anyMatch(held -> held == id))
                        .map(entry -> DuckLakeRowIds.fileName(entry.getKey()))
                        .collect(Collectors.toSet());
                assertThat(expected).as("DuckDB places row id %s of %s in a file", id, table).isNotEmpty();
                Set<String> opened = openedDataFiles("SELECT * FROM " + table.sqlName("lake") + " WHERE \"$row_id\" = " + id);
                assertThat(opened).as("data files opened for row id %s of %s", id, table).isEqualTo(expected);
                checked++;
                if (expected.stream().anyMatch(name -> embedded.stream().anyMatch(path -> path.endsWith(name)))) {
                    embeddedChecked++;
                }
            }
        }
        System.out.printf("row-id point queries: %d checked, %d of them on files that embed row ids; backfill %s%n", checked, embeddedChecked, firstPass);
        assertThat(checked).isGreaterThanOrEqualTo(20);
        // the files whose ids only a summary can tell (flush, rewrite and merge outputs) are among them
        assertThat(embeddedChecked).isPositive();
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
            List<Long> ids = DuckLakeRowIds.rowIds(oracle, table);
            List<Long> every7th = new ArrayList<>();
            for (int i = 0; i < ids.size(); i += 7) {
                every7th.add(ids.get(i));
            }
            for (int from = 0; from < every7th.size(); from += 100) {
                List<Long> batch = every7th.subList(from, Math.min(every7th.size(), from + 100));
                String list = batch.stream().map(String::valueOf).collect(Collectors.joining(", "));
                List<List<String>> expected = DuckDbCanonicalRows.readExpressions(oracle, table, newest, duckdbExpressions, "rowid IN (" + list + ")");
                String sql = "SELECT \"$row_id\", " + columns.stream().skip(1).map(LakeColumn::sqlName).collect(Collectors.joining(", "))
                        + " FROM " + table.sqlName("lake") + " WHERE \"$row_id\" IN (" + list + ")";
                List<List<String>> actual = TrinoCanonicalRows.of(trino.execute(sql));
                CanonicalRowsAssert.assertSameRows(table + " WHERE rowid IN (" + batch.size() + " ids from " + batch.getFirst() + ")", columns, expected, "Trino", actual);
                assertThat(actual).hasSize(batch.size());
                compared++;
                rows += actual.size();
            }
            // a small range, and ids no file holds
            long low = ids.get(ids.size() / 2);
            String range = "BETWEEN " + low + " AND " + (low + 20);
            CanonicalRowsAssert.assertSameRows(table + " " + range, columns,
                    DuckDbCanonicalRows.readExpressions(oracle, table, newest, duckdbExpressions, "rowid " + range), "Trino",
                    TrinoCanonicalRows.of(trino.execute("SELECT \"$row_id\", " + columns.stream().skip(1).map(LakeColumn::sqlName).collect(Collectors.joining(", "))
                            + " FROM " + table.sqlName("lake") + " WHERE \"$row_id\" " + range)));
            compared++;
            assertThat(trino.execute("SELECT count(*) FROM " + table.sqlName("lake") + " WHERE \"$row_id\" IN (" + (ids.getLast() + 1000) + ", " + (ids.getLast() + 1001) + ")")
                    .getOnlyValue()).isEqualTo(0L);
        }
        System.out.printf("every 7th row id: %d comparisons, %d rows compared, all columns%n", compared, rows);
        // orders has ~4,300 rows and events ~1,100: several hundred ids each
        assertThat(rows).isGreaterThan(500);
        assertThat(compared).isGreaterThan(5);
    }

    private Set<String> embeddingFiles(Set<String> paths)
            throws Exception
    {
        Set<String> embedding = new HashSet<>();
        for (String path : paths) {
            if (DuckLakeRowIds.embedsRowIds(oracle, path)) {
                embedding.add(path);
            }
        }
        return embedding;
    }


    /** The names of the data files (not delete files, not sidecars) {@code sql} opened. */
    private Set<String> openedDataFiles(String sql)
    {
        DistributedQueryRunner runner = (DistributedQueryRunner) trino;
        runner.executeWithPlan(runner.getDefaultSession(), sql);
        Set<String> opened = new HashSet<>();
        for (SpanData span : runner.getSpans()) {
            String location = span.getAttributes().get(AttributeKey.stringKey("trino.file.location"));
            if (location != null && span.getName().equals("InputFile.newInput") && location.endsWith(".parquet") && !location.endsWith("-delete.parquet")) {
                opened.add(DuckLakeRowIds.fileName(location));
            }
        }
        return opened;
    }

}
