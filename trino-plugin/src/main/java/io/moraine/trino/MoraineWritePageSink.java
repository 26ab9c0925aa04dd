package io.moraine.trino;

import io.airlift.slice.Slice;
import io.moraine.core.error.MoraineException;
import io.moraine.core.types.TableColumn;
import io.moraine.core.write.files.DataFileLayout;
import io.moraine.core.write.files.DataFileTarget;
import io.moraine.core.write.HeldRows;
import io.moraine.core.write.InlinedArrowSchema;
import io.moraine.core.write.InsertInlining;
import io.moraine.core.write.files.WrittenDataFile;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.connector.ConnectorPageSink;
import io.trino.spi.type.Type;
import org.apache.arrow.memory.BufferAllocator;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static io.trino.spi.type.TypeUtils.readNativeValue;

/**
 * Writes the rows of one INSERT or CREATE TABLE AS task: while they fit the table's inlining limit they are only kept,
 * and handed to the coordinator as an inlined fragment at the end; past it they go to Parquet files, one open file
 * per partition value tuple (a new one past the target file size for an unpartitioned table, as DuckLake does).
 * With {@code keepRowIds} (the insert half of an UPDATE or MERGE) each page has one more channel, the row id each row
 * keeps: inlined rows go to the coordinator with their ids, files get DuckLake's hidden row-id column.
 */
final class MoraineWritePageSink
        implements ConnectorPageSink
{
    private final MoraineWritableTableHandle table;
    private final DataFileLayout layout;
    private final TrinoFileSystem fileSystem;
    private final BufferAllocator allocator;
    private final String trinoVersion;
    /** Page channel of each layout column (pages come in the handle's column order). */
    private final int[] channels;
    private final List<Type> types;
    private final Map<Long, Integer> channelById = new HashMap<>();
    private final HeldRows<Page> held;
    private final Map<List<String>, DataFileWriter> writers = new LinkedHashMap<>();
    private final List<WrittenDataFile> written = new ArrayList<>();
    private final boolean keepRowIds;

    MoraineWritePageSink(MoraineWritableTableHandle table, TrinoFileSystem fileSystem, BufferAllocator allocator, String trinoVersion)
    {
        this(table, fileSystem, allocator, trinoVersion, false);
    }

    MoraineWritePageSink(MoraineWritableTableHandle table, TrinoFileSystem fileSystem, BufferAllocator allocator, String trinoVersion, boolean keepRowIds)
    {
        this.keepRowIds = keepRowIds;
        this.table = table;
        this.layout = table.layout().toLayout();
        this.fileSystem = fileSystem;
        this.allocator = allocator;
        this.trinoVersion = trinoVersion;
        List<TableColumn> columns = layout.columns().columns();
        this.channels = new int[columns.size() + (keepRowIds ? 1 : 0)];
        this.types = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            int channel = table.columnIds().indexOf(columns.get(i).columnId());
            channels[i] = channel;
            types.add(table.columnTypes().get(channel));
            channelById.put(columns.get(i).columnId(), i);
        }
        if (keepRowIds) {
            channels[columns.size()] = table.columnIds().size();
        }
        this.held = (TrinoToArrow.supports(types) ? table.inlining() : InsertInlining.OFF).newTask();
    }

    @Override
    public CompletableFuture<?> appendPage(Page page)
    {
        Page ordered = page.getColumns(channels);
        held.hold(ordered, ordered.getPositionCount()).forEach(this::writeToFiles);
        return NOT_BLOCKED;
    }

    private void writeToFiles(Page page)
    {
        try {
            if (layout.partitionSpec().isEmpty()) {
                DataFileWriter writer = writers.computeIfAbsent(List.of(), this::newWriter);
                writer.write(page);
                if (layout.settings().rollOver() && writer.writtenBytes() > layout.settings().targetFileSizeBytes()) {
                    written.add(writer.close(layout.columns().columns()));
                    writers.remove(List.of());
                }
                return;
            }
            Map<List<String>, List<Integer>> positions = new LinkedHashMap<>();
            for (int position = 0; position < page.getPositionCount(); position++) {
                int row = position;
                List<String> values = layout.partitionValues(columnId -> value(page, columnId, row));
                positions.computeIfAbsent(values, ignored -> new ArrayList<>()).add(position);
            }
            positions.forEach((values, rows) -> writers.computeIfAbsent(values, this::newWriter)
                    .write(page.getPositions(rows.stream().mapToInt(Integer::intValue).toArray(), 0, rows.size())));
        }
        catch (MoraineException e) {
            throw MoraineErrorCode.toTrino(e);
        }
    }

    private Object value(Page page, long columnId, int position)
    {
        int channel = channelById.get(columnId);
        Type type = types.get(channel);
        Object value = readNativeValue(type, page.getBlock(channel), position);
        return value == null ? null : TrinoValues.toMoraine(type, value).orElseThrow(() -> new io.trino.spi.TrinoException(
                io.trino.spi.StandardErrorCode.NOT_SUPPORTED, "moraine cannot partition by a column of type " + type));
    }

    private DataFileWriter newWriter(List<String> partitionValues)
    {
        DataFileTarget target = layout.target(partitionValues, keepRowIds);
        List<Type> fileTypes = new ArrayList<>(types);
        if (keepRowIds) {
            fileTypes.add(io.trino.spi.type.BigintType.BIGINT);
        }
        return new DataFileWriter(fileSystem, target, table.layout().physicalLocation(target.location()), fileTypes, trinoVersion);
    }

    @Override
    public CompletableFuture<Collection<Slice>> finish()
    {
        List<Slice> fragments = new ArrayList<>();
        List<Page> buffered = held.batches();
        if (held.rowCount() > 0 && keepRowIds) {
            int[] data = java.util.stream.IntStream.range(0, types.size()).toArray();
            byte[] ipc = TrinoToArrow.toIpc(InlinedArrowSchema.of(layout.columns().columns()), types, buffered.stream().map(page -> page.getColumns(data)).toList(),
                    allocator);
            long[] rowIds = new long[Math.toIntExact(held.rowCount())];
            int next = 0;
            for (Page page : buffered) {
                Block ids = page.getBlock(types.size());
                for (int position = 0; position < page.getPositionCount(); position++) {
                    rowIds[next++] = io.trino.spi.type.BigintType.BIGINT.getLong(ids, position);
                }
            }
            fragments.add(WriteFragment.updated(rowIds, ipc).toSlice());
        }
        else if (held.rowCount() > 0) {
            byte[] ipc = TrinoToArrow.toIpc(InlinedArrowSchema.of(layout.columns().columns()), types, buffered, allocator);
            fragments.add(WriteFragment.inlined(held.rowCount(), ipc).toSlice());
        }
        for (DataFileWriter writer : writers.values()) {
            written.add(writer.close(layout.columns().columns()));
        }
        writers.clear();
        written.forEach(file -> fragments.add(WriteFragment.of(file).toSlice()));
        allocator.close();
        return CompletableFuture.completedFuture(fragments);
    }

    @Override
    public void abort()
    {
        writers.values().forEach(DataFileWriter::abort);
        writers.clear();
        allocator.close();
    }
}
