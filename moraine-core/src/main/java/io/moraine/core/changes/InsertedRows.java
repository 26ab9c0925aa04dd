package io.moraine.core.changes;

import io.moraine.core.scan.DataFileTask;
import io.moraine.core.scan.HiddenFields;
import io.moraine.core.scan.VisibleRows.LongColumn;

/**
 * Which rows of an {@link InsertedRowsTask}'s file are insertions of its range: every row, or, in a file holding rows
 * of several snapshots whose snapshots the range does not all cover, those whose embedded
 * {@code _ducklake_internal_snapshot_id} is in the range ({@link HiddenFields#forInsertions}, which also refuses such a
 * file without that column). A row's {@code snapshot_id} is {@link DataFileTask#rowSnapshot}, its {@code rowid}
 * {@link DataFileTask#rowId}.
 */
public final class InsertedRows
{
    private final long fromSnapshot;
    private final long toSnapshot;
    private final boolean filterBySnapshot;

    private InsertedRows(long fromSnapshot, long toSnapshot, boolean filterBySnapshot)
    {
        this.fromSnapshot = fromSnapshot;
        this.toSnapshot = toSnapshot;
        this.filterBySnapshot = filterBySnapshot;
    }

    public static InsertedRows of(InsertedRowsTask task)
    {
        return new InsertedRows(task.fromSnapshot(), task.toSnapshot(), hiddenFields(task).needsRowSnapshots());
    }

    /** The hidden fields a reader of {@code task}'s file needs, and its refusal of a partial file without snapshots. */
    public static HiddenFields hiddenFields(InsertedRowsTask task)
    {
        return HiddenFields.forInsertions(task.file(), task.fromSnapshot(), task.toSnapshot());
    }

    /** Whether the engine must read the hidden snapshot column ({@link DataFileTask#SNAPSHOT_ID_FIELD_ID}) to select. */
    public boolean needsRowSnapshots()
    {
        return filterBySnapshot;
    }

    /**
     * Writes the indexes (0-based, ascending) of a batch's inserted rows into {@code selected} and returns how many there
     * are; {@code rowSnapshots} is read only when {@link #needsRowSnapshots()}.
     */
    public int select(int rows, LongColumn rowSnapshots, int[] selected)
    {
        int kept = 0;
        for (int row = 0; row < rows; row++) {
            if (filterBySnapshot) {
                long snapshot = rowSnapshots.get(row);
                if (snapshot < fromSnapshot || snapshot > toSnapshot) {
                    continue;
                }
            }
            selected[kept++] = row;
        }
        return kept;
    }
}
