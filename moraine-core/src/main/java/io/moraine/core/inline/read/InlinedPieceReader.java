package io.moraine.core.inline.read;

import io.moraine.core.error.CorruptionException;
import io.moraine.core.types.TableColumn;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * Reads an {@link InlinedRowsPiece} back as batches, without a catalog: each batch's read columns are found as the
 * piece's layout places them, as {@link InlinedRowsReader} finds them in the store. One record batch is held at a time.
 */
public final class InlinedPieceReader
        implements InlinedBatchSource
{
    private final ArrowStreamReader reader;
    private final InlinedRowsPiece.Layout layout;
    private final VectorSchemaRoot root;
    private boolean loaded;
    private boolean ended;

    private InlinedPieceReader(ArrowStreamReader reader)
            throws IOException
    {
        this.reader = reader;
        this.root = reader.getVectorSchemaRoot();
        this.layout = InlinedRowsPiece.Layout.of(root.getSchema());
    }

    /** Opens {@code piece}; the batches' vectors are allocated from {@code allocator}. */
    public static InlinedPieceReader open(byte[] piece, BufferAllocator allocator)
    {
        ArrowStreamReader reader = new ArrowStreamReader(new ByteArrayInputStream(piece), allocator);
        try {
            return new InlinedPieceReader(reader);
        }
        catch (IOException e) {
            closeAfterFailure(reader);
            throw new CorruptionException("a piece of inlined rows is not an Arrow stream: " + e.getMessage());
        }
        catch (RuntimeException e) {
            closeAfterFailure(reader);
            throw e;
        }
    }

    private static void closeAfterFailure(ArrowStreamReader reader)
    {
        try {
            reader.close();
        }
        catch (IOException | RuntimeException ignored) {
            // the failure that made us close it is what the caller needs to see
        }
    }

    /** The read columns the piece's batches hold, in their order (as the writer was given them). */
    public List<TableColumn> columns()
    {
        return layout.columns();
    }

    @Override
    public boolean hasNext()
    {
        while (!loaded && !ended) {
            try {
                if (!reader.loadNextBatch()) {
                    ended = true;
                }
                else if (root.getRowCount() > 0) {
                    loaded = true;
                }
            }
            catch (IOException e) {
                throw new CorruptionException("a piece of inlined rows is cut short: " + e.getMessage());
            }
        }
        return loaded;
    }

    @Override
    public InlinedRowsReader.Batch next()
    {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        loaded = false;
        List<FieldVector> all = root.getFieldVectors();
        int count = layout.columns().size();
        List<FieldVector> vectors = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int field = layout.fields()[i];
            vectors.add(field < 0 ? null : all.get(field));
        }
        int rowColumns = all.size() - 3;
        return new InlinedRowsReader.Batch(root.getRowCount(), java.util.Collections.unmodifiableList(vectors), layout.writtenAs(),
                (BigIntVector) all.get(rowColumns), (BigIntVector) all.get(rowColumns + 1), (BigIntVector) all.get(rowColumns + 2));
    }

    @Override
    public long residentBytes()
    {
        return root.getFieldVectors().stream().mapToLong(FieldVector::getBufferSize).sum();
    }

    @Override
    public void close()
    {
        try {
            reader.close();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
