package io.moraine.trino;

import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.catalog.NewCatalog;
import io.moraine.core.store.StoreUri;
import io.moraine.testing.SyntheticCatalog;
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
import io.trino.testing.TestingConnectorContext;
import io.trino.testing.TestingConnectorSession;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The split source streams the core's planning: a table of 10,000 files yields its first batch while most are unplanned. */
class TestMoraineSplitSource
{
    private static final int FILES = 10_000;

    @Test
    void splitsOfATableWithManyFilesComeInBatchesAsTheyArePlanned()
            throws Exception
    {
        StoreUri store = StoreUri.parse(Files.createTempDirectory("moraine-split-source").resolve("store").toString());
        try (MoraineCatalog catalog = MoraineCatalog.create(store, new NewCatalog("/lake/data/", false, false, NewCatalog.CREATED_BY))) {
            new SyntheticCatalog(101, FILES / 100, 1).load(catalog);
        }
        Connector connector = new MoraineConnectorFactory().create("lake", Map.of("moraine.store-uri", store.toString()), new TestingConnectorContext());
        try {
            ConnectorSession session = TestingConnectorSession.builder().setPropertyMetadata(connector.getSessionProperties()).build();
            ConnectorTransactionHandle transaction = connector.beginTransaction(IsolationLevel.READ_COMMITTED, true, true);
            ConnectorTableHandle table = connector.getMetadata(session, transaction)
                    .getTableHandle(session, new SchemaTableName("main", "t1"), Optional.empty(), Optional.empty());
            Set<String> paths = new HashSet<>();
            try (ConnectorSplitSource source = connector.getSplitManager().getSplits(transaction, session, table, Set.of(), Constraint.alwaysTrue())) {
                List<ConnectorSplit> first = source.getNextBatch(100, DynamicFilterSnapshot.EMPTY).get();
                assertThat(first).hasSize(100);
                assertThat(source.isFinished()).isFalse();
                first.forEach(split -> paths.add(path(split)));
                int batches = 1;
                while (!source.isFinished()) {
                    source.getNextBatch(1000, DynamicFilterSnapshot.EMPTY).get().forEach(split -> paths.add(path(split)));
                    batches++;
                }
                assertThat(batches).isGreaterThanOrEqualTo(1 + (FILES - 100) / 1000);
            }
            assertThat(paths).hasSize(FILES);
        }
        finally {
            connector.shutdown();
        }
    }

    private static String path(ConnectorSplit split)
    {
        return ((io.moraine.core.scan.DataFileTask) ((MoraineSplit) split).task()).path();
    }
}
