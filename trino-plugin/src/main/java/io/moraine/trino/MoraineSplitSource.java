package io.moraine.trino;

import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.ConnectorSplitSource;
import io.trino.spi.connector.DynamicFilterSnapshot;
import io.trino.spi.predicate.TupleDomain;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import static java.util.concurrent.CompletableFuture.completedFuture;

/**
 * Plans a scan's splits on the first batch, once Trino has waited (up to the requested timeout) for the query's dynamic
 * filters: files the dynamic filter rules out by their statistics or bucket are never scheduled. Then serves the
 * planned splits in batches.
 */
final class MoraineSplitSource
        implements ConnectorSplitSource
{
    private final Function<TupleDomain<MoraineColumnHandle>, List<MoraineSplit>> planner;
    private final long dynamicFilterWaitMillis;
    private List<MoraineSplit> remaining;
    private int next;

    /**
     * @param planner plans the splits for a predicate on top of the table handle's own
     * @param dynamicFilterWaitMillis how long Trino may wait for dynamic filters before the first batch (0 when the scan has none)
     */
    MoraineSplitSource(Function<TupleDomain<MoraineColumnHandle>, List<MoraineSplit>> planner, long dynamicFilterWaitMillis)
    {
        this.planner = planner;
        this.dynamicFilterWaitMillis = dynamicFilterWaitMillis;
    }

    @Override
    public long getRequestedDynamicFilterWaitTimeoutMillis()
    {
        return dynamicFilterWaitMillis;
    }

    @Override
    public synchronized CompletableFuture<List<ConnectorSplit>> getNextBatch(int maxSize, DynamicFilterSnapshot dynamicFilter)
    {
        if (remaining == null) {
            remaining = planner.apply(dynamicFilter.currentPredicate().transformKeys(MoraineColumnHandle.class::cast));
        }
        List<ConnectorSplit> batch = new ArrayList<>(remaining.subList(next, Math.min(remaining.size(), next + maxSize)));
        next += batch.size();
        return completedFuture(batch);
    }

    @Override
    public synchronized boolean isFinished()
    {
        return remaining != null && next >= remaining.size();
    }

    @Override
    public void close() {}
}
