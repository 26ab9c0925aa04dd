package io.moraine.core.scan;

import io.moraine.core.error.PartialFileWithoutSnapshotsException;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.Type;

import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * DuckLake's hidden columns in one data file a reader reads, and the rule for partial files, written once for every
 * engine (reference §4.5, §4.8). A partial file ({@code partial_max} set: a flush or merge output) holds rows of
 * several snapshots, each row's in its {@code _ducklake_internal_snapshot_id} (field id
 * {@link DataFileTask#SNAPSHOT_ID_FIELD_ID}). A read that must leave some of those rows out — a scan at a snapshot
 * before {@code partial_max}, the insertions of a range that does not cover every snapshot of the file — needs that
 * column ({@link #needsRowSnapshots()}), and refuses a file without it ({@link PartialFileWithoutSnapshotsException}),
 * as DuckLake 1.5.5 does. Any other read takes the column when the file has it and the file's {@code begin_snapshot}
 * when it does not ({@link DataFileTask#rowSnapshot}), as DuckLake does too; a row's id is the embedded
 * {@code _ducklake_internal_row_id} when the file has one, else {@code row_id_start + position}
 * ({@link DataFileTask#rowId}).
 * <p>
 * Engines read the file with their own reader: those that match Parquet fields themselves call {@link #in} on the
 * file's schema (it finds the hidden fields and refuses), those whose reader matches fields by id call {@link #check}
 * with whether the file has the column. The rows are then selected per batch by {@link VisibleRows} (a scan) or the
 * change feed's {@code InsertedRows}, which filter by the snapshots only when {@link #needsRowSnapshots()}.
 */
public final class HiddenFields
{
    /** The name DuckLake gives the embedded row id column. */
    public static final String ROW_ID_NAME = "_ducklake_internal_row_id";
    /** The name DuckLake gives the embedded snapshot column. */
    public static final String SNAPSHOT_ID_NAME = "_ducklake_internal_snapshot_id";

    /** The hidden fields of one file's schema, each present when the file has it. */
    public record Found(Optional<Type> rowIds, Optional<Type> snapshots)
    {
        public Found
        {
            requireNonNull(rowIds, "rowIds is null");
            requireNonNull(snapshots, "snapshots is null");
        }
    }

    private final DataFileTask file;
    private final boolean needsRowSnapshots;
    /** What the read could not tell, for the refusal: "which of its rows snapshot 3 sees". */
    private final String undecidable;
    /** What to do instead, for the refusal. */
    private final String instead;

    private HiddenFields(DataFileTask file, boolean needsRowSnapshots, String undecidable, String instead)
    {
        this.file = requireNonNull(file, "file is null");
        this.needsRowSnapshots = needsRowSnapshots;
        this.undecidable = undecidable;
        this.instead = instead;
    }

    /** For reading {@code task}'s rows at its snapshot: the rows of later snapshots are left out ({@link VisibleRows}). */
    public static HiddenFields forScan(DataFileTask task)
    {
        long partialMax = task.partialMax().orElse(task.beginSnapshot());
        return new HiddenFields(task, task.filtersRowsBySnapshot(), "which of its rows snapshot " + task.snapshotId() + " sees",
                "Read the table at snapshot " + partialMax + " or later, where every row of the file is visible");
    }

    /**
     * For reading the rows of {@code file} inserted in {@code [fromSnapshot, toSnapshot]} (a change feed's insertions):
     * the rows of a partial file are filtered by their snapshots when the range does not cover all of the file's,
     * {@code begin_snapshot} to {@code partial_max} — when it does, every row is an insertion of the range.
     */
    public static HiddenFields forInsertions(DataFileTask file, long fromSnapshot, long toSnapshot)
    {
        boolean filters = file.partialMax().isPresent() && (file.partialMax().getAsLong() > toSnapshot || file.beginSnapshot() < fromSnapshot);
        return new HiddenFields(file, filters, "which of its rows were inserted in snapshots " + fromSnapshot + " to " + toSnapshot,
                "Ask for the changes of a range from snapshot " + Math.min(fromSnapshot, file.beginSnapshot()) + " or earlier to snapshot "
                        + Math.max(toSnapshot, file.partialMax().orElse(toSnapshot)) + " or later, which holds every row of the file");
    }

    /**
     * For reading the rows of {@code file} whatever their snapshot (a change feed's deletions, named by the delete that
     * removed them): nothing is filtered by the embedded snapshots.
     */
    public static HiddenFields forDeletions(DataFileTask file)
    {
        return new HiddenFields(file, false, "", "");
    }

    /** Whether the reader must read each row's embedded snapshot ({@link DataFileTask#SNAPSHOT_ID_FIELD_ID}): rows are filtered by it. */
    public boolean needsRowSnapshots()
    {
        return needsRowSnapshots;
    }

    /**
     * The hidden fields of the file whose schema is {@code fileSchema}, found by field id.
     *
     * @param table the table read, as {@code schema.table}, for the refusal
     * @throws PartialFileWithoutSnapshotsException when {@link #needsRowSnapshots()} and the file has no snapshot column
     */
    public Found in(GroupType fileSchema, String table)
    {
        Optional<Type> snapshots = FieldIds.find(fileSchema, DataFileTask.SNAPSHOT_ID_FIELD_ID);
        check(snapshots.isPresent(), table);
        return new Found(FieldIds.find(fileSchema, DataFileTask.ROW_ID_FIELD_ID), snapshots);
    }

    /**
     * Refuses the file when {@link #needsRowSnapshots()} and it has no snapshot column, for a reader that matches the
     * fields by id itself and so only asks whether the file has it.
     *
     * @param table the table read, as {@code schema.table}
     * @throws PartialFileWithoutSnapshotsException then
     */
    public void check(boolean fileHasRowSnapshots, String table)
    {
        if (needsRowSnapshots && !fileHasRowSnapshots) {
            throw refusal(table);
        }
    }

    /** The error a reader raises for this file when it lacks its snapshot column. */
    public PartialFileWithoutSnapshotsException refusal(String table)
    {
        String message = "data file " + file.dataFileId() + " of table " + table + " (" + file.path() + ") holds rows of snapshots " + file.beginSnapshot()
                + " to " + file.partialMax().orElse(file.beginSnapshot()) + " (partial_max) but has no " + SNAPSHOT_ID_NAME + " column (Parquet field id "
                + DataFileTask.SNAPSHOT_ID_FIELD_ID + "), so " + undecidable + " cannot be told; DuckLake refuses this file too. " + instead
                + ", or restore the file as DuckLake wrote it (its flush and merge outputs have that column).";
        return new PartialFileWithoutSnapshotsException(file.dataFileId(), file.path(), table, message);
    }
}
