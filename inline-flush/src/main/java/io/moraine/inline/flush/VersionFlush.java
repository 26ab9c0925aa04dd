package io.moraine.inline.flush;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.inline.read.InlineBatch;
import io.moraine.core.inline.read.InlineReader;
import io.moraine.core.inline.read.InlineScan;
import io.moraine.core.inline.read.InlineSelection;
import io.moraine.core.row.ColumnNode;
import io.moraine.core.catalog.PartitionSpec;
import io.moraine.core.error.CorruptionException;
import io.moraine.core.io.LakeFileSystem;
import io.moraine.core.inline.RowIdMultiset;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.util.TransferPair;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Writes every inlined row version of one (table, schema version) that began at or before the flush snapshot into
 * data files: one per partition value tuple of the version's partition spec (a single file when unpartitioned), rows
 * in the table's current sort order when it has one, else in scan order.
 */
final class VersionFlush
{
    private static final int WINDOW_ROWS = 8192;

    /** The files written for the version and every row id they hold (what the drain must remove). */
    record Written(List<FlushFile> files, RowIdMultiset rowIds) {}

    /** Where rows go: the lake's files, the table's path, the version's partitioning and whether files go under hive directories. */
    record Layout(LakeFileSystem files, String tablePath, Optional<PartitionSpec> partitioning, boolean hiveDirectories) {}

    private VersionFlush() {}

    static Written write(CatalogSnapshot snapshot, BufferAllocator allocator, long tableId, long version, List<ColumnNode> columns, Layout layout,
            Optional<FlushSortOrder> sortOrder, long head)
            throws IOException
    {
        Router router = new Router(layout, columns);
        RowIdMultiset rowIds = new RowIdMultiset();
        List<FieldVector> retained = new ArrayList<>();
        boolean done = false;
        try (InlineScan scan = InlineReader.scanVersion(snapshot.reader(), tableId, version, new InlineSelection.ForFlush(head), Optional.empty(), WINDOW_ROWS, allocator)) {
            // A sort needs every row of the version before the first is written: the batches are kept in memory
            // (transferred out of the scan's window); without a sort the rows stream through.
            List<FlushRow> sorted = new ArrayList<>();
            List<Field> userFields = null;
            long scanned = 0;
            while (scan.hasNext()) {
                InlineBatch batch = scan.next();
                List<FieldVector> vectors = batch.root().getFieldVectors();
                if (sortOrder.isPresent()) {
                    vectors = vectors.stream().map(vector -> keep(vector, allocator, retained)).toList();
                }
                List<FieldVector> user = vectors.subList(0, vectors.size() - 3);
                userFields = user.stream().map(FieldVector::getField).toList();
                BigIntVector ids = (BigIntVector) vectors.get(vectors.size() - 3);
                BigIntVector begins = (BigIntVector) vectors.get(vectors.size() - 2);
                BigIntVector ends = (BigIntVector) vectors.get(vectors.size() - 1);
                for (int i = 0; i < batch.root().getRowCount(); i++) {
                    FlushRow row = new FlushRow(user, i, ids.get(i), begins.get(i), ends.isNull(i) ? null : ends.get(i));
                    rowIds.add(row.rowId());
                    scanned++;
                    if (sortOrder.isPresent()) {
                        sorted.add(row);
                    }
                    else {
                        router.fileFor(row).write(row, head);
                    }
                }
            }
            if (sortOrder.isPresent() && userFields != null) {
                sorted.sort(sortOrder.get().comparator(userFields));
                for (FlushRow row : sorted) {
                    router.fileFor(row).write(row, head);
                }
            }
            if (scanned != scan.selectedRows()) {
                throw new CorruptionException("flush of table " + tableId + " version " + version + " read " + scanned + " rows but "
                        + "selected " + scan.selectedRows() + " from the inline chunks; nothing was committed");
            }
            done = true;
            return new Written(List.copyOf(router.files.values()), rowIds);
        }
        finally {
            if (!done) {
                for (FlushFile file : router.files.values()) {
                    file.close();
                }
            }
            try {
                AutoCloseables.close(retained);
            }
            catch (Exception e) {
                throw new IllegalStateException("releasing the flush's sort buffers failed", e);
            }
        }
    }

    private static FieldVector keep(FieldVector vector, BufferAllocator allocator, List<FieldVector> retained)
    {
        TransferPair transfer = vector.getTransferPair(allocator);
        transfer.transfer();
        FieldVector kept = (FieldVector) transfer.getTo();
        retained.add(kept);
        return kept;
    }

    /** Picks each row's file by its partition key texts, opening one file per new tuple. */
    private static final class Router
    {
        private final Layout layout;
        private final List<ColumnNode> columns;
        private final Map<List<String>, FlushFile> files = new LinkedHashMap<>();
        private Map<Long, Integer> vectorOfColumn;

        Router(Layout layout, List<ColumnNode> columns)
        {
            this.layout = layout;
            this.columns = columns;
        }

        FlushFile fileFor(FlushRow row)
        {
            if (layout.partitioning().isEmpty()) {
                return files.computeIfAbsent(List.of(), values -> new FlushFile(layout.files(), layout.tablePath(), "", values, columns));
            }
            PartitionSpec spec = layout.partitioning().get();
            if (vectorOfColumn == null) {
                vectorOfColumn = vectorsByColumnId(row.columns());
            }
            List<String> values = spec.valueTexts(columnId -> {
                PartitionSpec.Key key = spec.keys().stream().filter(k -> k.columnId() == columnId).findFirst().orElseThrow();
                return FlushCellValues.of(row.columns().get(vectorOfColumn.get(columnId)), row.index(), key.columnType());
            });
            return files.computeIfAbsent(values, tuple -> new FlushFile(layout.files(), layout.tablePath(),
                    layout.hiveDirectories() ? spec.hiveDirectory(tuple) : "", tuple, columns));
        }

        private Map<Long, Integer> vectorsByColumnId(List<FieldVector> user)
        {
            Map<Long, Integer> byId = new HashMap<>();
            for (ColumnNode column : columns) {
                for (int i = 0; i < user.size(); i++) {
                    if (user.get(i).getField().getName().equals(column.name())) {
                        byId.put(column.columnId(), i);
                    }
                }
            }
            return byId;
        }
    }
}
