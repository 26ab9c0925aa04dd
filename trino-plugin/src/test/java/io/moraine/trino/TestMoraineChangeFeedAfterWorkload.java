package io.moraine.trino;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreUri;
import io.moraine.testing.DuckLakeOracle;
import io.trino.spi.connector.Connector;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.ConnectorSplitSource;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.DynamicFilterSnapshot;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.transaction.IsolationLevel;
import io.trino.testing.TestingConnectorContext;
import io.trino.testing.TestingConnectorSession;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The change-feed functions on the whole oracle workload: flushed and merged files filtered per row, rewritten files
 * (update pairs in DuckLake), an expired snapshot and a dropped table.
 */
class TestMoraineChangeFeedAfterWorkload
        extends ChangeFeedFunctionsMatchDuckLake
{
    @Override
    List<String> steps()
    {
        return DuckLakeOracle.WORKLOAD;
    }

    @Test
    void anExpiredBoundIsRefused()
    {
        // The workload expires snapshot 3.
        assertFails("SELECT * FROM TABLE(lake.system.table_changes(schema_name => 'sales', table_name => 'orders', start_snapshot => 3))",
                MoraineErrorCode.MORAINE_SNAPSHOT_EXPIRED, "snapshot 3 was expired, so a change feed cannot start there");
        assertFails("SELECT * FROM TABLE(lake.system.table_insertions(schema_name => 'sales', table_name => 'orders', start_snapshot => 1, end_snapshot => 3))",
                MoraineErrorCode.MORAINE_SNAPSHOT_EXPIRED, "3");
    }

    @Test
    void aLargeRangeIsReadByManySplits()
            throws Exception
    {
        StoreUri store = StoreUri.parse(directory.resolve("store").toString());
        long tableId;
        long newest;
        try (MoraineCatalog catalog = MoraineCatalog.open(store, OpenMode.READ_ONLY); CatalogSnapshot latest = catalog.latest()) {
            tableId = latest.table("sales", "orders").orElseThrow().getLong("table_id");
            newest = latest.id();
        }
        Connector connector = new MoraineConnectorFactory().create("lake", Map.of("moraine.store-uri", store.toString()), new TestingConnectorContext());
        try {
            ConnectorSession session = TestingConnectorSession.builder().setPropertyMetadata(connector.getSessionProperties()).build();
            ConnectorTransactionHandle transaction = connector.beginTransaction(IsolationLevel.READ_COMMITTED, true, true);
            for (ChangeFeedOutput output : ChangeFeedOutput.values()) {
                ChangeFeedTableHandle handle = ChangeFeedTableHandle.of(output, true, new SchemaTableName("sales", "orders"), tableId, 0, newest, List.of());
                List<ConnectorSplit> splits = new ArrayList<>();
                try (ConnectorSplitSource source = connector.getSplitManager().getSplits(transaction, session, handle, java.util.Set.of(),
                        io.trino.spi.connector.Constraint.alwaysTrue())) {
                    while (!source.isFinished()) {
                        splits.addAll(source.getNextBatch(100, DynamicFilterSnapshot.EMPTY).get());
                    }
                }
                assertThat(splits).as("splits of %s over every snapshot", output).hasSizeGreaterThan(2);
                System.out.println("%s of sales.orders [0, %d]: %d splits".formatted(output.functionName(), newest, splits.size()));
            }
        }
        finally {
            connector.shutdown();
        }
    }
}
