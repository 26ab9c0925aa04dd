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
    // Touched by one planning batch at a time (Trino asks for the next batch once the last one completed).
    private PlannedScan scan;
    private volatile boolean finished;
    private volatile boolean closed;
    private boolean planning;

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

    private List<ConnectorSplit> nextBatch(int maxSize, TupleDomain<MoraineColumnHandle> dynamicFilter)
    {
        if (!startPlanning()) {
            return List.of();
        }
        try {
            if (scan == null) {
                scan = planner.apply(dynamicFilter);
            }
            List<ConnectorSplit> batch = new ArrayList<>(Math.min(maxSize, 1024));
            // A closed source (a finished LIMIT, a cancelled query) stops planning at the next task.
            while (batch.size() < maxSize && !closed && scan.tasks().hasNext()) {
                batch.add(MoraineSplit.of(scan.tasks().next(), maxSplitSize));
            }
            if (closed || !scan.tasks().hasNext()) {
                finished = true;
            }
            return batch;
        }
        catch (MoraineException e) {
            finished = true;
            throw MoraineErrorCode.toTrino(e);
        }
        catch (RuntimeException e) {
            finished = true;
            throw e;
        }
        finally {
            stopPlanning();
        }
    }

    private synchronized boolean startPlanning()
    {
        if (closed || finished) {
            return false;
        }
        planning = true;
        return true;
    }

    /** The catalog view is released by whoever is last: the planning batch when it ends finished or closed, else close(). */
    private synchronized void stopPlanning()
    {
        planning = false;
        if ((finished || closed) && scan != null) {
            scan.close();
            scan = null;
        }
    }

    @Override
    public boolean isFinished()
    {
        return finished;
    }

    @Override
    public void close()
    {
        closed = true;
        synchronized (this) {
            if (!planning && scan != null) {
                scan.close();
                scan = null;
            }
        }
    }
}
