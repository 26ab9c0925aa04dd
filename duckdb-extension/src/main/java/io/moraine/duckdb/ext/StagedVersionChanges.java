package io.moraine.duckdb.ext;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.util.TransferPair;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * What one transaction's UPDATE ... SET end_snapshot and DELETE staged for the row versions of an inlined data table,
 * frozen when a scan opens, so that the scan shows the table as the transaction left it: a deleted version is gone, an
 * ended live row carries its staged end_snapshot. Lookups are binary searches over sorted arrays; a scan of a table
 * with nothing staged pays nothing per row.
 */
final class StagedVersionChanges
{
    static final StagedVersionChanges NONE = new StagedVersionChanges(new long[0], new long[0], new long[0]);

    // Deleted versions as DuckDB row ids ({@link InlinedDataTable#versionRowId}), sorted.
    private final long[] deletedVersions;
    // Ended row ids, sorted, and the end_snapshot staged for each.
    private final long[] endedRowIds;
    private final long[] endSnapshots;

    private StagedVersionChanges(long[] deletedVersions, long[] endedRowIds, long[] endSnapshots)
    {
        this.deletedVersions = deletedVersions;
        this.endedRowIds = endedRowIds;
        this.endSnapshots = endSnapshots;
    }

    static StagedVersionChanges of(List<Long> deletedVersions, Map<Long, Long> endedRows)
    {
        if (deletedVersions.isEmpty() && endedRows.isEmpty()) {
            return NONE;
        }
        long[] deleted = deletedVersions.stream().mapToLong(Long::longValue).sorted().toArray();
        long[] rowIds = endedRows.keySet().stream().mapToLong(Long::longValue).sorted().toArray();
        long[] ends = new long[rowIds.length];
        for (int i = 0; i < rowIds.length; i++) {
            ends[i] = endedRows.get(rowIds[i]);
        }
        return new StagedVersionChanges(deleted, rowIds, ends);
    }

    boolean isEmpty()
    {
        return deletedVersions.length == 0 && endedRowIds.length == 0;
    }

    /**
     * {@code root} as the transaction sees it: {@code root} itself when no row of it was changed, else a new root
     * (the caller closes it) without the deleted versions and with the staged end_snapshot of each ended live row.
     * The three column indexes name row_id, begin_snapshot and end_snapshot in {@code root}.
     */
    VectorSchemaRoot applyTo(VectorSchemaRoot root, int rowIdColumn, int beginColumn, int endColumn, BufferAllocator allocator)
    {
        if (isEmpty()) {
            return root;
        }
        BigIntVector rowIds = (BigIntVector) root.getVector(rowIdColumn);
        BigIntVector begins = (BigIntVector) root.getVector(beginColumn);
        BigIntVector ends = (BigIntVector) root.getVector(endColumn);
        int rows = root.getRowCount();
        int[] kept = new int[rows];
        int keptCount = 0;
        boolean endsChanged = false;
        for (int row = 0; row < rows; row++) {
            if (rowIds.isNull(row)) {
                // Only a staged insert can lack a row id; the commit refuses it.
                kept[keptCount++] = row;
                continue;
            }
            long rowId = rowIds.get(row);
            if (deletedVersions.length > 0 && !begins.isNull(row) && isDeleted(rowId, begins.get(row))) {
                continue;
            }
            kept[keptCount++] = row;
            endsChanged |= ends.isNull(row) && stagedEnd(rowId) >= 0;
        }
        if (keptCount == rows && !endsChanged) {
            return root;
        }
        List<FieldVector> vectors = new ArrayList<>();
        for (FieldVector source : root.getFieldVectors()) {
            vectors.add(source == ends ? endedCopy(ends, rowIds, kept, keptCount, allocator) : selectedCopy(source, kept, keptCount, allocator));
        }
        return new VectorSchemaRoot(vectors.stream().map(FieldVector::getField).toList(), vectors, keptCount);
    }

    private boolean isDeleted(long rowId, long beginSnapshot)
    {
        // A version beyond what a DuckDB row id addresses was never named by a DELETE.
        return InlinedDataTable.isAddressable(rowId, beginSnapshot)
                && Arrays.binarySearch(deletedVersions, InlinedDataTable.versionRowId(rowId, beginSnapshot)) >= 0;
    }

    /** The index of {@code rowId}'s staged end in {@link #endSnapshots}, negative when none was staged. */
    private int stagedEnd(long rowId)
    {
        return endedRowIds.length == 0 ? -1 : Arrays.binarySearch(endedRowIds, rowId);
    }

    private static FieldVector selectedCopy(FieldVector source, int[] kept, int keptCount, BufferAllocator allocator)
    {
        TransferPair pair = source.getTransferPair(allocator);
        FieldVector copy = (FieldVector) pair.getTo();
        copy.setInitialCapacity(keptCount);
        copy.allocateNew();
        for (int i = 0; i < keptCount; i++) {
            pair.copyValueSafe(kept[i], i);
        }
        copy.setValueCount(keptCount);
        return copy;
    }

    private FieldVector endedCopy(BigIntVector ends, BigIntVector rowIds, int[] kept, int keptCount, BufferAllocator allocator)
    {
        BigIntVector copy = new BigIntVector(ends.getField(), allocator);
        copy.allocateNew(keptCount);
        for (int i = 0; i < keptCount; i++) {
            int row = kept[i];
            int staged = ends.isNull(row) && !rowIds.isNull(row) ? stagedEnd(rowIds.get(row)) : -1;
            if (staged >= 0) {
                copy.set(i, endSnapshots[staged]);
            }
            else if (!ends.isNull(row)) {
                copy.set(i, ends.get(row));
            }
        }
        copy.setValueCount(keptCount);
        return copy;
    }
}
