package io.moraine.trino;

import com.google.common.collect.HashMultiset;
import com.google.common.collect.ImmutableMultiset;
import com.google.common.collect.Multiset;
import io.moraine.core.store.StoreUri;
import io.moraine.testing.DuckLakeOracle;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.trino.Session;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.QueryRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Pins how many catalog-store reads and lake-file operations a query makes, in the manner of Trino's
 * TestIcebergFileOperations: store reads are traced by the connector ({@link TracingStoreReads}, by record kind), file
 * operations by Trino's file-system tracing (by operation and file kind). The table holds inlined rows, 12 data files
 * and one delete file; a change that adds reads per file or per split shows up here as a diff.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestMoraineFileOperations
{
    private static final int DATA_FILES = 12;
    private static final String CHANGES = "SELECT * FROM TABLE(lake.system.table_changes(schema_name => 'main', table_name => 't', start_snapshot => 0))";
    private static final String INSERTIONS = "SELECT * FROM TABLE(lake.system.table_insertions(schema_name => 'main', table_name => 't', start_snapshot => 0))";
    private static final String DELETIONS = "SELECT * FROM TABLE(lake.system.table_deletions(schema_name => 'main', table_name => 't', start_snapshot => 0))";

    private DuckLakeOracle oracle;
    private QueryRunner trino;

    @BeforeAll
    void setUp()
            throws Exception
    {
        Path directory = Files.createTempDirectory("moraine-trino-file-operations");
        oracle = DuckLakeOracle.create(directory.resolve("lake"), DuckLakeOracle.CatalogDatabase.DUCKDB);
        oracle.execute("CALL lake.set_option('data_inlining_row_limit', 0)");
        oracle.execute("CREATE TABLE lake.main.t (id BIGINT, part VARCHAR, v DOUBLE)");
        for (int file = 0; file < DATA_FILES; file++) {
            oracle.execute("INSERT INTO lake.main.t SELECT i, 'p" + file + "', i * 0.5 FROM range(" + file * 100 + ", " + (file + 1) * 100 + ") r(i)");
        }
        oracle.execute("DELETE FROM lake.main.t WHERE id % 100 = 7 AND id < 100");
        oracle.execute("CREATE TABLE lake.main.bucketed (id BIGINT, name VARCHAR, day DATE)");
        oracle.execute("ALTER TABLE lake.main.bucketed SET PARTITIONED BY (bucket(4, id), bucket(3, name))");
        oracle.execute("INSERT INTO lake.main.bucketed SELECT i, 'n' || (i % 7), DATE '2026-01-01' + CAST(i % 30 AS INTEGER) FROM range(0, 400) r(i)");
        oracle.execute("CALL lake.set_option('data_inlining_row_limit', 100)");
        oracle.execute("INSERT INTO lake.main.t VALUES (5000, 'inline', 1.0), (5001, 'inline', 2.0)");
        // Pinned counts are taken without the metadata cache, so they do not depend on which test ran first.
        StoreUri store = StoreUri.parse(directory.resolve("store").toString());
        trino = MoraineQueryRunner.create(oracle, directory, store, Optional.empty(), Map.of("moraine.metadata-cache.max-tables", "0"), "main", 0);
        trino.createCatalog("cached", "moraine", Map.of("moraine.store-uri", store.toString()));
        trino.createCatalog("small", "moraine", Map.of("moraine.store-uri", store.toString(), "moraine.inlined-split-max-size", "1kB"));
    }

    @AfterAll
    void tearDown()
            throws Exception
    {
        MoraineQueryRunner.close(trino, oracle);
    }

    @Test
    void countReadsEachFooterOnceAndTheCatalogOncePerKind()
    {
        String sql = "SELECT count(*) FROM t";
        assertThat(storeReads(sql)).isEqualTo(ImmutableMultiset.builder()
                // one of them the tiny-file threshold, read at planning, and one the head once the files are listed (no
                // flush of the inlined rows read meanwhile)
                .addCopies("MoraineStore.get system", 13)
                .addCopies("MoraineStore.get current/ducklake_snapshot", 8)
                .addCopies("MoraineStore.scan current/ducklake_schema", 3)
                .addCopies("MoraineStore.scan current/ducklake_table", 2)
                // with the metadata cache off, reading the inlined rows (on the coordinator, through the split source's
                // view) reads the columns once more (to find older schema versions' columns by id)
                .addCopies("MoraineStore.scan current/ducklake_column", 6)
                .add("MoraineStore.scan current/ducklake_inlined_data_tables")
                .add("MoraineStore.scan current/ducklake_data_file")
                .add("MoraineStore.scan current/ducklake_delete_file")
                // A read-only catalog follows the writer, so even the newest snapshot reads history as well.
                .add("MoraineStore.scan history/ducklake_schema")
                .addCopies("MoraineStore.scan history/ducklake_column", 6)
                .add("MoraineStore.scan history/ducklake_data_file")
                .add("MoraineStore.scan history/ducklake_delete_file")
                .add("MoraineStore.scan inline/file_delete")
                .add("MoraineStore.get inline/schema")
                .add("MoraineStore.scan inline/chunk_locator")
                .add("MoraineStore.scan inline/row_tombstone")
                // the table's tiny-file copies (none published here): its delete files' and its data files' ranges
                .addCopies("MoraineStore.scan tiny_files", 2)
                // Trino looks the name up as a view first (a moraine lake can hold Trino views): the views of the
                // query's snapshot, read once
                .add("MoraineStore.scan current/ducklake_view")
                .add("MoraineStore.scan history/ducklake_view")
                .build());
        // One open and one read per data file (small files are read whole; a large one's footer in one read sized by
        // footer_size); the delete file once.
        assertThat(fileOperations(sql)).isEqualTo(ImmutableMultiset.builder()
                .addCopies("InputFile.newInput data file", DATA_FILES)
                .addCopies("Input.readFully data file", DATA_FILES)
                .add("InputFile.newStream delete file")
                .build());
    }

    @Test
    void selectivePredicateOpensOnlyTheFileItsStatisticsAllow()
    {
        String sql = "SELECT sum(v) FROM t WHERE id = 250";
        assertThat(storeReads(sql)).isEqualTo(ImmutableMultiset.builder()
                .addCopies("MoraineStore.get system", 14)
                .addCopies("MoraineStore.get current/ducklake_snapshot", 9)
                .addCopies("MoraineStore.scan current/ducklake_schema", 3)
                .addCopies("MoraineStore.scan current/ducklake_table", 2)
                // with the metadata cache off, planning reads the columns once more for the filter's types (the split
                // source's read serves the inlined rows' columns too), and reading the inlined rows once more to find
                // older schema versions' columns by id
                .addCopies("MoraineStore.scan current/ducklake_column", 7)
                .add("MoraineStore.scan current/ducklake_file_column_stats")
                .add("MoraineStore.scan current/ducklake_inlined_data_tables")
                .add("MoraineStore.scan current/ducklake_data_file")
                .add("MoraineStore.scan current/ducklake_delete_file")
                .add("MoraineStore.scan history/ducklake_schema")
                .addCopies("MoraineStore.scan history/ducklake_column", 7)
                .add("MoraineStore.scan history/ducklake_data_file")
                .add("MoraineStore.scan history/ducklake_delete_file")
                .add("MoraineStore.scan inline/file_delete")
                .add("MoraineStore.get inline/schema")
                .add("MoraineStore.scan inline/chunk_locator")
                .add("MoraineStore.scan inline/row_tombstone")
                .add("MoraineStore.get inline/insert")
                .addCopies("MoraineStore.scan tiny_files", 2)
                // Trino looks the name up as a view first (a moraine lake can hold Trino views): the views of the
                // query's snapshot, read once
                .add("MoraineStore.scan current/ducklake_view")
                .add("MoraineStore.scan history/ducklake_view")
                .build());
        // A file under the reader's small-file threshold (3 MB) is read whole, in one request.
        assertThat(fileOperations(sql)).isEqualTo(ImmutableMultiset.builder()
                .add("InputFile.newInput data file")
                .add("Input.readFully data file")
                .build());
    }

    @Test
    void limitStopsPlanningFilesOnceEnoughRowsAreCertain()
    {
        // The first file has a deleted row, so its rows are not certain; the second file's 100 rows cover LIMIT 5:
        // the inlined-rows split and two file splits are all the leaf stage gets.
        assertThat(leafSplits("SELECT * FROM t LIMIT 5")).isEqualTo(3);
        assertThat(leafSplits("SELECT * FROM t LIMIT 100000")).isEqualTo(1 + DATA_FILES);
        assertThat(fileOperations("SELECT * FROM t LIMIT 5").count("InputFile.newInput data file")).isLessThanOrEqualTo(2);
        assertThat(trino.execute("SELECT count(*) FROM (SELECT * FROM t LIMIT 150)").getOnlyValue()).isEqualTo(150L);
    }

    @Test
    void bucketPartitionsOpenOnlyTheFilesOfTheConstantsBuckets()
            throws Exception
    {
        long files = Long.parseLong(oracle.query("SELECT count(*) FROM ducklake_list_files('lake', 'bucketed')").getFirst().getFirst());
        assertThat(files).isEqualTo(12); // 4 id buckets x 3 name buckets
        for (String where : List.of("id = 17", "id IN (1, 2, 3)", "name = 'n3'", "name IN ('n1', 'n5') AND id = 250", "id = 100000")) {
            String sql = "SELECT count(*), sum(id) FROM bucketed WHERE " + where;
            List<String> expected = oracle.query(sql.replace("FROM bucketed", "FROM lake.main.bucketed")).stream().map(row -> String.join("|", row)).toList();
            List<String> actual = trino.execute(sql).getMaterializedRows().stream()
                    .map(row -> row.getFields().stream().map(String::valueOf).collect(java.util.stream.Collectors.joining("|"))).toList();
            assertThat(actual).as(where).isEqualTo(expected);
        }
        assertThat(fileOperations("SELECT * FROM bucketed WHERE id = 17").count("InputFile.newInput data file")).isEqualTo(3);
        assertThat(fileOperations("SELECT * FROM bucketed WHERE name = 'n3' AND id = 17").count("InputFile.newInput data file")).isEqualTo(1);
    }

    @Test
    void rowIdPredicateOpensOnlyTheFilesHoldingThoseRowIds()
            throws Exception
    {
        // t's files were each written by an insert alone, so their rows are numbered from row_id_start: 100 per file.
        for (String where : List.of("= 250", "BETWEEN 150 AND 350", "IN (5, 1199)", "> 1199", "= 1201")) {
            List<String> expected = oracle.query("SELECT rowid, id FROM lake.main.t WHERE rowid " + where + " ORDER BY 1").stream().map(row -> String.join("|", row)).toList();
            List<String> actual = trino.execute("SELECT \"$row_id\", id FROM t WHERE \"$row_id\" " + where + " ORDER BY 1").getMaterializedRows().stream()
                    .map(row -> row.getField(0) + "|" + row.getField(1)).toList();
            assertThat(actual).as(where).isEqualTo(expected);
        }
        assertThat(fileOperations("SELECT * FROM t WHERE \"$row_id\" = 250")).isEqualTo(ImmutableMultiset.builder()
                .add("InputFile.newInput data file")
                .add("Input.readFully data file")
                .build());
        assertThat(fileOperations("SELECT * FROM t WHERE \"$row_id\" BETWEEN 150 AND 350").count("InputFile.newInput data file")).isEqualTo(3);
        // file 0 (with its delete file) and file 11
        assertThat(fileOperations("SELECT * FROM t WHERE \"$row_id\" IN (5, 1199)").count("InputFile.newInput data file")).isEqualTo(2);
        // the inlined rows' row ids: no file holds them
        assertThat(fileOperations("SELECT * FROM t WHERE \"$row_id\" = 1201")).isEmpty();
    }

    @Test
    void pathPredicateOpensOnlyThatFile()
    {
        String path = (String) trino.execute("SELECT path FROM \"t$files\" ORDER BY data_file_id OFFSET 5 LIMIT 1").getOnlyValue();
        String sql = "SELECT count(*), min(id) FROM t WHERE \"$path\" = '" + path + "'";
        assertThat(trino.execute(sql).getMaterializedRows().getFirst().getFields()).containsExactly(100L, 500L);
        assertThat(fileOperations(sql)).isEqualTo(ImmutableMultiset.builder()
                .add("InputFile.newInput data file")
                .add("Input.readFully data file")
                .build());
        // inlined rows have no path: a path predicate skips them without reading the catalog's inlined rows
        assertThat(storeReads(sql).count("MoraineStore.scan inline/chunk_locator")).isZero();
        assertThat(trino.execute("SELECT count(*) FROM t WHERE \"$path\" IS NULL").getOnlyValue()).isEqualTo(2L);
    }

    @Test
    void metadataTablesReadNoDataFile()
    {
        assertThat(fileOperations("SELECT * FROM \"t$files\"")).isEmpty();
        assertThat(fileOperations("SELECT * FROM \"t$snapshots\"")).isEmpty();
        assertThat(trino.execute("SELECT count(*) FROM \"t$files\"").getOnlyValue()).isEqualTo((long) DATA_FILES);
    }

    @Test
    void metadataTableRowsTravelInBoundedSplits()
    {
        // With a 1 kB bound, the rows of $files (read on the coordinator) come in several splits.
        String sql = "SELECT * FROM small.main.\"t$files\"";
        assertThat(leafSplits(sql)).isBetween(2L, (long) DATA_FILES);
        assertThat(trino.execute(sql).getMaterializedRows().stream().map(Object::toString).sorted().toList())
                .isEqualTo(trino.execute("SELECT * FROM \"t$files\"").getMaterializedRows().stream().map(Object::toString).sorted().toList());
        assertThat(leafSplits("SELECT * FROM \"t$files\"")).isEqualTo(1L);
    }

    @Test
    void metadataCacheServesARepeatedQuerysColumns()
    {
        String sql = "SELECT count(*) FROM cached.main.t FOR VERSION AS OF 5";
        assertThat(storeReads(sql).count("MoraineStore.scan current/ducklake_column")).isPositive();
        assertThat(storeReads(sql).count("MoraineStore.scan current/ducklake_column")).isZero();
    }

    @Test
    void dynamicFilterPrunesWholeFilesAtPlanning()
            throws Exception
    {
        // The build side yields ids {94, 304}: the dynamic filter on t.id leaves two of t's twelve files.
        String sql = "SELECT count(*), sum(t.v) FROM t JOIN bucketed b ON t.id = b.id WHERE b.name = 'n3' AND b.day = DATE '2026-01-05'";
        Session waiting = Session.builder(trino.getDefaultSession()).setCatalogSessionProperty("lake", "dynamic_filtering_wait_timeout", "60s").build();
        List<String> expected = oracle.query(sql.replace("FROM t JOIN bucketed", "FROM lake.main.t t JOIN lake.main.bucketed")).stream()
                .map(row -> String.join("|", row)).toList();
        assertThat(trino.execute(waiting, sql).getMaterializedRows().stream()
                .map(row -> row.getFields().stream().map(String::valueOf).collect(java.util.stream.Collectors.joining("|"))).toList())
                .isEqualTo(expected);
        DistributedQueryRunner runner = (DistributedQueryRunner) trino;
        runner.executeWithPlan(waiting, sql);
        long tFilesOpened = runner.getSpans().stream()
                .filter(span -> span.getName().equals("InputFile.newInput"))
                .map(span -> span.getAttributes().get(AttributeKey.stringKey("trino.file.location")))
                .filter(location -> location != null && location.contains("/main/t/"))
                .count();
        assertThat(tFilesOpened).isEqualTo(2);
    }

    @Test
    void planningReadsNoFile()
    {
        assertThat(fileOperations("EXPLAIN SELECT * FROM t")).isEmpty();
        // The plan's estimates read the data-file rows once (table statistics); splits are not planned.
        assertThat(storeReads("EXPLAIN SELECT * FROM t").count("MoraineStore.scan current/ducklake_data_file")).isEqualTo(1);
    }

    @Test
    void statisticsReadTheCatalogOncePerKindAndNoFile()
    {
        // One pass over the table's files joined with their column statistics, the delete files, the inlined deletes and
        // the inlined rows' locators; no data file is opened. Computed once per table handle and transaction.
        String sql = "SHOW STATS FOR t";
        assertThat(storeReads(sql)).isEqualTo(ImmutableMultiset.builder()
                .addCopies("MoraineStore.get system", 5)
                .addCopies("MoraineStore.get current/ducklake_snapshot", 5)
                .addCopies("MoraineStore.scan current/ducklake_schema", 2)
                .add("MoraineStore.scan current/ducklake_table")
                .addCopies("MoraineStore.scan current/ducklake_column", 3)
                .addCopies("MoraineStore.scan history/ducklake_column", 3)
                .add("MoraineStore.scan current/ducklake_data_file")
                .add("MoraineStore.scan history/ducklake_data_file")
                .add("MoraineStore.scan current/ducklake_file_column_stats")
                .add("MoraineStore.scan current/ducklake_delete_file")
                .add("MoraineStore.scan history/ducklake_delete_file")
                .add("MoraineStore.scan inline/file_delete")
                .add("MoraineStore.scan inline/chunk_locator")
                .add("MoraineStore.scan inline/row_tombstone")
                // Trino looks the name up as a view first (a moraine lake can hold Trino views): the views of the
                // query's snapshot, read once
                .add("MoraineStore.scan current/ducklake_view")
                .add("MoraineStore.scan history/ducklake_view")
                .build());
        assertThat(fileOperations(sql)).isEmpty();
    }

    @Test
    void timeTravelReadsHistoryOncePerKind()
    {
        Multiset<String> reads = storeReads("SELECT * FROM t FOR VERSION AS OF 3 WHERE id < 3");
        assertThat(reads.count("MoraineStore.scan history/ducklake_data_file")).isEqualTo(1);
        assertThat(reads.count("MoraineStore.scan history/ducklake_delete_file")).isEqualTo(1);
        assertThat(fileOperations("SELECT * FROM t FOR VERSION AS OF 3 WHERE id < 3")).isEqualTo(ImmutableMultiset.builder()
                .add("InputFile.newInput data file")
                .add("Input.readFully data file")
                .build());
    }

    @Test
    void pageSourcesReadNoStore()
    {
        // What runs on a worker runs inside Trino's split spans ("split", "split (leaf)", "process"); split planning runs on
        // the connector's planning threads, outside them. A store read is a span too, a child of the span current on its
        // thread, so a read made by a page source has a split span among its ancestors. The data files' opens, made by
        // the page sources, show that they do.
        for (String sql : List.of("SELECT * FROM t", "SELECT id, \"$row_id\", \"$snapshot_id\", \"$path\" FROM t WHERE part = 'inline'", "SELECT count(*) FROM t",
                CHANGES, INSERTIONS, DELETIONS, "SELECT * FROM \"t$files\"", "SELECT * FROM \"t$snapshots\"", "SELECT * FROM lake.ducklake.ducklake_snapshot")) {
            List<SpanData> spans = spansOf(sql);
            Map<String, SpanData> byId = new java.util.HashMap<>();
            spans.forEach(span -> byId.put(span.getSpanId(), span));
            List<String> workerReads = spans.stream()
                    .filter(span -> span.getName().startsWith("MoraineStore.") && runsInSplit(span, byId))
                    .map(span -> span.getName() + " " + span.getAttributes().get(AttributeKey.stringKey(TracingStoreReads.RECORD_KIND)))
                    .toList();
            assertThat(workerReads).as(sql).isEmpty();
            if (sql.startsWith("SELECT * FROM TABLE")) {
                // The change feed's page sources read the lake's files, and nothing of the store (the inlined rows
                // included: the coordinator read them into the splits).
                assertThat(spans.stream().filter(span -> span.getName().equals("InputFile.newInput") && runsInSplit(span, byId)).count()).as(sql)
                        .isPositive();
            }
            else if (!sql.contains("'inline'") && !sql.contains("$") && !sql.contains("ducklake")) {
                assertThat(spans.stream().filter(span -> span.getName().equals("InputFile.newInput") && runsInSplit(span, byId)).count()).as(sql)
                        .isEqualTo(DATA_FILES);
            }
        }
    }

    @Test
    void changeFeedsHoldTheInlinedRows()
    {
        // The inlined rows come back from the splits' pieces, a projection of them too.
        assertThat(trino.execute(CHANGES + " WHERE id >= 5000").getMaterializedRows().stream()
                .map(row -> row.getField(2) + " " + row.getField(3) + " " + row.getField(4) + " " + row.getField(5)).sorted().toList())
                .containsExactly("insert 5000 inline 1.0", "insert 5001 inline 2.0");
        assertThat(trino.execute(INSERTIONS.replace("SELECT *", "SELECT v") + " WHERE v > 0.9 AND part = 'inline'").getMaterializedRows().stream()
                .map(row -> row.getField(0)).sorted().toList())
                .containsExactly(1.0, 2.0);
    }

    private static boolean runsInSplit(SpanData span, Map<String, SpanData> byId)
    {
        for (SpanData parent = byId.get(span.getParentSpanId()); parent != null; parent = byId.get(parent.getParentSpanId())) {
            if (List.of("split", "split (leaf)", "process").contains(parent.getName())) {
                return true;
            }
        }
        return false;
    }

    /** Drivers of the stage that scans the table: one per split. */
    private long leafSplits(String sql)
    {
        DistributedQueryRunner runner = (DistributedQueryRunner) trino;
        var queryId = runner.executeWithPlan(runner.getDefaultSession(), sql).queryId();
        var info = runner.getCoordinator().getQueryManager().getFullQueryInfo(queryId);
        return info.getStages().orElseThrow().getStages().stream()
                .filter(stage -> stage.plan() != null && !stage.plan().getPartitionedSources().isEmpty())
                .mapToLong(stage -> stage.stageStats().getTotalDrivers())
                .sum();
    }

    private Multiset<String> storeReads(String sql)
    {
        Multiset<String> reads = HashMultiset.create();
        for (SpanData span : spansOf(sql)) {
            if (span.getName().startsWith("MoraineStore.")) {
                reads.add(span.getName() + " " + span.getAttributes().get(AttributeKey.stringKey(TracingStoreReads.RECORD_KIND)));
            }
        }
        return ImmutableMultiset.copyOf(reads);
    }

    private Multiset<String> fileOperations(String sql)
    {
        Multiset<String> operations = HashMultiset.create();
        for (SpanData span : spansOf(sql)) {
            String location = span.getAttributes().get(AttributeKey.stringKey("trino.file.location"));
            if (location != null && (span.getName().startsWith("Input") || span.getName().startsWith("InputFile"))) {
                operations.add(span.getName() + " " + (location.endsWith("-delete.parquet") ? "delete file" : "data file"));
            }
        }
        return ImmutableMultiset.copyOf(operations);
    }

    private java.util.List<SpanData> spansOf(String sql)
    {
        DistributedQueryRunner runner = (DistributedQueryRunner) trino;
        runner.executeWithPlan(runner.getDefaultSession(), sql);
        return runner.getSpans();
    }
}
