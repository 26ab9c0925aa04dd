package io.moraine.trino;

import io.moraine.core.inline.read.InlinedRowsPiece;
import io.moraine.testing.DuckLakeHistory;
import io.moraine.testing.DuckLakeOracle;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.trino.spi.connector.Connector;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.ConnectorSplitSource;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.Constraint;
import io.trino.spi.connector.DynamicFilterSnapshot;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.transaction.IsolationLevel;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.QueryRunner;
import io.trino.testing.TestingConnectorContext;
import io.trino.testing.TestingConnectorSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A table's inlined rows are read on the coordinator and shipped in bounded splits (here at most 100 rows and 4 kB
 * each, so that a few thousand rows take dozens of splits): every table at every snapshot equals DuckDB's answer, with
 * hidden columns and pushed-down struct fields, each split source batch holds at most one piece, and no page source
 * reads the store.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestMoraineInlinedSplits
{
    private static final int MAX_ROWS = 100;
    private static final int MAX_BYTES = 4096;
    private static final Map<String, String> BOUNDS = Map.of(
            "moraine.inlined-split-max-rows", String.valueOf(MAX_ROWS),
            "moraine.inlined-split-max-size", MAX_BYTES + "B");

    private Path directory;
    private DuckLakeOracle oracle;
    private QueryRunner trino;

    @BeforeAll
    void setUp()
            throws Exception
    {
        directory = Files.createTempDirectory("moraine-trino-inlined-splits");
        oracle = DuckLakeOracle.create(directory.resolve("lake"), DuckLakeOracle.CatalogDatabase.DUCKDB);
        oracle.execute("CALL lake.set_option('data_inlining_row_limit', 1000)");
        oracle.execute("CREATE TABLE lake.main.narrow (id BIGINT, name VARCHAR, s STRUCT(a INTEGER, b VARCHAR))");
        for (int insert = 0; insert < 12; insert++) {
            oracle.execute("INSERT INTO lake.main.narrow SELECT i, 'n' || i, {'a': i, 'b': 'b' || i} FROM range(" + insert * 150 + ", " + (insert + 1) * 150 + ") r(i)");
        }
        // Rows inlined under a second and third schema version name the column and the field differently.
        oracle.execute("ALTER TABLE lake.main.narrow RENAME COLUMN name TO label");
        oracle.execute("ALTER TABLE lake.main.narrow RENAME COLUMN s.b TO c");
        oracle.execute("INSERT INTO lake.main.narrow SELECT i, 'l' || i, {'a': -i, 'c': NULL} FROM range(5000, 5600) r(i)");
        oracle.execute("DELETE FROM lake.main.narrow WHERE id % 13 = 0");
        oracle.execute("UPDATE lake.main.narrow SET label = 'updated' WHERE id % 17 = 1");
        oracle.execute("ALTER TABLE lake.main.narrow ADD COLUMN extra DOUBLE DEFAULT 2.5");
        oracle.execute("INSERT INTO lake.main.narrow SELECT i, 'x' || i, {'a': i, 'c': 'c'}, i / 4 FROM range(6000, 6400) r(i)");
        // A Parquet file beside the inlined rows.
        oracle.execute("CALL lake.set_option('data_inlining_row_limit', 0)");
        oracle.execute("INSERT INTO lake.main.narrow SELECT i, 'p' || i, {'a': i, 'c': 'p'}, 0.5 FROM range(100000, 103000) r(i)");
        oracle.execute("CALL lake.set_option('data_inlining_row_limit', 1000)");
        // Wide rows: the byte bound cuts these pieces before the row bound.
        oracle.execute("CREATE TABLE lake.main.wide (id INTEGER, payload VARCHAR)");
        for (int insert = 0; insert < 4; insert++) {
            oracle.execute("INSERT INTO lake.main.wide SELECT i, repeat(chr(CAST(97 + i % 26 AS INTEGER)), 300) || i FROM range(" + insert * 80 + ", " + (insert + 1) * 80 + ") r(i)");
        }
        trino = MoraineQueryRunner.create(oracle, directory, io.moraine.core.store.StoreUri.parse(directory.resolve("store").toString()), Optional.empty(),
                BOUNDS, "main", 1);
    }

    @AfterAll
    void tearDown()
            throws Exception
    {
        MoraineQueryRunner.close(trino, oracle);
    }

    @Test
    void everyTableAtEverySnapshotEqualsDuckLakes()
            throws Exception
    {
        DuckLakeComparison comparison = new DuckLakeComparison(DuckLakeHistory.of(oracle, directory.resolve("history-copy.ducklake")), trino);
        assertThat(comparison.everyTableAtEverySnapshot())
                .isEqualTo(comparison.history().tableSnapshotPairs())
                .isGreaterThanOrEqualTo(20);
        for (String table : List.of("narrow", "wide")) {
            assertThat(trino.execute("SELECT count(*) FROM " + table).getOnlyValue())
                    .isEqualTo(Long.parseLong(oracle.query("SELECT count(*) FROM lake.main." + table).getFirst().getFirst()));
        }
    }

    @Test
    void hiddenColumnsAndStructFieldsEqualDuckLakes()
            throws Exception
    {
        List<List<String>> expected = new ArrayList<>();
        for (List<String> row : oracle.query("SELECT rowid, snapshot_id, filename, file_row_number, id, s.a, s.c, extra FROM lake.main.narrow")) {
            List<String> copy = new ArrayList<>(row);
            if (copy.get(2).startsWith("ducklake_inlined_data_")) {
                copy.set(2, null);
                copy.set(3, null);
            }
            expected.add(copy);
        }
        List<List<String>> actual = rows("SELECT \"$row_id\", \"$snapshot_id\", \"$path\", \"$file_row_number\", id, s.a, s.c, extra FROM narrow");
        assertThat(sorted(actual)).isEqualTo(sorted(expected));
        assertThat(actual.stream().filter(row -> row.get(2) == null).count()).isGreaterThan(2000);
        // a field alone, and a struct with a field of it
        assertThat(sorted(rows("SELECT s.c, id FROM narrow WHERE id < 6000"))).isEqualTo(sorted(oracle.query("SELECT s.c, id FROM lake.main.narrow WHERE id < 6000")));
        assertThat(rows("SELECT s, s.a FROM narrow")).hasSize(expected.size());
    }

    @Test
    void inlinedRowsComeInBoundedSplitsOnePerBatch()
            throws Exception
    {
        long narrowInlined = Long.parseLong(oracle.query("SELECT count(*) FROM lake.main.narrow WHERE NOT filename LIKE '%.parquet'").getFirst().getFirst());
        long wideInlined = Long.parseLong(oracle.query("SELECT count(*) FROM lake.main.wide").getFirst().getFirst());
        assertThat(narrowInlined).isGreaterThan(20L * MAX_ROWS);

        Connector connector = new MoraineConnectorFactory().create("lake", withStore(BOUNDS), new TestingConnectorContext());
        try {
            Splits narrow = splits(connector, "narrow", 5);
            assertThat(narrow.inlinedRows()).isEqualTo(narrowInlined);
            assertThat(narrow.files()).isEqualTo(1);
            // The data file's split comes in the first batch, beside the first piece: it does not wait for the last.
            assertThat(narrow.fileBatch()).isZero();
            assertThat(narrow.pieces()).hasSizeGreaterThanOrEqualTo((int) (narrowInlined / MAX_ROWS));
            Splits wide = splits(connector, "wide", 1000);
            assertThat(wide.inlinedRows()).isEqualTo(wideInlined);
            // 320 rows of over 300 bytes each, at most 4 kB a piece
            assertThat(wide.pieces()).hasSizeGreaterThanOrEqualTo((int) (wideInlined * 300 / MAX_BYTES));
            for (InlinedRowsPiece piece : concat(narrow.pieces(), wide.pieces())) {
                assertThat(piece.rows()).isBetween(1L, (long) MAX_ROWS);
                assertThat(piece.arrowStream().length).isLessThanOrEqualTo(MAX_BYTES);
            }
        }
        finally {
            connector.shutdown();
        }
        // Trino runs one split per piece.
        DistributedQueryRunner runner = (DistributedQueryRunner) trino;
        var queryId = runner.executeWithPlan(runner.getDefaultSession(), "SELECT * FROM wide").queryId();
        long drivers = runner.getCoordinator().getQueryManager().getFullQueryInfo(queryId).getStages().orElseThrow().getStages().stream()
                .filter(stage -> stage.plan() != null && !stage.plan().getPartitionedSources().isEmpty())
                .mapToLong(stage -> stage.stageStats().getTotalDrivers())
                .sum();
        assertThat(drivers).isGreaterThanOrEqualTo(wideInlined * 300 / MAX_BYTES);
    }

    @Test
    void pageSourcesReadNoStore()
    {
        // As TestMoraineFileOperations tells them: a read made while a split runs has a split span among its ancestors.
        DistributedQueryRunner runner = (DistributedQueryRunner) trino;
        for (String sql : List.of("SELECT * FROM narrow", "SELECT \"$row_id\", s.a FROM narrow", "SELECT count(*) FROM wide")) {
            runner.executeWithPlan(runner.getDefaultSession(), sql);
            List<SpanData> spans = runner.getSpans();
            Map<String, SpanData> byId = new HashMap<>();
            spans.forEach(span -> byId.put(span.getSpanId(), span));
            assertThat(spans.stream().filter(span -> span.getName().startsWith("MoraineStore.") && runsInSplit(span, byId)).map(SpanData::getName).toList())
                    .as(sql).isEmpty();
            assertThat(spans.stream().filter(span -> span.getName().startsWith("MoraineStore.")).count()).as(sql).isPositive();
        }
    }

    private static boolean runsInSplit(SpanData span, Map<String, SpanData> byId)
    {
        for (SpanData parent = byId.get(span.getParentSpanId()); parent != null; parent = byId.get(parent.getParentSpanId())) {
            if (Set.of("split", "split (leaf)", "process").contains(parent.getName())) {
                return true;
            }
        }
        return false;
    }

    /** The pieces of the inlined rows in the order they came, how many data-file splits, and the batch the first came in. */
    private record Splits(List<InlinedRowsPiece> pieces, long files, int fileBatch)
    {
        long inlinedRows()
        {
            return pieces.stream().mapToLong(InlinedRowsPiece::rows).sum();
        }
    }

    private static Splits splits(Connector connector, String table, int batchSize)
            throws Exception
    {
        ConnectorSession session = TestingConnectorSession.builder().setPropertyMetadata(connector.getSessionProperties()).build();
        ConnectorTransactionHandle transaction = connector.beginTransaction(IsolationLevel.READ_COMMITTED, true, true);
        ConnectorTableHandle handle = connector.getMetadata(session, transaction).getTableHandle(session, new SchemaTableName("main", table), Optional.empty(), Optional.empty());
        List<InlinedRowsPiece> pieces = new ArrayList<>();
        long files = 0;
        int fileBatch = -1;
        try (ConnectorSplitSource source = connector.getSplitManager().getSplits(transaction, session, handle, Set.of(), Constraint.alwaysTrue())) {
            for (int batch = 0; !source.isFinished(); batch++) {
                List<ConnectorSplit> splits = source.getNextBatch(batchSize, DynamicFilterSnapshot.EMPTY).get();
                assertThat(splits).hasSizeLessThanOrEqualTo(batchSize);
                assertThat(splits.stream().filter(MoraineInlinedRowsSplit.class::isInstance).count()).as("pieces in batch %s", batch).isLessThanOrEqualTo(1);
                for (ConnectorSplit split : splits) {
                    if (split instanceof MoraineInlinedRowsSplit inlined) {
                        pieces.add(new InlinedRowsPiece(inlined.piece(), inlined.getRowCount()));
                    }
                    else {
                        files++;
                        fileBatch = fileBatch < 0 ? batch : fileBatch;
                    }
                }
            }
        }
        return new Splits(pieces, files, fileBatch);
    }

    private Map<String, String> withStore(Map<String, String> properties)
    {
        Map<String, String> all = new HashMap<>(properties);
        all.put("moraine.store-uri", directory.resolve("store").toString());
        return all;
    }

    private List<List<String>> rows(String sql)
    {
        return trino.execute(sql).getMaterializedRows().stream()
                .map(row -> row.getFields().stream().map(value -> value == null ? null : String.valueOf(value)).toList())
                .toList();
    }

    private static List<List<String>> sorted(List<List<String>> rows)
    {
        List<List<String>> sorted = new ArrayList<>(rows);
        sorted.sort(Comparator.comparing(Object::toString));
        return sorted;
    }

    private static <T> List<T> concat(List<T> first, List<T> second)
    {
        List<T> all = new ArrayList<>(first);
        all.addAll(second);
        return all;
    }
}
