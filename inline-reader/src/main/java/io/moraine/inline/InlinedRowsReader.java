package io.moraine.inline;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.error.CommitConflictException;
import io.moraine.core.scan.InlinedRowsTask;
import io.moraine.core.scan.InlinedVersionColumns;
import io.moraine.core.types.TableColumn;
import io.moraine.core.types.TableSchema;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads a scan's inlined-rows task: the table's live inlined rows at the task's snapshot, as Arrow batches whose
 * columns are the read columns, found by column id. The inline reader names a batch's columns as its schema version
 * named them, so after a rename the names at the read snapshot would miss them; ids never change, and each version's
 * columns come from the catalog ({@link InlinedVersionColumns}). A column a version lacks is absent from its batches
 * (the engine reads its initial default).
 */
public final class InlinedRowsReader
        implements AutoCloseable
{
    /** One batch: its rows, and for each read column its vector and the column as the batch's version wrote it (or null). */
    public record Batch(int rows, List<FieldVector> vectors, List<TableColumn> writtenAs)
    {
        /** The vector of read column {@code index}, or null when the batch's schema version lacks the column. */
        public FieldVector vector(int index)
        {
            return vectors.get(index);
        }

        /** Read column {@code index} as the batch's schema version named and typed it (struct field names included), or null. */
        public TableColumn writtenAs(int index)
        {
            return writtenAs.get(index);
        }
    }

    private final CatalogSnapshot snapshot;
    private final InlinedRowsTask task;
    private final List<TableColumn> columns;
    private final Map<Long, Map<Long, TableColumn>> versionColumns = new HashMap<>();
    private final InlineScan scan;

    private InlinedRowsReader(CatalogSnapshot snapshot, InlinedRowsTask task, List<TableColumn> columns, int windowRows, BufferAllocator allocator)
    {
        this.snapshot = snapshot;
        this.task = task;
        this.columns = List.copyOf(columns);
        this.scan = InlineReader.scan(snapshot.reader(), task.tableId(), new InlineSelection.AtSnapshot(task.snapshotId()), Optional.of(projection()),
                windowRows, allocator);
    }

    /**
     * The rows of {@code task}, read through {@code snapshot} (open at the task's snapshot), with {@code columns} (the
     * scan's read columns). Refused when a flush committed after the scan was planned moved the table's inlined rows into
     * data files the plan does not have (reference §11 item 21): the engine would miss them.
     */
    public static InlinedRowsReader open(CatalogSnapshot snapshot, InlinedRowsTask task, List<TableColumn> columns, int windowRows, BufferAllocator allocator)
    {
        if (snapshot.inlinedDataFlushedSince(task.tableId(), task.plannedHead())) {
            throw new CommitConflictException("read conflict: the inlined rows of table " + task.tableId() + " were flushed to data files while this query ran "
                    + "(after snapshot " + task.plannedHead() + "), so its plan misses them; run the query again");
        }
        return new InlinedRowsReader(snapshot, task, columns, windowRows, allocator);
    }

    public boolean hasNext()
    {
        return scan.hasNext();
    }

    /** The next batch; its vectors are valid until the following call or {@link #close()}. */
    public Batch next()
    {
        InlineBatch batch = scan.next();
        Map<Long, TableColumn> written = writtenColumns(batch.schemaVersion());
        VectorSchemaRoot root = batch.root();
        Set<String> present = new LinkedHashSet<>(root.getSchema().getFields().stream().map(Field::getName).toList());
        FieldVector[] vectors = new FieldVector[columns.size()];
        TableColumn[] writtenAs = new TableColumn[columns.size()];
        for (int i = 0; i < columns.size(); i++) {
            TableColumn column = written.get(columns.get(i).columnId());
            if (column != null && present.contains(column.name())) {
                vectors[i] = root.getVector(column.name());
                writtenAs[i] = column;
            }
        }
        return new Batch(root.getRowCount(), java.util.Arrays.asList(vectors), java.util.Arrays.asList(writtenAs));
    }

    /** Bytes of chunk bodies read from the store so far. */
    public long bodiesRead()
    {
        return scan.bodiesRead();
    }

    /** Bytes of decoded rows held now. */
    public long residentBytes()
    {
        return scan.residentBytes();
    }

    @Override
    public void close()
    {
        scan.close();
    }

    /** The names the read columns have in any of the table's inlined schema versions. */
    private List<String> projection()
    {
        Set<String> names = new LinkedHashSet<>();
        for (long version : task.schemaVersions()) {
            Map<Long, TableColumn> written = writtenColumns(version);
            for (TableColumn column : columns) {
                names.add(written.getOrDefault(column.columnId(), column).name());
            }
        }
        return List.copyOf(names);
    }

    /** The columns of a schema version by id; the read columns themselves when the version's history is gone. */
    private Map<Long, TableColumn> writtenColumns(long schemaVersion)
    {
        // Rows inlined under the snapshot's own schema version have the read columns' names: nothing to look up.
        return versionColumns.computeIfAbsent(schemaVersion, version -> (version == snapshot.schemaVersion()
                ? Optional.<TableSchema>empty()
                : InlinedVersionColumns.of(snapshot, task.tableId(), version))
                .orElseGet(() -> new TableSchema(columns))
                .byId());
    }
}
