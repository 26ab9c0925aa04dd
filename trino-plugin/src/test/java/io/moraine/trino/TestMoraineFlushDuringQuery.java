package io.moraine.trino;

import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreUri;
import io.moraine.importer.CatalogImporter;
import io.moraine.importer.DuckLakeSource;
import io.moraine.inline.flush.InlineFlusher;
import io.moraine.testing.DuckLakeOracle;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.Connector;
import io.trino.spi.connector.ConnectorMetadata;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.ConnectorSplitSource;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.Constraint;
import io.trino.spi.connector.DynamicFilter;
import io.trino.spi.connector.DynamicFilterSnapshot;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.SourcePage;
import io.trino.spi.transaction.IsolationLevel;
import io.trino.testing.TestingConnectorContext;
import io.trino.testing.TestingConnectorSession;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A flush that commits while a scan is being split moves the table's inlined rows into a backdated file. The
 * coordinator reads the inlined rows while it lists the data files. With on-demand freshness (the default) a query's
 * reads stay on the store state it began with, so the scan returns exactly its snapshot's rows. A polling reader follows
 * the writer while the scan runs, so such a flush could put the same rows in the listing and in the inlined splits, or
 * take the chunks of pieces not read yet: there the scan must fail as a conflict, not silently return more or fewer
 * rows. A flush after the scan was split changes nothing it returns.
 */
class TestMoraineFlushDuringQuery
{
    /** Two files of 100 rows, then 3 inlined rows. */
    private static final List<String> FILES_THEN_INLINED = List.of(
            "CREATE TABLE lake.main.t (id INTEGER)",
            "CALL lake.set_option('data_inlining_row_limit', 0)",
            "INSERT INTO lake.main.t SELECT i FROM range(100, 200) r(i)",
            "INSERT INTO lake.main.t SELECT i FROM range(200, 300) r(i)",
            "CALL lake.set_option('data_inlining_row_limit', 10)",
            "INSERT INTO lake.main.t VALUES (1), (2), (3)");
    private static final Map<String, String> POLLING = Map.of("moraine.reader-freshness", "poll");

    @Test
    void onDemandAFlushWhileTheScanIsSplitLeavesItsSnapshotsRows()
            throws Exception
    {
        StoreUri store = lake(Files.createTempDirectory("moraine-trino-flush-on-demand"), FILES_THEN_INLINED);
        Connector connector = connector(store, Map.of());
        try (Scan scan = new Scan(connector)) {
            List<ConnectorSplit> splits = new ArrayList<>(scan.source.getNextBatch(1, DynamicFilterSnapshot.EMPTY).get());
            assertThat(splits).singleElement().isInstanceOf(MoraineInlinedRowsSplit.class);

            flush(connector, scan.session, store);

            splits.addAll(drain(scan.source));
            long rows = 0;
            for (ConnectorSplit split : splits) {
                rows += rows(connector, scan, split);
            }
            assertThat(rows).as("the snapshot's rows, none twice or missing").isEqualTo(203);
        }
        finally {
            connector.shutdown();
        }
    }

    @Test
    void pollingAFlushWhileTheDataFilesAreListedFailsTheScan()
            throws Exception
    {
        Path directory = Files.createTempDirectory("moraine-trino-flush-race");
        StoreUri store = lake(directory, FILES_THEN_INLINED);
        Connector connector = connector(store, POLLING);
        try (Scan scan = new Scan(connector)) {
            // The first batch: the inlined rows' piece alone; the data files are not all listed yet.
            List<ConnectorSplit> first = scan.source.getNextBatch(1, DynamicFilterSnapshot.EMPTY).get();
            assertThat(first).singleElement().isInstanceOf(MoraineInlinedRowsSplit.class);
            assertThat(scan.source.isFinished()).isFalse();

            flush(connector, scan.session, store);

            assertThatThrownBy(() -> drain(scan.source))
                    .cause()
                    .isInstanceOfSatisfying(TrinoException.class, e -> assertThat(e.getErrorCode()).isEqualTo(MoraineErrorCode.MORAINE_CONFLICT.toErrorCode()))
                    .hasMessageContaining("were flushed to data files while this query ran")
                    .hasMessageContaining("run the query again");

            // The piece read before the flush still decodes on a worker: no catalog is opened there.
            assertThat(rows(connector, scan, first.getFirst())).isEqualTo(3);
        }
        finally {
            connector.shutdown();
        }
    }

    @Test
    void pollingAFlushWhileInlinedPiecesAreReadFailsTheScan()
            throws Exception
    {
        Path directory = Files.createTempDirectory("moraine-trino-flush-race-pieces");
        // Four chunks of one row, shipped one row a split: the third piece's chunk is read after the flush drained it.
        StoreUri store = lake(directory, List.of(
                "CREATE TABLE lake.main.t (id INTEGER)",
                "INSERT INTO lake.main.t VALUES (1)",
                "INSERT INTO lake.main.t VALUES (2)",
                "INSERT INTO lake.main.t VALUES (3)",
                "INSERT INTO lake.main.t VALUES (4)"));
        Map<String, String> properties = new HashMap<>(POLLING);
        properties.put("moraine.inlined-split-max-rows", "1");
        Connector connector = connector(store, properties);
        try (Scan scan = new Scan(connector)) {
            List<ConnectorSplit> first = scan.source.getNextBatch(100, DynamicFilterSnapshot.EMPTY).get();
            assertThat(first).singleElement().isInstanceOf(MoraineInlinedRowsSplit.class);

            flush(connector, scan.session, store);

            assertThatThrownBy(() -> drain(scan.source))
                    .cause()
                    .isInstanceOfSatisfying(TrinoException.class, e -> assertThat(e.getErrorCode()).isEqualTo(MoraineErrorCode.MORAINE_CONFLICT.toErrorCode()))
                    .hasMessageContaining("were flushed to data files while this query ran");
        }
        finally {
            connector.shutdown();
        }
    }

