package io.moraine.trino;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.types.TableColumn;
import io.moraine.inline.InlinedRowsReader;
import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.SourcePage;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

import java.util.List;

/**
 * Streams a table's live inlined rows one window at a time as the inline reader decodes them: only the current
 * window's chunk bodies are held. Columns are found by column id (a column a schema version lacks reads as its default).
 */
final class InlinedRowsPageSource
        implements ConnectorPageSource
{
    private final BufferAllocator allocator;
    private final CatalogSnapshot snapshot;
    private final InlinedRowsReader scan;
    private final List<MoraineColumnHandle> columns;
    private final List<TableColumn> readColumns;
    private long readTimeNanos;
    private long completedPositions;
    private boolean finished;

    /** @param readColumns the core's columns of {@code columns}, in the same order */
    InlinedRowsPageSource(BufferAllocator allocator, CatalogSnapshot snapshot, InlinedRowsReader scan, List<MoraineColumnHandle> columns,
            List<TableColumn> readColumns)
    {
        this.allocator = allocator;
        this.snapshot = snapshot;
        this.scan = scan;
        this.columns = List.copyOf(columns);
        this.readColumns = List.copyOf(readColumns);
    }

    @Override
    public SourcePage getNextSourcePage()
    {
        if (finished || !scan.hasNext()) {
            finished = true;
            return null;
        }
        long start = System.nanoTime();
        InlinedRowsReader.Batch batch = scan.next();
        int rows = batch.rows();
        Block[] blocks = new Block[columns.size()];
        for (int i = 0; i < columns.size(); i++) {
            MoraineColumnHandle column = columns.get(i);
            FieldVector vector = batch.vector(i);
            blocks[i] = vector == null ? ArrowToTrino.missing(column, rows) : ArrowToTrino.block(column.type(), readColumns.get(i), batch.writtenAs(i), vector, rows);
        }
        readTimeNanos += System.nanoTime() - start;
        completedPositions += rows;
        return SourcePage.create(new Page(rows, blocks));
    }

    @Override
    public long getCompletedBytes()
    {
        return scan.bodiesRead();
    }

    @Override
    public java.util.OptionalLong getCompletedPositions()
    {
        return java.util.OptionalLong.of(completedPositions);
    }

    @Override
    public long getReadTimeNanos()
    {
        return readTimeNanos;
    }

    @Override
    public boolean isFinished()
    {
        return finished;
    }

    @Override
    public long getMemoryUsage()
    {
        return scan.residentBytes();
    }

    @Override
    public void close()
    {
        finished = true;
        try (allocator; snapshot; scan) {
            // closed in reverse order: the scan's vectors, the store snapshot, then the allocator
        }
    }
}
