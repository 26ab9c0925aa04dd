package io.moraine.cli.cat;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.inline.read.InlineReader;
import io.moraine.core.inline.read.InlinedRowsReader;
import io.moraine.core.scan.InlinedRowsTask;
import io.moraine.core.types.TableColumn;
import org.apache.arrow.memory.BufferAllocator;

import java.util.List;

/**
 * Reads an {@link InlinedRowsTask} with the inline reader, whose batches hold exactly the live inlined rows at the
 * snapshot with the read columns found by id; a column a batch's schema version lacks reads as its default.
 */
final class InlinedRows
{
    private final CatalogSnapshot snapshot;
    private final InlinedRowsTask task;
    private final List<TableColumn> columns;
    private final BufferAllocator allocator;

    InlinedRows(CatalogSnapshot snapshot, InlinedRowsTask task, List<TableColumn> columns, BufferAllocator allocator)
    {
        this.snapshot = snapshot;
        this.task = task;
        this.columns = List.copyOf(columns);
        this.allocator = allocator;
    }

    void read(RowSink sink)
    {
        try (InlinedRowsReader reader = InlinedRowsReader.open(snapshot, task, columns, InlineReader.DEFAULT_WINDOW_ROWS, allocator)) {
            while (reader.hasNext()) {
                InlinedRowsReader.Batch batch = reader.next();
                for (int row = 0; row < batch.rows(); row++) {
                    Object[] values = new Object[columns.size()];
                    for (int i = 0; i < values.length; i++) {
                        values[i] = batch.vector(i) != null
                                ? ArrowValues.value(columns.get(i), batch.writtenAs(i), batch.vector(i), row)
                                : CellValues.missing(columns.get(i));
                    }
                    sink.accept(values);
                }
            }
        }
    }
}
