package io.moraine.core.scan;

import io.moraine.core.io.LakeFileSystem;
import org.roaringbitmap.longlong.Roaring64Bitmap;

/**
 * Which rows of one data file a snapshot sees (reference §4.4, §4.5), written once for every engine: none of the
 * positions deleted at the snapshot — by the visible delete file (each entry filtered by its own snapshot when the file
 * records them) or by inlined deletes — and, for a file holding newer rows (a flush or merge output), only rows whose
 * embedded snapshot is at or before it. Engines read the file with their own reader, asking for the row positions this
 * names and the hidden fields {@link HiddenFields#forScan} finds (it refuses a partial file without its snapshot
 * column), and call {@link #select} per batch.
 */
public final class VisibleRows
{
    /** One long per row of a batch: a row position or an embedded snapshot id, however the engine holds it. */
    @FunctionalInterface
    public interface LongColumn
    {
        long get(int row);
    }

    private final Roaring64Bitmap deleted;
    private final long snapshotId;
    private final boolean filterBySnapshot;

    private VisibleRows(Roaring64Bitmap deleted, long snapshotId, boolean filterBySnapshot)
    {
        this.deleted = deleted;
        this.snapshotId = snapshotId;
        this.filterBySnapshot = filterBySnapshot;
    }

    /** The visible rows of {@code task}'s file at its snapshot; reads its delete files through {@code files}. */
    public static VisibleRows of(DataFileTask task, LakeFileSystem files)
    {
        Roaring64Bitmap deleted = new Roaring64Bitmap();
        for (DeleteFileRef deleteFile : task.deleteFiles()) {
            DeleteFiles.read(files, deleteFile, (position, deletedAt) -> {
                if (deletedAt <= task.snapshotId()) {
                    deleted.addLong(position);
                }
            });
        }
        for (long position : task.inlinedDeletes()) {
            deleted.addLong(position);
        }
        return new VisibleRows(deleted, task.snapshotId(), task.filtersRowsBySnapshot());
    }

    /** Whether every row read survives: then no positions or snapshots are needed and batches pass through unchanged. */
    public boolean keepsEveryRow()
    {
        return deleted.isEmpty() && !filterBySnapshot;
    }

    /** Whether the engine must hand over each row's file position (some position is deleted). */
    public boolean needsPositions()
    {
        return !deleted.isEmpty();
    }

    /** Whether the engine must read the hidden {@code _ducklake_internal_snapshot_id} ({@link DataFileTask#SNAPSHOT_ID_FIELD_ID}). */
    public boolean needsRowSnapshots()
    {
        return filterBySnapshot;
    }

    /** How many positions are deleted at the snapshot. */
    public long deletedCount()
    {
        return deleted.getLongCardinality();
    }

    /**
     * Writes the indexes (0-based, ascending) of the surviving rows of a batch of {@code rows} into {@code survivors}
     * and returns how many there are. {@code positions} is read only when {@link #needsPositions()}, {@code rowSnapshots}
     * only when {@link #needsRowSnapshots()}; either may then be null.
     */
    public int select(int rows, LongColumn positions, LongColumn rowSnapshots, int[] survivors)
    {
        int kept = 0;
        boolean checkDeleted = !deleted.isEmpty();
        for (int row = 0; row < rows; row++) {
            if (checkDeleted && deleted.contains(positions.get(row))) {
                continue;
            }
            if (filterBySnapshot && rowSnapshots.get(row) > snapshotId) {
                continue;
            }
            survivors[kept++] = row;
        }
        return kept;
    }
}
