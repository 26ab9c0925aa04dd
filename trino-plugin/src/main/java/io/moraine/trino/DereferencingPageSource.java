package io.moraine.trino;

import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.block.RowBlock;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.SourcePage;
import io.trino.spi.metrics.Metrics;

import java.io.IOException;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;

/** The pages of a {@link NestedReadLayout}'s columns as the projected handles: nested fields taken out of their rows. */
final class DereferencingPageSource
        implements ConnectorPageSource
{
    private final ConnectorPageSource source;
    private final List<NestedReadLayout.Output> outputs;

    DereferencingPageSource(ConnectorPageSource source, List<NestedReadLayout.Output> outputs)
    {
        this.source = source;
        this.outputs = List.copyOf(outputs);
    }

    @Override
    public SourcePage getNextSourcePage()
    {
        SourcePage page = source.getNextSourcePage();
        if (page == null) {
            return null;
        }
        Block[] blocks = new Block[outputs.size()];
        for (int i = 0; i < outputs.size(); i++) {
            NestedReadLayout.Output output = outputs.get(i);
            Block block = page.getBlock(output.column());
            for (int position : output.fieldPositions()) {
                // Field blocks are as long as the row block, NULL where the row is NULL.
                block = RowBlock.getRowFieldsFromBlock(block).get(position);
            }
            blocks[i] = block;
        }
        return SourcePage.create(new Page(page.getPositionCount(), blocks));
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
