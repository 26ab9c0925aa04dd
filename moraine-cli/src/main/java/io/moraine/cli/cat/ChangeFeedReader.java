package io.moraine.cli.cat;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.changes.ChangeFeed;
import io.moraine.core.changes.ChangeTask;
import io.moraine.core.changes.DeletedRowsTask;
import io.moraine.core.changes.InlinedChangesTask;
import io.moraine.core.changes.InsertedRowsTask;
import io.moraine.core.inline.read.InlineReader;
import io.moraine.core.inline.read.InlinedRowsReader;
import io.moraine.core.io.LakeFileSystem;
import io.moraine.core.types.TableColumn;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

import java.util.List;

/**
 * Reads every change row of a planned {@link ChangeFeed}, engine-free: data-file tasks with parquet-java, the inlined
 * tasks with the inline reader. {@code end} must be the snapshot the feed was planned on, open while it is read.
 */
public final class ChangeFeedReader
{
    private final CatalogSnapshot end;
    private final ChangeFeed feed;
    private final LakeFileSystem files;
    private final DecodedFiles decoded;

    public ChangeFeedReader(CatalogSnapshot end, ChangeFeed feed, LakeFileSystem files)
    {
        this(end, feed, files, DecodedFiles.none());
    }

    /** A reader that takes decoded data files from {@code decoded} (shared by the readers of several feeds of one lake). */
    public ChangeFeedReader(CatalogSnapshot end, ChangeFeed feed, LakeFileSystem files, DecodedFiles decoded)
    {
        this.end = end;
        this.feed = feed;
        this.files = files;
        this.decoded = decoded;
    }

    /** The columns of each row, in order: the table's at the end snapshot. */
    public List<TableColumn> columns()
    {
        return feed.tableSchema().columns();
    }

    /** Hands every insertion and deletion row to {@code sink}, task by task. */
    public void read(ChangeRowSink sink)
    {
        String table = TableNames.of(end, feed.tableId());
        try (BufferAllocator allocator = new RootAllocator()) {
            for (ChangeTask task : feed.planTasks()) {
                switch (task) {
                    case InsertedRowsTask inserted -> ChangeFileRows.insertions(inserted, table, columns(), files).read(sink, decoded);
                    case DeletedRowsTask deleted -> ChangeFileRows.deletions(deleted, table, columns(), files).ifPresent(rows -> rows.read(sink, decoded));
                    case InlinedChangesTask inlined -> readInlined(inlined, allocator, sink);
                }
            }
        }
    }

    private void readInlined(InlinedChangesTask task, BufferAllocator allocator, ChangeRowSink sink)
    {
        try (InlinedRowsReader reader = InlinedRowsReader.openChanges(end, task, columns(), InlineReader.DEFAULT_WINDOW_ROWS, allocator)) {
            while (reader.hasNext()) {
                InlinedRowsReader.Batch batch = reader.next();
                for (int row = 0; row < batch.rows(); row++) {
                    Object[] values = new Object[columns().size()];
                    for (int i = 0; i < values.length; i++) {
                        values[i] = batch.vector(i) != null
                                ? ArrowValues.value(columns().get(i), batch.writtenAs(i), batch.vector(i), row)
                                : CellValues.missing(columns().get(i));
                    }
                    long snapshot = switch (task.kind()) {
                        case INSERTION -> batch.beginSnapshots().get(row);
                        case DELETION -> batch.endSnapshots().get(row);
                    };
                    sink.accept(task.kind(), snapshot, batch.rowIds().get(row), values);
                }
            }
        }
    }
}
