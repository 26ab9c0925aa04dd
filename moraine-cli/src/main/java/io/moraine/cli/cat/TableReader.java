package io.moraine.cli.cat;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.io.LakeFileSystem;
import io.moraine.core.scan.DataFileTask;
import io.moraine.core.scan.InlinedRowsTask;
import io.moraine.core.scan.Scan;
import io.moraine.core.scan.TaskStream;
import io.moraine.core.types.TableColumn;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

import java.util.List;

/**
 * Reads every visible row of a planned {@link Scan}, engine-free: data-file tasks with parquet-java, the inlined-rows
 * task with the inline reader. The snapshot must be the one the scan was built on, and stay open while it is read.
 */
public final class TableReader
{
    private final CatalogSnapshot snapshot;
    private final Scan scan;
    private final LakeFileSystem files;
    private final String table;

    public TableReader(CatalogSnapshot snapshot, Scan scan, LakeFileSystem files)
    {
        this.snapshot = snapshot;
        this.scan = scan;
        this.files = files;
        this.table = TableNames.of(snapshot, scan.tableId());
    }

    /** The columns of each row, in order: the scan's read schema. */
    public List<TableColumn> columns()
    {
        return scan.readSchema().columns();
    }

    /** Hands every visible row to {@code sink}, task by task. */
    public void read(RowSink sink)
    {
        try (TaskStream tasks = scan.planTasks(); BufferAllocator allocator = new RootAllocator()) {
            while (tasks.hasNext()) {
                switch (tasks.next()) {
                    case DataFileTask file -> new DataFileRows(file, table, columns(), files).read(sink);
                    case InlinedRowsTask inlined -> new InlinedRows(snapshot, inlined, columns(), allocator).read(sink);
                }
            }
        }
    }
}
