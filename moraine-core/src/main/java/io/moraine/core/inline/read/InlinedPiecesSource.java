package io.moraine.core.inline.read;

import io.moraine.core.types.TableColumn;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * Reads a run of {@link InlinedRowsPiece}s (the Arrow IPC streams of one read, in their order) back as batches of
 * {@code columns}, without a catalog: each is found by column id among the columns the pieces were written with (a
 * reader may ask for fewer than were shipped, or none, for only the row ids and snapshots). One piece is open at a
 * time, and one record batch of it held.
 */
public final class InlinedPiecesSource
        implements InlinedBatchSource
{
    private final List<byte[]> pieces;
    private final List<TableColumn> columns;
    private final BufferAllocator allocator;
    private int nextPiece;
    private InlinedPieceReader current;
    private int[] fieldOf;

    /**
     * @param pieces the pieces, read in this order (not copied)
     * @param columns the columns each batch holds, in this order; every piece must hold each of them (by column id)
     */
    public InlinedPiecesSource(List<byte[]> pieces, List<TableColumn> columns, BufferAllocator allocator)
    {
        this.pieces = List.copyOf(pieces);
        this.columns = List.copyOf(columns);
        this.allocator = allocator;
    }

    @Override
    public boolean hasNext()
    {
        while (true) {
            if (current != null) {
                if (current.hasNext()) {
                    return true;
                }
                closeCurrent();
            }
            if (nextPiece == pieces.size()) {
                return false;
            }
            current = InlinedPieceReader.open(pieces.get(nextPiece++), allocator);
            fieldOf = fieldsOf(current.columns());
        }
    }

    @Override
    public InlinedRowsReader.Batch next()
    {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        InlinedRowsReader.Batch batch = current.next();
        List<FieldVector> vectors = new ArrayList<>(columns.size());
        TableColumn[] writtenAs = new TableColumn[columns.size()];
        for (int i = 0; i < columns.size(); i++) {
            vectors.add(batch.vector(fieldOf[i]));
            writtenAs[i] = batch.writtenAs(fieldOf[i]);
        }
        return new InlinedRowsReader.Batch(batch.rows(), java.util.Collections.unmodifiableList(vectors), Arrays.asList(writtenAs), batch.rowIds(),
                batch.beginSnapshots(), batch.endSnapshots());
    }

    /** Where each asked-for column is among a piece's columns. */
    private int[] fieldsOf(List<TableColumn> shipped)
    {
        Map<Long, Integer> indexOf = new HashMap<>();
        for (int i = 0; i < shipped.size(); i++) {
            indexOf.put(shipped.get(i).columnId(), i);
        }
        int[] fields = new int[columns.size()];
        for (int i = 0; i < columns.size(); i++) {
            Integer index = indexOf.get(columns.get(i).columnId());
            if (index == null) {
                throw new IllegalStateException("a piece of inlined rows does not hold column " + columns.get(i).name() + " (id " + columns.get(i).columnId() + ")");
            }
            fields[i] = index;
        }
        return fields;
    }

    @Override
    public long residentBytes()
    {
        return current == null ? 0 : current.residentBytes();
    }

    private void closeCurrent()
    {
        try (InlinedPieceReader closing = current) {
            current = null;
            fieldOf = null;
        }
    }

    @Override
    public void close()
    {
        if (current != null) {
            closeCurrent();
        }
        nextPiece = pieces.size();
    }
}
