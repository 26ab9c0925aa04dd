package io.moraine.trino;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.error.MoraineException;
import io.moraine.core.scan.TaskStream;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.ConnectorSplitSource;
import io.trino.spi.connector.DynamicFilterSnapshot;
import io.trino.spi.predicate.TupleDomain;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * Hands out a scan's splits in batches as the core plans its tasks. The scan is planned on the first batch, with the
 * dynamic filter as it stands then (Trino waits up to the requested timeout before asking); each batch is planned on
 * the planning executor, so a table with many files starts running before its last file is planned.
 */
final class MoraineSplitSource
        implements ConnectorSplitSource
{
    /** A scan being planned: the task stream and the catalog view it reads, closed together. */
    record PlannedScan(CatalogSnapshot snapshot, TaskStream tasks)
            implements AutoCloseable
    {
        @Override
        public void close()
        {
            try (snapshot) {
                tasks.close();
            }
        }
    }

    private final Function<TupleDomain<MoraineColumnHandle>, PlannedScan> planner;
    private final long maxSplitSize;
    private final long dynamicFilterWaitMillis;
    private final Executor executor;
    private PlannedScan scan;
    private boolean finished;
    private boolean closed;

    /**
     * @param planner plans the scan for a predicate on top of the table handle's own
     * @param dynamicFilterWaitMillis how long Trino may wait for dynamic filters before the first batch (0 when the scan has none)
     */
    MoraineSplitSource(Function<TupleDomain<MoraineColumnHandle>, PlannedScan> planner, long maxSplitSize, long dynamicFilterWaitMillis, Executor executor)
    {
        this.planner = planner;
        this.maxSplitSize = maxSplitSize;
        this.dynamicFilterWaitMillis = dynamicFilterWaitMillis;
        this.executor = executor;
    }

    @Override
    public long getRequestedDynamicFilterWaitTimeoutMillis()
    {
        return dynamicFilterWaitMillis;
    }

    @Override
    public CompletableFuture<List<ConnectorSplit>> getNextBatch(int maxSize, DynamicFilterSnapshot dynamicFilter)
    {
        TupleDomain<MoraineColumnHandle> predicate = dynamicFilter.currentPredicate().transformKeys(MoraineColumnHandle.class::cast);
        // Completed with the planning failure itself (supplyAsync would wrap it), so Trino reports moraine's error.
        CompletableFuture<List<ConnectorSplit>> batch = new CompletableFuture<>();
        executor.execute(() -> {
            try {
                batch.complete(nextBatch(maxSize, predicate));
            }
            catch (Throwable failure) {
                batch.completeExceptionally(failure);
            }
        });
        return batch;
    }

    private synchronized List<ConnectorSplit> nextBatch(int maxSize, TupleDomain<MoraineColumnHandle> dynamicFilter)
    {
        if (closed || finished) {
            return List.of();
        }
        try {
            if (scan == null) {
                scan = planner.apply(dynamicFilter);
            }
            List<ConnectorSplit> batch = new ArrayList<>(Math.min(maxSize, 1024));
            while (batch.size() < maxSize && scan.tasks().hasNext()) {
                batch.add(MoraineSplit.of(scan.tasks().next(), maxSplitSize));
            }
            if (!scan.tasks().hasNext()) {
                finish();
            }
            return batch;
        }
        catch (MoraineException e) {
            finish();
            throw MoraineErrorCode.toTrino(e);
        }
        catch (RuntimeException e) {
            finish();
            throw e;
        }
    }

    private void finish()
    {
        finished = true;
        if (scan != null) {
            scan.close();
        }
    }

    @Override
    public synchronized boolean isFinished()
    {
        return finished;
    }

    @Override
    public synchronized void close()
    {
        closed = true;
        if (!finished) {
            finish();
        }
    }
}
