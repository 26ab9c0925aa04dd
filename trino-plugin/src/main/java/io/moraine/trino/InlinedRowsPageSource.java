package io.moraine.trino;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.changes.ChangeKind;
import io.moraine.core.scan.HiddenColumn;
import io.moraine.core.types.TableColumn;
import io.moraine.inline.InlinedRowsReader;
import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.block.RunLengthEncodedBlock;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.SourcePage;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;

import java.util.List;
import java.util.Optional;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.VarcharType.VARCHAR;

/**
 * Streams a table's live inlined rows one window at a time as the inline reader decodes them: only the current
 * window's chunk bodies are held. Columns are found by column id (a column a schema version lacks reads as its default).
 * A change feed's side of the inlined rows ({@link #changes}) has each row's {@code snapshot_id} and {@code rowid} first.
 */
final class InlinedRowsPageSource
        implements ConnectorPageSource
{
    private final BufferAllocator allocator;
    private final CatalogSnapshot snapshot;
    private final InlinedRowsReader scan;
    private final List<MoraineColumnHandle> columns;
    private final List<TableColumn> readColumns;
    private final Optional<ChangeKind> changeKind;
    private long readTimeNanos;
    private long completedPositions;
    private boolean finished;

    /** @param readColumns the core's columns of the table columns among {@code columns} (all but the hidden ones), in the same order */
    InlinedRowsPageSource(BufferAllocator allocator, CatalogSnapshot snapshot, InlinedRowsReader scan, List<MoraineColumnHandle> columns,
            List<TableColumn> readColumns)
    {
        this(allocator, snapshot, scan, columns, readColumns, Optional.empty());
    }

    /** The rows of a change feed's {@code kind} side ({@code InlinedRowsReader.openChanges}), snapshot and row id first. */
    static InlinedRowsPageSource changes(BufferAllocator allocator, CatalogSnapshot snapshot, InlinedRowsReader scan, ChangeKind kind,
            List<MoraineColumnHandle> columns, List<TableColumn> readColumns)
    {
        return new InlinedRowsPageSource(allocator, snapshot, scan, columns, readColumns, Optional.of(kind));
    }

    private InlinedRowsPageSource(BufferAllocator allocator, CatalogSnapshot snapshot, InlinedRowsReader scan, List<MoraineColumnHandle> columns,
            List<TableColumn> readColumns, Optional<ChangeKind> changeKind)
    {
        this.changeKind = changeKind;
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
        int first = changeKind.isPresent() ? 2 : 0;
        Block[] blocks = new Block[first + columns.size()];
        changeKind.ifPresent(kind -> {
            blocks[0] = longs(kind == ChangeKind.INSERTION ? batch.beginSnapshots() : batch.endSnapshots(), rows);
            blocks[1] = longs(batch.rowIds(), rows);
        });
        int read = 0;
        for (int i = 0; i < columns.size(); i++) {
            MoraineColumnHandle column = columns.get(i);
            if (column.hiddenColumn().isPresent()) {
                blocks[first + i] = hiddenColumn(column.hiddenColumn().get(), batch, rows);
                continue;
            }
            FieldVector vector = batch.vector(read);
            blocks[first + i] = vector == null ? ArrowToTrino.missing(column, rows) : ArrowToTrino.block(column.type(), readColumns.get(read), batch.writtenAs(read), vector, rows);
            read++;
        }
        readTimeNanos += System.nanoTime() - start;
        completedPositions += rows;
        return SourcePage.create(new Page(rows, blocks));
    }

    /** An inlined row's {@code $row_id} is its row_id, its {@code $snapshot_id} its begin_snapshot; it has no file. */
    private static Block hiddenColumn(HiddenColumn column, InlinedRowsReader.Batch batch, int rows)
    {
        return switch (column) {
            case ROW_ID -> longs(batch.rowIds(), rows);
            case SNAPSHOT_ID -> longs(batch.beginSnapshots(), rows);
            case PATH, FILE_ROW_NUMBER, FILE_SIZE_BYTES -> RunLengthEncodedBlock.create(column.isText() ? VARCHAR : BIGINT, null, rows);
        };
    }

    private static Block longs(BigIntVector values, int rows)
    {
        BlockBuilder builder = BIGINT.createFixedSizeBlockBuilder(rows);
        for (int row = 0; row < rows; row++) {
            BIGINT.writeLong(builder, values.get(row));
        }
        return builder.build();
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
