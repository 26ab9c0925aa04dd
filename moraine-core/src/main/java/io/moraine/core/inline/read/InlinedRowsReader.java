package io.moraine.core.inline.read;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.error.CommitConflictException;
import io.moraine.core.error.CorruptionException;
import io.moraine.core.changes.InlinedChangesTask;
import io.moraine.core.scan.InlinedRowsTask;
import io.moraine.core.scan.InlinedVersionColumns;
import io.moraine.core.types.TableColumn;
import io.moraine.core.types.TableSchema;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
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
        implements InlinedBatchSource
{
    /**
     * One batch: its rows, for each read column its vector and the column as the batch's version wrote it (or null), and
     * each row's {@code row_id}, {@code begin_snapshot} and {@code end_snapshot} (NULL while live, and in reads that do
     * not need ends).
     */
    public record Batch(int rows, List<FieldVector> vectors, List<TableColumn> writtenAs, BigIntVector rowIds, BigIntVector beginSnapshots,
            BigIntVector endSnapshots)
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
    private final long tableId;
    private final List<Long> schemaVersions;
    private final List<TableColumn> columns;
    private final Map<Long, Map<Long, TableColumn>> versionColumns = new HashMap<>();
    private final InlineScan scan;
    private final long plannedHead;

    private InlinedRowsReader(CatalogSnapshot snapshot, long tableId, long plannedHead, List<Long> schemaVersions, InlineSelection selection,
            List<TableColumn> columns, int windowRows, BufferAllocator allocator)
    {
        this.snapshot = snapshot;
        this.tableId = tableId;
        this.plannedHead = plannedHead;
        this.schemaVersions = List.copyOf(schemaVersions);
        this.columns = List.copyOf(columns);
        this.scan = InlineReader.scan(snapshot.reader(), tableId, selection, Optional.of(projection()), windowRows, allocator);
    }

    /**
     * The rows of {@code task}, read through {@code snapshot} (open at the task's snapshot), with {@code columns} (the
     * scan's read columns). Refused when a flush committed after the scan was planned moved the table's inlined rows into
     * data files the plan does not have (reference §11 item 21): the engine would miss them.
     */
    public static InlinedRowsReader open(CatalogSnapshot snapshot, InlinedRowsTask task, List<TableColumn> columns, int windowRows, BufferAllocator allocator)
    {
        requireNotFlushedSince(snapshot, task.tableId(), task.plannedHead());
        return new InlinedRowsReader(snapshot, task.tableId(), task.plannedHead(), task.schemaVersions(), new InlineSelection.AtSnapshot(task.snapshotId()),
                columns, windowRows, allocator);
    }

    /**
     * One side of a change feed's inlined rows ({@code task}), read through {@code snapshot} (open at the feed's end
     * snapshot) with {@code columns} (the table's columns there): insertions select rows by {@code begin_snapshot},
     * deletions by {@code end_snapshot}, each in the task's range; that column is a row's {@code snapshot_id}. Refused,
     * as {@link #open} is, when a flush since planning moved the rows.
     */
    public static InlinedRowsReader openChanges(CatalogSnapshot snapshot, InlinedChangesTask task, List<TableColumn> columns, int windowRows,
            BufferAllocator allocator)
    {
        requireNotFlushedSince(snapshot, task.tableId(), task.plannedHead());
        InlineSelection selection = switch (task.kind()) {
            case INSERTION -> new InlineSelection.InsertedBetween(task.fromSnapshot(), task.toSnapshot());
            case DELETION -> new InlineSelection.DeletedBetween(task.fromSnapshot(), task.toSnapshot());
        };
        return new InlinedRowsReader(snapshot, task.tableId(), task.plannedHead(), task.schemaVersions(), selection, columns, windowRows, allocator);
    }

    /**
     * Refuses, as {@link #open} does, when a flush committed after {@code task} was planned: for a reader that read the
     * rows while the plan's data files were still being listed, once the listing is done (a file listed after the
     * flush may hold the rows read before it).
     */
    public static void requireNotFlushedSince(CatalogSnapshot snapshot, InlinedRowsTask task)
    {
        requireNotFlushedSince(snapshot, task.tableId(), task.plannedHead());
    }

    private static void requireNotFlushedSince(CatalogSnapshot snapshot, long tableId, long plannedHead)
    {
        if (snapshot.inlinedDataFlushedSince(tableId, plannedHead)) {
            throw new CommitConflictException("read conflict: the inlined rows of table " + tableId + " were flushed to data files while this query ran "
                    + "(after snapshot " + plannedHead + "), so its plan misses them; run the query again");
        }
    }

    @Override
    public boolean hasNext()
    {
        return scan.hasNext();
    }

    /** The next batch; its vectors are valid until the following call or {@link #close()}. */
    @Override
    public Batch next()
    {
        InlineBatch batch;
        try {
            batch = scan.next();
        }
        catch (CorruptionException e) {
            // A flush since planning drains the chunks whose bodies a later window reads: say so, not that the store is damaged.
            requireNotFlushedSince(snapshot, tableId, plannedHead);
            throw e;
        }
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
        return new Batch(root.getRowCount(), java.util.Arrays.asList(vectors), java.util.Arrays.asList(writtenAs),
                (BigIntVector) root.getVector(InlineScan.ROW_ID.getName()), (BigIntVector) root.getVector(InlineScan.BEGIN_SNAPSHOT.getName()),
                (BigIntVector) root.getVector(InlineScan.END_SNAPSHOT.getName()));
    }

    /** Bytes of chunk bodies read from the store so far. */
    public long bodiesRead()
    {
        return scan.bodiesRead();
    }

    /** Bytes of decoded rows held now. */
    @Override
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
        for (long version : schemaVersions) {
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
                : InlinedVersionColumns.of(snapshot, tableId, version))
                .orElseGet(() -> new TableSchema(columns))
                .byId());
    }
}
