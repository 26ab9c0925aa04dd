package io.moraine.trino;

import io.moraine.core.changes.ChangeKind;
import io.moraine.core.inline.read.InlinedBatchSource;
import io.moraine.core.inline.read.InlinedPieceReader;
import io.moraine.core.inline.read.InlinedRowsReader;
import io.moraine.core.scan.HiddenColumn;
import io.moraine.core.types.TableColumn;
import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.block.RunLengthEncodedBlock;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.SourcePage;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.VarcharType.VARCHAR;

/**
 * Streams inlined rows one batch at a time from pieces the coordinator read and shipped with the split (no catalog is
 * opened): a table scan's piece ({@link #ofPiece}), or a change feed's side, the pieces of one of its split's tasks
 * ({@link #changes}), each row's {@code snapshot_id} and {@code rowid} first. Columns are found by column id (a column
 * a schema version lacks reads as its default).
 */
final class InlinedRowsPageSource
        implements ConnectorPageSource
{
    private final BufferAllocator allocator;
    private final InlinedBatchSource scan;
    // The pieces' size (counted as read once they are).
    private final long pieceBytes;
    private final List<MoraineColumnHandle> columns;
    // For each column: its index among the batches' read columns and its core column, or -1 and null when hidden.
    private final int[] batchIndex;
    private final TableColumn[] readColumns;
    private final Optional<ChangeKind> changeKind;
    private long readTimeNanos;
    private long completedPositions;
    private boolean finished;

    /**
     * The rows of a change feed's {@code kind} side, from the pieces the coordinator read them into
     * ({@code InlinedRowsPieces.openChanges}), snapshot and row id first.
     *
     * @param scan the pieces, read as batches of {@code readColumns}
     * @param pieceBytes the pieces' size
     * @param readColumns the core's columns of {@code columns} (all of them table columns), in the same order
     */
    static InlinedRowsPageSource changes(BufferAllocator allocator, InlinedBatchSource scan, long pieceBytes, ChangeKind kind,
            List<MoraineColumnHandle> columns, List<TableColumn> readColumns)
    {
        int[] batchIndex = new int[columns.size()];
        int read = 0;
        for (int i = 0; i < columns.size(); i++) {
            batchIndex[i] = columns.get(i).hiddenColumn().isPresent() ? -1 : read++;
        }
        TableColumn[] byColumn = new TableColumn[columns.size()];
        for (int i = 0; i < columns.size(); i++) {
            byColumn[i] = batchIndex[i] < 0 ? null : readColumns.get(batchIndex[i]);
        }
        return new InlinedRowsPageSource(allocator, scan, pieceBytes, columns, batchIndex, byColumn, Optional.of(kind));
    }

    /**
     * A table scan's rows from a piece ({@link InlinedPieceReader}) holding {@code readColumns}: each of {@code columns}
     * that is not hidden is one of them, by column id, with the same Trino type (a struct column pruned to the same
     * fields).
     */
    static InlinedRowsPageSource ofPiece(BufferAllocator allocator, InlinedPieceReader piece, long pieceBytes, List<MoraineColumnHandle> columns,
            List<TableColumn> readColumns)
    {
        Map<Long, Integer> indexOf = new HashMap<>();
        List<TableColumn> shipped = piece.columns();
        for (int i = 0; i < shipped.size(); i++) {
            indexOf.put(shipped.get(i).columnId(), i);
        }
        int[] batchIndex = new int[columns.size()];
        TableColumn[] byColumn = new TableColumn[columns.size()];
        for (int i = 0; i < columns.size(); i++) {
            MoraineColumnHandle column = columns.get(i);
            if (column.hiddenColumn().isPresent()) {
                batchIndex[i] = -1;
                continue;
            }
            Integer index = indexOf.get(column.columnId());
            if (index == null) {
                throw new IllegalStateException("the split of the inlined rows does not hold column " + column.name() + " (id " + column.columnId() + ")");
            }
            batchIndex[i] = index;
            byColumn[i] = readColumns.get(i);
        }
        return new InlinedRowsPageSource(allocator, piece, pieceBytes, columns, batchIndex, byColumn, Optional.empty());
    }

    private InlinedRowsPageSource(BufferAllocator allocator, InlinedBatchSource scan, long pieceBytes,
            List<MoraineColumnHandle> columns, int[] batchIndex, TableColumn[] readColumns, Optional<ChangeKind> changeKind)
    {
        this.changeKind = changeKind;
        this.allocator = allocator;
        this.scan = scan;
        this.pieceBytes = pieceBytes;
        this.columns = List.copyOf(columns);
        this.batchIndex = batchIndex.clone();
        this.readColumns = readColumns.clone();
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
        for (int i = 0; i < columns.size(); i++) {
            MoraineColumnHandle column = columns.get(i);
            if (column.hiddenColumn().isPresent()) {
                blocks[first + i] = hiddenColumn(column.hiddenColumn().get(), batch, rows);
                continue;
            }
            int read = batchIndex[i];
            FieldVector vector = batch.vector(read);
            blocks[first + i] = vector == null ? ArrowToTrino.missing(column, rows) : ArrowToTrino.block(column.type(), readColumns[i], batch.writtenAs(read), vector, rows);
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
        return finished ? pieceBytes : 0;
    }

    @Override
    public OptionalLong getCompletedPositions()
    {
        return OptionalLong.of(completedPositions);
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
        try (allocator; scan) {
            // closed in reverse order: the pieces' vectors, then the allocator
        }
    }
}
