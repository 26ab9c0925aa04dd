package io.moraine.trino;

import io.airlift.slice.Slice;
import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.block.RowBlock;
import io.trino.spi.connector.ConnectorMergeSink;
import io.trino.spi.connector.MergePage;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;

import static io.trino.spi.connector.ConnectorMergeSink.UPDATE_INSERT_OPERATION_NUMBER;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.TinyintType.TINYINT;

/**
 * One task's share of a DELETE, UPDATE or MERGE, in Trino's delete-row-and-insert-row form (as Iceberg's merge sink):
 * deleted rows are named by their {@link MergeRowId}s and handed to the coordinator; the insert half of an update keeps
 * its row's id (a sink that inlines or writes files with the row-id column); rows a MERGE inserts are plain inserts.
 */
final class MoraineMergeSink
        implements ConnectorMergeSink
{
    private final int dataColumns;
    private final MoraineWritePageSink inserts;
    private final MoraineWritePageSink updates;
    private final List<Long> fileIds = new ArrayList<>();
    private final List<Long> positions = new ArrayList<>();
    private final List<Long> inlinedRowIds = new ArrayList<>();

    MoraineMergeSink(int dataColumns, MoraineWritePageSink inserts, MoraineWritePageSink updates)
    {
        this.dataColumns = dataColumns;
        this.inserts = inserts;
        this.updates = updates;
    }

    @Override
    public void storeMergedRows(Page page)
    {
        MergePage merge = MergePage.createDeleteAndInsertPages(page, dataColumns);
        merge.getDeletionsPage().ifPresent(this::delete);
        merge.getInsertionsPage().ifPresent(ignored -> insert(page));
    }

    private void delete(Page deletions)
    {
        List<Block> fields = RowBlock.getRowFieldsFromBlock(deletions.getBlock(dataColumns));
        for (int position = 0; position < deletions.getPositionCount(); position++) {
            if (fields.get(0).isNull(position)) {
                inlinedRowIds.add(BIGINT.getLong(fields.get(2), position));
            }
            else {
                fileIds.add(BIGINT.getLong(fields.get(0), position));
                positions.add(BIGINT.getLong(fields.get(1), position));
            }
        }
    }

    /** Rows a MERGE inserts go to the plain sink; an update's new rows, with the row id they keep, to the other. */
    private void insert(Page page)
    {
        Block operations = page.getBlock(dataColumns);
        int[] plain = new int[page.getPositionCount()];
        int[] updated = new int[page.getPositionCount()];
        int plainCount = 0;
        int updatedCount = 0;
        for (int position = 0; position < page.getPositionCount(); position++) {
            byte operation = TINYINT.getByte(operations, position);
            if (operation == UPDATE_INSERT_OPERATION_NUMBER) {
                updated[updatedCount++] = position;
            }
            else if (operation == INSERT_OPERATION_NUMBER) {
                plain[plainCount++] = position;
            }
        }
        int[] data = IntStream.range(0, dataColumns).toArray();
        if (plainCount > 0) {
            inserts.appendPage(page.getColumns(data).getPositions(plain, 0, plainCount));
        }
        if (updatedCount > 0) {
            Page rows = page.getPositions(updated, 0, updatedCount);
            Block[] blocks = new Block[dataColumns + 1];
            for (int i = 0; i < dataColumns; i++) {
                blocks[i] = rows.getBlock(i);
            }
            blocks[dataColumns] = MergeRowId.rowIds(rows.getBlock(dataColumns + 2));
            updates.appendPage(new Page(updatedCount, blocks));
        }
    }

    @Override
    public CompletableFuture<Collection<Slice>> finish()
    {
        List<Slice> fragments = new ArrayList<>();
        fragments.addAll(inserts.finish().join());
        fragments.addAll(updates.finish().join());
        if (!fileIds.isEmpty() || !inlinedRowIds.isEmpty()) {
            fragments.add(WriteFragment.deletes(new WriteFragment.Deletes(fileIds.stream().mapToLong(Long::longValue).toArray(), positions.stream().mapToLong(Long::longValue).toArray(),
                    inlinedRowIds.stream().mapToLong(Long::longValue).toArray())).toSlice());
        }
        return CompletableFuture.completedFuture(fragments);
    }

    @Override
    public void abort()
    {
        inserts.abort();
        updates.abort();
    }
}
