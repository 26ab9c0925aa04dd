package io.moraine.core.inline.read;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.changes.InlinedChangesTask;
import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.scan.InlinedRowsTask;
import io.moraine.core.types.TableColumn;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.ipc.WriteChannel;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.ipc.message.IpcOption;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * Cuts the inlined rows an {@link InlinedRowsReader} reads into bounded {@link InlinedRowsPiece}s, one at a time: each
 * piece holds at most {@link Bounds#maxRows()} rows and at most {@link Bounds#maxBytes()} bytes of Arrow IPC stream
 * (a single row larger than that is a piece of its own), and rows of one schema version only. Only the piece being
 * built and the reader's current window are held: a caller that ships each piece before asking for the next holds one.
 */
public final class InlinedRowsPieces
        implements Iterator<InlinedRowsPiece>, AutoCloseable
{
    /** End-of-stream marker: continuation token and a zero length. */
    private static final int END_OF_STREAM_BYTES = 8;

    /**
     * The bound on one piece.
     *
     * @param maxRows at most this many rows
     * @param maxBytes at most this many bytes of Arrow IPC stream, unless one row alone is larger
     */
    public record Bounds(int maxRows, long maxBytes)
    {
        /** 8,192 rows (the inline reader's window) and 1 MiB. */
        public static final Bounds DEFAULT = new Bounds(InlineReader.DEFAULT_WINDOW_ROWS, 1L << 20);

        public Bounds
        {
            if (maxRows <= 0 || maxBytes <= 0) {
                throw new InvalidArgumentException("a piece of inlined rows needs a positive row and byte bound, not " + maxRows + " rows and " + maxBytes + " bytes");
            }
        }
    }

    private final InlinedRowsReader reader;
    private final List<TableColumn> columns;
    private final Bounds bounds;
    private InlinedRowsReader.Batch pending;
    private VectorSchemaRoot pendingRoot;
    private Layout pendingLayout;
    private int pendingOffset;
    private long pieces;

    private InlinedRowsPieces(InlinedRowsReader reader, List<TableColumn> columns, Bounds bounds)
    {
        this.reader = reader;
        this.columns = List.copyOf(columns);
        this.bounds = bounds;
    }

    /**
     * The pieces of a scan's inlined rows ({@code task}), read through {@code snapshot} (open at the task's snapshot)
     * with {@code columns}, as {@link InlinedRowsReader#open} reads them.
     */
    public static InlinedRowsPieces open(CatalogSnapshot snapshot, InlinedRowsTask task, List<TableColumn> columns, Bounds bounds, BufferAllocator allocator)
    {
        return of(InlinedRowsReader.open(snapshot, task, columns, Math.min(bounds.maxRows(), InlineReader.DEFAULT_WINDOW_ROWS), allocator), columns, bounds);
    }

    /**
     * The pieces of one side of a change feed's inlined rows ({@code task}), read through {@code snapshot} (open at the
     * feed's end snapshot) with {@code columns}, as {@link InlinedRowsReader#openChanges} reads them. Every piece carries
     * each row's row id, begin and end snapshot, so a reader of the pieces attributes each row to its snapshot as the
     * store's reader does.
     */
    public static InlinedRowsPieces openChanges(CatalogSnapshot snapshot, InlinedChangesTask task, List<TableColumn> columns, Bounds bounds,
            BufferAllocator allocator)
    {
        return of(InlinedRowsReader.openChanges(snapshot, task, columns, Math.min(bounds.maxRows(), InlineReader.DEFAULT_WINDOW_ROWS), allocator), columns, bounds);
    }

    /** The pieces of what {@code reader} (opened with {@code columns}) reads; closing the pieces closes it. */
    public static InlinedRowsPieces of(InlinedRowsReader reader, List<TableColumn> columns, Bounds bounds)
    {
        return new InlinedRowsPieces(reader, columns, bounds);
    }

    @Override
    public boolean hasNext()
    {
        return pending != null || reader.hasNext();
    }

    /** The next piece; the previous one is no longer referenced. */
    @Override
    public InlinedRowsPiece next()
    {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        PieceWriter piece = null;
        while (true) {
            if (pending == null && !advance()) {
                break;
            }
            if (piece == null) {
                piece = new PieceWriter(pendingLayout);
            }
            else if (!piece.layout.equals(pendingLayout)) {
                break;
            }
            int wanted = Math.min(bounds.maxRows() - piece.rows, pending.rows() - pendingOffset);
            int appended = wanted == 0 ? 0 : piece.append(pendingRoot, pendingOffset, wanted);
            pendingOffset += appended;
            if (pendingOffset == pending.rows()) {
                releasePending();
            }
            if (appended < wanted || piece.rows == bounds.maxRows()) {
                break;
            }
        }
        pieces++;
        return piece == null ? emptyPiece() : piece.finish();
    }

    /** How many pieces were handed out. */
    public long pieces()
    {
        return pieces;
    }

    /** Bytes of chunk bodies read from the store so far. */
    public long bodiesRead()
    {
        return reader.bodiesRead();
    }

    @Override
    public void close()
    {
        releasePending();
        reader.close();
    }

    /** Takes the reader's next batch with rows; false at the end. */
    private boolean advance()
    {
        while (reader.hasNext()) {
            InlinedRowsReader.Batch batch = reader.next();
            if (batch.rows() > 0) {
                pending = batch;
                pendingOffset = 0;
                pendingLayout = Layout.of(columns, batch);
                pendingRoot = pendingLayout.root(batch);
                return true;
            }
        }
        return false;
    }

    private void releasePending()
    {
        // The root does not own the reader's vectors: dropping it is all.
        pending = null;
        pendingRoot = null;
        pendingLayout = null;
    }

    private InlinedRowsPiece emptyPiece()
    {
        // Only when the reader's last batches had no rows.
        return new PieceWriter(Layout.of(columns, null)).finish();
    }

    /** A batch's layout: which of its vectors the stream holds, and each read column's field among them. */
    private record Layout(List<TableColumn> columns, List<TableColumn> writtenAs, int[] fieldOf, List<Field> fields)
    {
        static Layout of(List<TableColumn> columns, InlinedRowsReader.Batch batch)
        {
            List<TableColumn> writtenAs = new ArrayList<>();
            int[] fieldOf = new int[columns.size()];
            List<Field> fields = new ArrayList<>();
            Map<FieldVector, Integer> placed = new IdentityHashMap<>();
            for (int i = 0; i < columns.size(); i++) {
                FieldVector vector = batch == null ? null : batch.vector(i);
                writtenAs.add(vector == null ? null : batch.writtenAs(i));
                if (vector == null) {
                    fieldOf[i] = -1;
                    continue;
                }
                Integer field = placed.get(vector);
                if (field == null) {
                    field = fields.size();
                    placed.put(vector, field);
                    fields.add(vector.getField());
                }
                fieldOf[i] = field;
            }
            fields.add(InlineScan.ROW_ID);
            fields.add(InlineScan.BEGIN_SNAPSHOT);
            fields.add(InlineScan.END_SNAPSHOT);
            return new Layout(columns, Arrays.asList(writtenAs.toArray(TableColumn[]::new)), fieldOf, List.copyOf(fields));
        }

        /** The batch's vectors in stream order, as a root that does not own them. */
        VectorSchemaRoot root(InlinedRowsReader.Batch batch)
        {
            List<FieldVector> vectors = new ArrayList<>();
            for (int i = 0; i < fieldOf.length; i++) {
                if (fieldOf[i] == vectors.size()) {
                    vectors.add(batch.vector(i));
                }
            }
            vectors.add(batch.rowIds());
            vectors.add(batch.beginSnapshots());
            vectors.add(batch.endSnapshots());
            return new VectorSchemaRoot(fields, vectors, batch.rows());
        }

        Schema schema()
        {
            return new Schema(fields, new InlinedRowsPiece.Layout(columns, writtenAs, fieldOf).toMetadata());
        }

        @Override
        public boolean equals(Object other)
        {
            return other instanceof Layout that && columns.equals(that.columns) && writtenAs.equals(that.writtenAs) && Arrays.equals(fieldOf, that.fieldOf)
                    && fields.equals(that.fields);
        }

        @Override
        public int hashCode()
        {
            return fields.hashCode();
        }
    }

    /** One piece being written: the schema message, then record batches while they fit the bounds. */
    private final class PieceWriter
    {
        private final Layout layout;
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final WriteChannel channel = new WriteChannel(Channels.newChannel(bytes));
        private int rows;

        PieceWriter(Layout layout)
        {
            this.layout = layout;
            try {
                MessageSerializer.serialize(channel, layout.schema(), IpcOption.DEFAULT);
            }
            catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /**
         * Appends as many of rows {@code [offset, offset + wanted)} of {@code root} as the byte bound leaves room for (at
         * least one to an empty piece), as one record batch; returns how many.
         */
        int append(VectorSchemaRoot root, int offset, int wanted)
        {
            long room = bounds.maxBytes() - bytes.size() - END_OF_STREAM_BYTES;
            if (rows > 0 && room <= 0) {
                return 0;
            }
            int count = wanted;
            while (true) {
                byte[] batch = recordBatch(root, offset, count);
                if (batch.length <= room || (rows == 0 && count == 1)) {
                    bytes.write(batch, 0, batch.length);
                    rows += count;
                    return count;
                }
                if (count == 1) {
                    return 0;
                }
                // Rows take about the same room each: aim a tenth under what would fit, fewer each time it does not.
                count = (int) Math.max(1, Math.min(count - 1, Math.floor(0.9 * count * Math.max(room, 0) / batch.length)));
            }
        }

        InlinedRowsPiece finish()
        {
            try {
                ArrowStreamWriter.writeEndOfStream(channel, IpcOption.DEFAULT);
            }
            catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return new InlinedRowsPiece(bytes.toByteArray(), rows);
        }
    }

    private static byte[] recordBatch(VectorSchemaRoot root, int offset, int count)
    {
        VectorSchemaRoot slice = offset == 0 && count == root.getRowCount() ? null : root.slice(offset, count);
        try (ArrowRecordBatch batch = new VectorUnloader(slice == null ? root : slice).getRecordBatch()) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            MessageSerializer.serialize(new WriteChannel(Channels.newChannel(out)), batch, IpcOption.DEFAULT);
            return out.toByteArray();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        finally {
            if (slice != null) {
                slice.close();
            }
        }
    }
}
