package io.moraine.examples.cat;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.Row;
import io.moraine.core.scan.InlinedRowsTask;
import io.moraine.core.scan.InlinedVersionColumns;
import io.moraine.core.types.TableColumn;
import io.moraine.core.types.TableSchema;
import io.moraine.inline.InlineBatch;
import io.moraine.inline.InlineReader;
import io.moraine.inline.InlineScan;
import io.moraine.inline.InlinedRowsReader;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads an {@link InlinedRowsTask}: the inline reader's Arrow batches hold exactly the live inlined rows at the
 * snapshot, one schema version per batch, its columns named as that version named them. Each read column is found in
 * a batch by its column id through the version's columns ({@link InlinedVersionColumns}); a column the version lacks
 * reads as its default.
 */
final class InlinedRows
{
    private final CatalogSnapshot snapshot;
    private final InlinedRowsTask task;
    private final List<TableColumn> columns;
    private final BufferAllocator allocator;
    private final Map<Long, Map<Long, TableColumn>> versionColumns = new HashMap<>();

    InlinedRows(CatalogSnapshot snapshot, InlinedRowsTask task, List<TableColumn> columns, BufferAllocator allocator)
    {
        this.snapshot = snapshot;
        this.task = task;
        this.columns = List.copyOf(columns);
        this.allocator = allocator;
    }

    void read(RowSink sink)
    {
        try (InlineScan scan = InlinedRowsReader.open(snapshot, task, Optional.of(projection()), InlineReader.DEFAULT_WINDOW_ROWS, allocator)) {
            while (scan.hasNext()) {
                InlineBatch batch = scan.next();
                readBatch(writtenColumns(batch.schemaVersion()), batch.root(), sink);
            }
        }
    }

    /** The names the read columns have in any of the table's inlined schema versions. */
    private List<String> projection()
    {
        Set<String> names = new LinkedHashSet<>();
        for (Row registration : snapshot.inlinedDataTables(task.tableId())) {
            Map<Long, TableColumn> written = writtenColumns(registration.getLong("schema_version"));
            for (TableColumn column : columns) {
                names.add(written.getOrDefault(column.columnId(), column).name());
            }
        }
        return List.copyOf(names);
    }

    /** The columns of a schema version by id; the read columns themselves when the version's history is gone. */
    private Map<Long, TableColumn> writtenColumns(long schemaVersion)
    {
        return versionColumns.computeIfAbsent(schemaVersion, version -> InlinedVersionColumns.of(snapshot, task.tableId(), version)
                .orElseGet(() -> new TableSchema(columns))
                .byId());
    }

    private void readBatch(Map<Long, TableColumn> written, VectorSchemaRoot root, RowSink sink)
    {
        List<String> batchColumns = root.getSchema().getFields().stream().map(Field::getName).toList();
        for (int row = 0; row < root.getRowCount(); row++) {
            Object[] values = new Object[columns.size()];
            for (int i = 0; i < values.length; i++) {
                TableColumn column = columns.get(i);
                TableColumn writtenAs = written.get(column.columnId());
                values[i] = writtenAs != null && batchColumns.contains(writtenAs.name())
                        ? ArrowValues.value(column, writtenAs, root.getVector(writtenAs.name()), row)
                        : CellValues.missing(column);
            }
            sink.accept(values);
        }
    }
}
