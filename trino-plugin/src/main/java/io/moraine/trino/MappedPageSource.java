package io.moraine.trino;

import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.SourcePage;
import io.trino.spi.metrics.Metrics;

import java.io.IOException;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;

/** A page source that hands on another's pages, each turned into the page its columns should be; all else is the source's. */
abstract class MappedPageSource
        implements ConnectorPageSource
{
    private final ConnectorPageSource source;

    MappedPageSource(ConnectorPageSource source)
    {
        this.source = source;
    }

    /** The page to hand on for the source's {@code page}. */
    abstract SourcePage map(SourcePage page);

    @Override
    public final SourcePage getNextSourcePage()
    {
        SourcePage page = source.getNextSourcePage();
        return page == null ? null : map(page);
    }

    @Override
    public long getCompletedBytes()
    {
        return source.getCompletedBytes();
    }

    @Override
    public OptionalLong getCompletedPositions()
    {
        return source.getCompletedPositions();
    }

    @Override
    public long getReadTimeNanos()
    {
        return source.getReadTimeNanos();
    }

    @Override
    public boolean isFinished()
    {
        return source.isFinished();
    }

    @Override
    public CompletableFuture<?> isBlocked()
    {
        return source.isBlocked();
    }

    @Override
    public long getMemoryUsage()
    {
        return source.getMemoryUsage();
    }

    @Override
    public Metrics getMetrics()
    {
        return source.getMetrics();
    }

    @Override
    public void close()
            throws IOException
    {
        source.close();
    }
}