    @Test
    void aFlushAfterTheScanWasSplitChangesNothing()
            throws Exception
    {
        Path directory = Files.createTempDirectory("moraine-trino-flush-after");
        StoreUri store = lake(directory, List.of(
                "CREATE TABLE lake.main.t (id INTEGER)",
                "INSERT INTO lake.main.t VALUES (1), (2), (3)"));
        Connector connector = connector(store, Map.of());
        try (Scan scan = new Scan(connector)) {
            List<ConnectorSplit> splits = drain(scan.source);
            assertThat(splits).singleElement().isInstanceOf(MoraineInlinedRowsSplit.class);

            flush(connector, scan.session, store);

            // The split holds the rows: it reads them though the catalog no longer does.
            assertThat(rows(connector, scan, splits.getFirst())).isEqualTo(3);
            // Planned afresh, the same scan reads the flushed file and no inlined rows.
            try (Scan again = new Scan(connector)) {
                assertThat(drain(again.source)).singleElement().isInstanceOf(MoraineSplit.class);
            }
        }
        finally {
            connector.shutdown();
        }
    }

    /** A scan of {@code main.t}: its handle at the newest snapshot, every column, and its split source. */
    private static final class Scan
            implements AutoCloseable
    {
        final ConnectorSession session;
        final ConnectorTransactionHandle transaction;
        final ConnectorTableHandle table;
        final List<ColumnHandle> columns;
        final ConnectorSplitSource source;

        Scan(Connector connector)
        {
            session = TestingConnectorSession.builder().setPropertyMetadata(connector.getSessionProperties()).build();
            transaction = connector.beginTransaction(IsolationLevel.READ_COMMITTED, true, true);
            ConnectorMetadata metadata = connector.getMetadata(session, transaction);
            table = metadata.getTableHandle(session, new SchemaTableName("main", "t"), Optional.empty(), Optional.empty());
            columns = List.copyOf(metadata.getColumnHandles(session, table).values());
            source = connector.getSplitManager().getSplits(transaction, session, table, Set.copyOf(columns), Constraint.alwaysTrue());
        }

        @Override
        public void close()
        {
            source.close();
        }
    }

    private static StoreUri lake(Path directory, List<String> statements)
            throws Exception
    {
        StoreUri store = StoreUri.parse(directory.resolve("store").toString());
        try (DuckLakeOracle oracle = DuckLakeOracle.create(directory.resolve("lake"), DuckLakeOracle.CatalogDatabase.DUCKDB)) {
            for (String statement : statements) {
                oracle.execute(statement);
            }
            CatalogImporter.importCatalog(DuckLakeSource.parse(oracle.catalogCopy(directory.resolve("copy.ducklake"))), store, Optional.empty(),
                    CatalogImporter.Progress.SILENT);
        }
        return store;
    }

    private static Connector connector(StoreUri store, Map<String, String> properties)
    {
        Map<String, String> all = new HashMap<>(properties);
        all.put("moraine.store-uri", store.toString());
        return new MoraineConnectorFactory().create("lake", all, new TestingConnectorContext());
    }

    /** Flushes the table's inlined rows with a writer, and waits until the connector's reader sees the flush. */
    private static void flush(Connector connector, ConnectorSession session, StoreUri store)
            throws InterruptedException
    {
        long headBefore;
        try (MoraineCatalog writer = MoraineCatalog.open(store, OpenMode.READ_WRITE)) {
            headBefore = writer.headSnapshotId().orElseThrow();
            assertThat(InlineFlusher.flush(writer, Optional.empty(), io.moraine.core.io.LocalFileSystem.INSTANCE)).hasSize(1);
        }
        awaitHead(connector, session, headBefore + 1);
    }

    private static long rows(Connector connector, Scan scan, ConnectorSplit split)
            throws Exception
    {
        long rows = 0;
        try (ConnectorPageSource pages = connector.getPageSourceProvider().createPageSource(scan.transaction, scan.session, split, scan.table, Optional.empty(),
                scan.columns, DynamicFilter.EMPTY)) {
            for (SourcePage page = pages.getNextSourcePage(); page != null || !pages.isFinished(); page = pages.getNextSourcePage()) {
                rows += page == null ? 0 : page.getPositionCount();
            }
        }
        return rows;
    }

    private static List<ConnectorSplit> drain(ConnectorSplitSource source)
            throws Exception
    {
        List<ConnectorSplit> splits = new ArrayList<>();
        while (!source.isFinished()) {
            splits.addAll(source.getNextBatch(100, DynamicFilterSnapshot.EMPTY).get());
        }
        return splits;
    }

    /** The connector's reader follows the writer's manifest; wait until it sees the flush. */
    private static void awaitHead(Connector connector, ConnectorSession session, long head)
            throws InterruptedException
    {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < deadline) {
            ConnectorMetadata metadata = connector.getMetadata(session, connector.beginTransaction(IsolationLevel.READ_COMMITTED, true, true));
            MoraineTableHandle handle = (MoraineTableHandle) metadata.getTableHandle(session, new SchemaTableName("main", "t"), Optional.empty(), Optional.empty());
            if (handle.snapshotId() >= head) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the connector never saw snapshot " + head);
    }
}
