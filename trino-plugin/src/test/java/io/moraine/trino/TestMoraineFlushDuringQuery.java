package io.moraine.trino;

import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreUri;
import io.moraine.duckdb.CatalogImporter;
import io.moraine.duckdb.DuckLakeSource;
import io.moraine.inline.flush.InlineFlusher;
import io.moraine.testing.DuckLakeOracle;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.Connector;
import io.trino.spi.connector.ConnectorMetadata;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.ConnectorSplitSource;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.Constraint;
import io.trino.spi.connector.DynamicFilter;
import io.trino.spi.connector.DynamicFilterSnapshot;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.transaction.IsolationLevel;
import io.trino.testing.TestingConnectorContext;
import io.trino.testing.TestingConnectorSession;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A flush that commits between planning a scan and reading its inlined rows moves those rows into a backdated file
 * the plan does not have (reference §11 item 21). The inlined-rows split must refuse, not silently return fewer rows.
 */
class TestMoraineFlushDuringQuery
{
    @Test
    void inlinedSplitRefusesWhenTheTableWasFlushedAfterPlanning()
            throws Exception
    {
        Path directory = Files.createTempDirectory("moraine-trino-flush-race");
        StoreUri store = StoreUri.parse(directory.resolve("store").toString());
        try (DuckLakeOracle oracle = DuckLakeOracle.create(directory.resolve("lake"), DuckLakeOracle.CatalogDatabase.DUCKDB)) {
            oracle.execute("CREATE TABLE lake.main.t (id INTEGER)");
            oracle.execute("INSERT INTO lake.main.t VALUES (1), (2), (3)");
            CatalogImporter.importCatalog(DuckLakeSource.parse(oracle.catalogCopy(directory.resolve("copy.ducklake"))), store, Optional.empty(),
                    CatalogImporter.Progress.SILENT);
        }
        Connector connector = new MoraineConnectorFactory().create("lake", Map.of("moraine.store-uri", store.toString()), new TestingConnectorContext());
        try {
            ConnectorSession session = TestingConnectorSession.builder().setPropertyMetadata(connector.getSessionProperties()).build();
            ConnectorTransactionHandle transaction = connector.beginTransaction(IsolationLevel.READ_COMMITTED, true, true);
            ConnectorMetadata metadata = connector.getMetadata(session, transaction);
            ConnectorTableHandle table = metadata.getTableHandle(session, new SchemaTableName("main", "t"), Optional.empty(), Optional.empty());
            List<ColumnHandle> columns = List.copyOf(metadata.getColumnHandles(session, table).values());
            List<ConnectorSplit> splits = splits(connector.getSplitManager().getSplits(transaction, session, table, Set.copyOf(columns), Constraint.alwaysTrue()));
            assertThat(splits).hasSize(1); // only inlined rows so far

            long headBefore;
            try (MoraineCatalog writer = MoraineCatalog.open(store, OpenMode.READ_WRITE)) {
                headBefore = writer.headSnapshotId().orElseThrow();
                assertThat(InlineFlusher.flush(writer, Optional.empty(), io.moraine.core.io.LocalFileSystem.INSTANCE)).hasSize(1);
            }
            awaitHead(connector, session, headBefore + 1);

            assertThatThrownBy(() -> connector.getPageSourceProvider().createPageSource(transaction, session, splits.getFirst(), table, Optional.empty(), columns,
                    DynamicFilter.EMPTY))
                    .isInstanceOfSatisfying(TrinoException.class, e -> assertThat(e.getErrorCode()).isEqualTo(MoraineErrorCode.MORAINE_CONFLICT.toErrorCode()))
                    .hasMessageContaining("were flushed to data files while this query ran")
                    .hasMessageContaining("run the query again");

            // Planned afresh, the same scan reads the flushed file and no inlined rows.
            List<ConnectorSplit> replanned = splits(connector.getSplitManager().getSplits(transaction, session, table, Set.copyOf(columns), Constraint.alwaysTrue()));
            assertThat(replanned).hasSize(2);
        }
        finally {
            connector.shutdown();
        }
    }

    private static List<ConnectorSplit> splits(ConnectorSplitSource source)
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
