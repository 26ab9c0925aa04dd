package io.moraine.core.write;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.util.VectorSchemaRootAppender;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Held rows as they travel from an engine's tasks to the one that commits: each task's rows one Arrow IPC stream in
 * {@link InlinedArrowSchema}'s types ({@link #encode}); at commit the streams decoded ({@link #read}), one batch each,
 * and merged into the one batch {@link WriteTransaction#insertInlined} takes. The batches stay open until this closes.
 */
public final class InlinedStreams
        implements AutoCloseable
{
    private final List<ArrowStreamReader> readers;
    private final List<VectorSchemaRoot> merged = new ArrayList<>();

    private InlinedStreams(List<ArrowStreamReader> readers)
    {
        this.readers = readers;
    }

    /** {@code rows} as one Arrow IPC stream of one batch. */
    public static byte[] encode(VectorSchemaRoot rows)
    {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ArrowStreamWriter writer = new ArrowStreamWriter(rows, null, bytes)) {
            writer.start();
            writer.writeBatch();
            writer.end();
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot encode " + rows.getRowCount() + " rows to inline: " + e.getMessage(), e);
        }
        return bytes.toByteArray();
    }

    /** Decodes the first batch of each of {@code streams}, in their order. */
    public static InlinedStreams read(List<byte[]> streams, BufferAllocator allocator)
    {
        List<ArrowStreamReader> readers = new ArrayList<>();
        try {
            for (byte[] stream : streams) {
                ArrowStreamReader reader = new ArrowStreamReader(new ByteArrayInputStream(stream), allocator);
                readers.add(reader);
                reader.loadNextBatch();
            }
        }
        catch (IOException e) {
            new InlinedStreams(readers).close();
            throw new UncheckedIOException("cannot decode a task's rows to inline: " + e.getMessage(), e);
        }
        return new InlinedStreams(readers);
    }

    /** One batch a stream, in the streams' order. */
    public List<VectorSchemaRoot> batches()
    {
        return readers.stream().map(reader -> {
            try {
                return reader.getVectorSchemaRoot();
            }
            catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }).toList();
    }

    /** Every stream's rows in one batch, owned by these streams (closed with them); there must be at least one stream. */
    public VectorSchemaRoot merged(BufferAllocator allocator)
    {
        List<VectorSchemaRoot> batches = batches();
        if (batches.size() == 1) {
            return batches.getFirst();
        }
        VectorSchemaRoot all = VectorSchemaRoot.create(batches.getFirst().getSchema(), allocator);
        all.allocateNew();
        VectorSchemaRootAppender.append(all, batches.toArray(VectorSchemaRoot[]::new));
        merged.add(all);
        return all;
    }

    @Override
    public void close()
    {
        merged.forEach(VectorSchemaRoot::close);
        for (ArrowStreamReader reader : readers) {
            try {
                reader.close();
            }
            catch (IOException ignored) {
                // memory only
            }
        }
    }
}
