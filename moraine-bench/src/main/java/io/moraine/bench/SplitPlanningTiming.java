package io.moraine.bench;

import io.moraine.core.store.StoreUri;
import io.moraine.trino.MoraineConnectorFactory;
import io.trino.spi.connector.Connector;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplitSource;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.Constraint;
import io.trino.spi.connector.DynamicFilterSnapshot;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.transaction.IsolationLevel;
import io.trino.testing.TestingConnectorContext;
import io.trino.testing.TestingConnectorSession;

import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * How soon the connector's split source hands out its first batch of a table with many files, against how long
 * planning all of them takes: the split source streams the core's task planning, so the first batch must not wait for
 * the last file.
 */
final class SplitPlanningTiming
{
    private static final int BATCH = 1000;

    private SplitPlanningTiming() {}

    static void print(StoreUri store, String table, int expectedFiles, int runs)
            throws Exception
    {
        Connector connector = new MoraineConnectorFactory().create("lake", Map.of("moraine.store-uri", store.toString()), new TestingConnectorContext());
        try {
            ConnectorSession session = TestingConnectorSession.builder().setPropertyMetadata(connector.getSessionProperties()).build();
            double[] first = new double[runs];
            double[] all = new double[runs];
            for (int run = -1; run < runs; run++) {
                ConnectorTransactionHandle transaction = connector.beginTransaction(IsolationLevel.READ_COMMITTED, true, true);
                ConnectorTableHandle handle = connector.getMetadata(session, transaction)
                        .getTableHandle(session, new SchemaTableName("main", table), Optional.empty(), Optional.empty());
                long start = System.nanoTime();
                long firstBatchNanos = 0;
                long splits = 0;
                try (ConnectorSplitSource source = connector.getSplitManager().getSplits(transaction, session, handle, Set.of(), Constraint.alwaysTrue())) {
                    while (!source.isFinished()) {
                        splits += source.getNextBatch(BATCH, DynamicFilterSnapshot.EMPTY).get().size();
                        if (firstBatchNanos == 0) {
                            firstBatchNanos = System.nanoTime() - start;
                        }
                    }
                }
                if (splits != expectedFiles) {
                    throw new IllegalStateException("planned " + splits + " splits of main." + table + ", expected " + expectedFiles);
                }
                if (run >= 0) {
                    first[run] = firstBatchNanos / 1e6;
                    all[run] = (System.nanoTime() - start) / 1e6;
                }
            }
            Arrays.sort(first);
            Arrays.sort(all);
            System.out.printf("split source, %,d files: first batch of %,d splits after %.1f ms, all splits after %.1f ms (median of %d runs)%n",
                    expectedFiles, BATCH, first[runs / 2], all[runs / 2], runs);
        }
        finally {
            connector.shutdown();
        }
    }
}
