package io.moraine.inline;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.error.CommitConflictException;
import io.moraine.core.scan.InlinedRowsTask;
import org.apache.arrow.memory.BufferAllocator;

import java.util.List;
import java.util.Optional;

/** Opens a scan's inlined-rows task: the table's live inlined rows at the task's snapshot, as Arrow batches. */
public final class InlinedRowsReader
{
    private InlinedRowsReader() {}

    /**
     * The rows of {@code task}, read through {@code snapshot} (open at the task's snapshot), with the columns named in
     * {@code projection} (empty: all). Refused when a flush committed after the scan was planned moved the table's
     * inlined rows into data files the plan does not have (reference §11 item 21): the engine would miss them.
     */
    public static InlineScan open(CatalogSnapshot snapshot, InlinedRowsTask task, Optional<List<String>> projection, int windowRows, BufferAllocator allocator)
    {
        if (snapshot.inlinedDataFlushedSince(task.tableId(), task.plannedHead())) {
            throw new CommitConflictException("read conflict: the inlined rows of table " + task.tableId() + " were flushed to data files while this query ran (after snapshot "
                    + task.plannedHead() + "), so its plan misses them; run the query again");
        }
        return InlineReader.scan(snapshot.reader(), task.tableId(), new InlineSelection.AtSnapshot(task.snapshotId()), projection, windowRows, allocator);
    }
}
