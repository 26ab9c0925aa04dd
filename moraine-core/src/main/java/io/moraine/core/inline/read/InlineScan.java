package io.moraine.core.inline.read;

import io.moraine.core.inline.ChunkId;
import io.moraine.core.inline.InlineArrow;
import io.moraine.core.keyspace.InlineKeys;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Streams the selected inlined rows of one table. Rows are selected once, from the chunk locators and deletion events
 * alone; then each window point-reads only the chunk bodies its rows live in, decodes them, copies the selected rows
 * of the projected columns, and releases them before the next window. While a window is decoded, the bodies of the
 * next one are already being read (read-ahead), so that copying them out of SlateDB overlaps with decoding. A scan
 * that projects no user column reads no body at all. The payload it holds is about two windows' bodies and one
 * window's output: {@link #residentBytes()} and {@link #peakResidentBytes()}.
 */
public final class InlineScan
        implements Iterator<InlineBatch>, AutoCloseable
{
    public static final Field ROW_ID = Field.notNullable("row_id", new ArrowType.Int(64, true));
    public static final Field BEGIN_SNAPSHOT = Field.notNullable("begin_snapshot", new ArrowType.Int(64, true));
    public static final Field END_SNAPSHOT = new Field("end_snapshot", FieldType.nullable(new ArrowType.Int(64, true)), null);

    private record Selected(InlineDirectory.Chunk chunk, BitSet offsets) {}

    /** The chunks one window draws rows from, and where the window after it starts (at its last chunk if it is split). */
    private record Window(List<InlineDirectory.Chunk> chunks, long rows, int nextStart, long carriedRows) {}

    private final InlineDirectory directory;
    private final InlineSelection selection;
    private final Optional<List<String>> projection;
    private final int windowRows;
    private final BufferAllocator allocator;
    private final List<Selected> selected = new ArrayList<>();
    private final long selectedRows;
    private int nextChunk;
    private int nextOffset;
    private VectorSchemaRoot current;
    // The bodies the window being built reads; after a window only the body of a chunk it split is kept.
    private final Map<ChunkId, byte[]> windowBodies = new HashMap<>();
    private InlineDirectory.PendingBodies readAhead;
    private long windowBodyBytes;
    // The most payload held during the window in progress (at the next fetch: during the previous window).
    private long windowHighWater;
    private long residentBytes;
    private long peakResidentBytes;
    private long bodiesRead;

    InlineScan(InlineDirectory directory, InlineSelection selection, java.util.OptionalLong schemaVersion, Optional<List<String>> projection,
            int windowRows, BufferAllocator allocator)
    {
        this.directory = directory;
        this.selection = selection;
        this.projection = projection.map(List::copyOf);
        this.windowRows = windowRows;
        this.allocator = allocator;
        long rows = 0;
        for (InlineDirectory.Chunk chunk : directory.chunks()) {
            long begin = chunk.id().beginSnapshot();
            if (!selection.mayHoldSelected(begin) || (schemaVersion.isPresent() && chunk.id().schemaVersion() != schemaVersion.getAsLong())) {
                continue;
            }
            BitSet offsets = select(chunk, begin);
            if (!offsets.isEmpty()) {
                selected.add(new Selected(chunk, offsets));
                rows += offsets.cardinality();
            }
        }
        this.selectedRows = rows;
    }

    private BitSet select(InlineDirectory.Chunk chunk, long begin)
    {
        BitSet offsets = new BitSet(chunk.rowCount());
        if (!directory.hasDeletionEvents() || !selection.needsEnds()) {
            // Without deletion events every row of a chunk gets the same verdict: decide it once.
            if (selection.selects(begin, OptionalLong.empty())) {
                offsets.set(0, chunk.rowCount());
            }
            return offsets;
        }
        for (int offset = 0; offset < chunk.rowCount(); offset++) {
            if (selection.selects(begin, directory.endOf(chunk.rowIdStart() + offset, begin))) {
                offsets.set(offset);
            }
        }
        return offsets;
    }

    /** How many rows the scan selects, known before any body is read. */
    public long selectedRows()
    {
        return selectedRows;
    }

    @Override
    public boolean hasNext()
    {
        return nextChunk < selected.size();
    }

    /** The next window; the previous one is released. */
    @Override
    public InlineBatch next()
    {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        long version = selected.get(nextChunk).chunk().id().schemaVersion();
        Schema versionSchema = directory.schema(version);
        List<Field> userFields = projectedFields(versionSchema);
        Window window = window(nextChunk, nextOffset == 0 ? -1 : selected.get(nextChunk).offsets().get(nextOffset, Integer.MAX_VALUE).cardinality());
        if (!userFields.isEmpty()) {
            fetchWindowBodies(window);
        }
        releaseCurrent();
        List<Field> outputFields = new ArrayList<>(userFields);
        outputFields.add(ROW_ID);
        outputFields.add(BEGIN_SNAPSHOT);
        outputFields.add(END_SNAPSHOT);
        VectorSchemaRoot output = VectorSchemaRoot.create(new Schema(outputFields), allocator);
        int capacity = (int) Math.max(1, Math.min(windowRows, window.rows()));
        output.getFieldVectors().forEach(vector -> vector.setInitialCapacity(capacity));
        output.allocateNew();
        int rows = 0;
        while (rows < windowRows && nextChunk < selected.size() && selected.get(nextChunk).chunk().id().schemaVersion() == version) {
            Selected chunk = selected.get(nextChunk);
            int taken = copyChunk(chunk, userFields, output, rows, windowRows - rows);
            rows += taken;
            if (nextOffset < 0) {
                nextChunk++;
                nextOffset = 0;
            }
        }
        output.setRowCount(rows);
        releaseConsumedBodies();
        current = output;
        account(output.getFieldVectors().stream().mapToLong(FieldVector::getBufferSize).sum());
        return new InlineBatch(version, output);
    }

    /**
     * Collects the bodies of every chunk this window draws from: those the read-ahead fetched, and any it did not, read
     * now. Then starts reading the next window's.
     */
    private void fetchWindowBodies(Window window)
    {
        Map<ChunkId, byte[]> arrived = new HashMap<>();
        if (readAhead != null) {
            arrived.putAll(readAhead.await());
            readAhead = null;
        }
        List<InlineDirectory.Chunk> missing = window.chunks().stream()
                .filter(chunk -> !windowBodies.containsKey(chunk.id()) && !arrived.containsKey(chunk.id()))
                .toList();
        if (!missing.isEmpty()) {
            arrived.putAll(directory.bodies(missing));
        }
        long arrivedBytes = arrived.values().stream().mapToLong(body -> body.length).sum();
        // The read-ahead may have landed at the previous window's high-water mark, while its output (counted only
        // when complete) was already allocated: count all of that together as the bound.
        long previousOutputBytes = current == null ? 0 : current.getFieldVectors().stream().mapToLong(FieldVector::getBufferSize).sum();
        peakResidentBytes = Math.max(peakResidentBytes, windowHighWater + previousOutputBytes + arrivedBytes);
        account(arrivedBytes);
        windowHighWater = residentBytes;
        windowBodyBytes += arrivedBytes;
        windowBodies.putAll(arrived);
        bodiesRead += arrived.size();
        startReadAhead(window);
    }

    private void startReadAhead(Window window)
    {
        if (window.nextStart() >= selected.size()) {
            return;
        }
        long nextVersion = selected.get(window.nextStart()).chunk().id().schemaVersion();
        try {
            if (projectedFields(directory.schema(nextVersion)).isEmpty()) {
                return;
            }
        }
        catch (io.moraine.core.error.MoraineException e) {
            // A damaged schema record is reported by the window that needs it, not by this one.
            return;
        }
        List<InlineDirectory.Chunk> next = window(window.nextStart(), window.carriedRows()).chunks().stream()
                .filter(chunk -> !windowBodies.containsKey(chunk.id()))
                .toList();
        readAhead = directory.startBodies(next);
    }

    /**
     * The window starting at chunk {@code start}, of which {@code firstChunkRows} selected rows are left (-1: all of
     * them), taking chunks of one schema version until it holds {@link #windowRows} rows.
     */
    private Window window(int start, long firstChunkRows)
    {
        long version = selected.get(start).chunk().id().schemaVersion();
        List<InlineDirectory.Chunk> chunks = new ArrayList<>();
        long rows = 0;
        int i = start;
        for (; i < selected.size() && selected.get(i).chunk().id().schemaVersion() == version && rows < windowRows; i++) {
            rows += i == start && firstChunkRows >= 0 ? firstChunkRows : selected.get(i).offsets().cardinality();
            chunks.add(selected.get(i).chunk());
        }
        boolean lastChunkSplit = rows > windowRows;
        return new Window(chunks, rows, lastChunkSplit ? i - 1 : i, lastChunkSplit ? rows - windowRows : -1);
    }

    /** Drops the bodies this window used up, keeping a split chunk's for the next window. */
    private void releaseConsumedBodies()
    {
        ChunkId split = nextOffset > 0 ? selected.get(nextChunk).chunk().id() : null;
        Iterator<Map.Entry<ChunkId, byte[]>> bodies = windowBodies.entrySet().iterator();
        while (bodies.hasNext()) {
            Map.Entry<ChunkId, byte[]> body = bodies.next();
            if (!body.getKey().equals(split)) {
                residentBytes -= body.getValue().length;
                windowBodyBytes -= body.getValue().length;
                bodies.remove();
            }
        }
    }

    /** Copies up to {@code limit} selected rows of one chunk from {@link #nextOffset}; sets nextOffset to -1 when done. */
    private int copyChunk(Selected chunk, List<Field> userFields, VectorSchemaRoot output, int outputRow, int limit)
    {
        VectorSchemaRoot decoded = null;
        long bodyBytes = 0;
        try {
            if (!userFields.isEmpty()) {
                byte[] body = windowBodies.get(chunk.chunk().id());
                if (body == null) {
                    // Not expected: fetchWindowBodies reads every chunk the window draws from.
                    body = directory.body(chunk.chunk().id());
                    bodyBytes = body.length;
                    bodiesRead++;
                }
                decoded = InlineArrow.decodeChunk(InlineKeys.insert(chunk.chunk().id()), body, directory.schema(chunk.chunk().id().schemaVersion()), allocator);
                account(bodyBytes + decoded.getFieldVectors().stream().mapToLong(FieldVector::getBufferSize).sum());
            }
            BigIntVector rowIds = (BigIntVector) output.getVector(ROW_ID.getName());
            BigIntVector begins = (BigIntVector) output.getVector(BEGIN_SNAPSHOT.getName());
            BigIntVector ends = (BigIntVector) output.getVector(END_SNAPSHOT.getName());
            long begin = chunk.chunk().id().beginSnapshot();
            int chunkRows = chunk.chunk().rowCount();
            if (nextOffset == 0 && chunk.offsets().cardinality() == chunkRows && chunkRows <= limit) {
                // Every row of the chunk is selected and fits: append its buffers in bulk instead of row by row.
                if (decoded != null) {
                    for (Field field : userFields) {
                        FieldVector target = output.getVector(field.getName());
                        target.setValueCount(outputRow);
                        decoded.getVector(field.getName()).accept(new org.apache.arrow.vector.util.VectorAppender(target), null);
                    }
                }
                for (int i = 0; i < chunkRows; i++) {
                    setVirtualColumns(rowIds, begins, ends, outputRow + i, chunk.chunk().rowIdStart() + i, begin);
                }
                nextOffset = -1;
                return chunkRows;
            }
            int taken = 0;
            int offset = chunk.offsets().nextSetBit(nextOffset);
            List<FieldVector[]> columnPairs = new ArrayList<>();
            if (decoded != null) {
                for (Field field : userFields) {
                    columnPairs.add(new FieldVector[] {output.getVector(field.getName()), decoded.getVector(field.getName())});
                }
            }
            while (offset >= 0 && taken < limit) {
                int row = outputRow + taken;
                for (FieldVector[] pair : columnPairs) {
                    pair[0].copyFromSafe(offset, row, pair[1]);
                }
                setVirtualColumns(rowIds, begins, ends, row, chunk.chunk().rowIdStart() + offset, begin);
                taken++;
                offset = chunk.offsets().nextSetBit(offset + 1);
            }
            nextOffset = offset < 0 ? -1 : offset;
            return taken;
        }
        finally {
            if (decoded != null) {
                residentBytes -= bodyBytes + decoded.getFieldVectors().stream().mapToLong(FieldVector::getBufferSize).sum();
                decoded.close();
            }
        }
    }

    /** row_id, begin_snapshot and end_snapshot of one output row; end stays null (as allocated) for a live version. */
    private void setVirtualColumns(BigIntVector rowIds, BigIntVector begins, BigIntVector ends, int row, long rowId, long begin)
    {
        rowIds.setSafe(row, rowId);
        begins.setSafe(row, begin);
        if (directory.hasDeletionEvents()) {
            OptionalLong end = directory.endOf(rowId, begin);
            if (end.isPresent()) {
                ends.setSafe(row, end.getAsLong());
            }
            else {
                ends.setNull(row);
            }
        }
    }

    private List<Field> projectedFields(Schema versionSchema)
    {
        if (projection.isEmpty()) {
            return versionSchema.getFields();
        }
        List<Field> fields = new ArrayList<>();
        for (String name : projection.get()) {
            versionSchema.getFields().stream().filter(field -> field.getName().equals(name)).findFirst().ifPresent(fields::add);
        }
        return fields;
    }

    private void account(long bytes)
    {
        residentBytes += bytes;
        peakResidentBytes = Math.max(peakResidentBytes, residentBytes);
        windowHighWater = Math.max(windowHighWater, residentBytes);
    }

    private void releaseCurrent()
    {
        if (current != null) {
            residentBytes -= current.getFieldVectors().stream().mapToLong(FieldVector::getBufferSize).sum();
            current.close();
            current = null;
        }
    }

    /**
     * Payload bytes (chunk bodies, decoded chunks, the current window) held right now. The next window's bodies being
     * read ahead are counted once they are collected, at the next {@link #next()}.
     */
    public long residentBytes()
    {
        return residentBytes;
    }

    /** The most payload bytes held at any moment of this scan, read-ahead included (an upper bound). */
    public long peakResidentBytes()
    {
        return peakResidentBytes;
    }

    /** How many chunk bodies this scan has read from the store. */
    public long bodiesRead()
    {
        return bodiesRead;
    }

    @Override
    public void close()
    {
        if (readAhead != null) {
            readAhead.cancel();
            readAhead = null;
        }
        releaseCurrent();
        residentBytes -= windowBodyBytes;
        windowBodyBytes = 0;
        windowBodies.clear();
    }
}
