package io.moraine.inline;


import java.util.TreeSet;

/**
 * Which rows of one data file a snapshot sees (reference §4.4, §4.6): none of its positions deleted at the snapshot,
 * and, for a partial file ({@code partial_max} after the snapshot), only rows whose embedded snapshot id is at or
 * before it. Engines read the file and ask this for each row; the rule lives here once.
 */
public final class DataFileVisibility
{
    /** Field id of the hidden {@code _ducklake_internal_row_id} column. */
    public static final int ROW_ID_FIELD_ID = 2147483540;
    /** Field id of the hidden {@code _ducklake_internal_snapshot_id} column a partial file carries. */
    public static final int SNAPSHOT_ID_FIELD_ID = 2147483539;

    private final TreeSet<Long> deleted;
    private final long snapshotId;
    private final boolean filterBySnapshot;

    private DataFileVisibility(TreeSet<Long> deleted, long snapshotId, boolean filterBySnapshot)
    {
        this.deleted = deleted;
        this.snapshotId = snapshotId;
        this.filterBySnapshot = filterBySnapshot;
    }

    /** The visibility of a planned file at {@code snapshotId}; reads its delete files through {@code files}. */
    public static DataFileVisibility of(PlannedDataFile file, long snapshotId, DataFiles files)
    {
        return new DataFileVisibility(DeletedPositions.of(file, snapshotId, files), snapshotId,
                file.partialMax().isPresent() && file.partialMax().getAsLong() > snapshotId);
    }

    /** Whether any position of the file is deleted at the snapshot: only then do readers need each row's position. */
    public boolean hasDeletedPositions()
    {
        return !deleted.isEmpty();
    }

    /** Whether rows must be checked against their {@code _ducklake_internal_snapshot_id} (field {@link #SNAPSHOT_ID_FIELD_ID}). */
    public boolean needsRowSnapshots()
    {
        return filterBySnapshot;
    }

    /** Whether the row at {@code position} is visible; {@code rowSnapshotId} is read only when {@link #needsRowSnapshots()}. */
    public boolean visible(long position, long rowSnapshotId)
    {
        return !deleted.contains(position) && (!filterBySnapshot || rowSnapshotId <= snapshotId);
    }
}
