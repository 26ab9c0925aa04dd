package io.moraine.core.changes;

import io.moraine.core.scan.DataFileTask;
import io.moraine.core.scan.DeleteFileRef;

import java.util.Optional;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * Rows of one data file deleted in {@code [fromSnapshot, toSnapshot]} (reference §6.2), read from the data file so that
 * the deleted values are there. Which positions, and the snapshot each was deleted in, is {@link DeletedRows}'s job;
 * this names the sources:
 * <ul>
 * <li>a delete file ({@code deleteFile}): its positions deleted in the range (by its per-row snapshots when it records
 * them, else those it adds to {@code previousDeleteFile}, all deleted at its begin snapshot);</li>
 * <li>or the file's retirement at {@code retiredAt} (every row; a DROP, a rewrite, a DELETE of all rows): every
 * position not already in {@code previousDeleteFile};</li>
 * <li>inlined deletes in the range ({@code inlinedPositions}, each deleted at {@code inlinedSnapshots[i]}).</li>
 * </ul>
 *
 * @param file the data file to read; it carries no deletes
 * @param previousDeleteFile the newest delete file of the data file from before the change (whose positions were
 *         deleted earlier)
 */
public record DeletedRowsTask(
        DataFileTask file,
        Optional<DeleteFileRef> deleteFile,
        Optional<DeleteFileRef> previousDeleteFile,
        OptionalLong retiredAt,
        long[] inlinedPositions,
        long[] inlinedSnapshots,
        long fromSnapshot,
        long toSnapshot)
        implements ChangeTask
{
    public DeletedRowsTask
    {
        requireNonNull(file, "file is null");
        requireNonNull(deleteFile, "deleteFile is null");
        requireNonNull(previousDeleteFile, "previousDeleteFile is null");
        requireNonNull(retiredAt, "retiredAt is null");
        if (inlinedPositions.length != inlinedSnapshots.length) {
            throw new IllegalArgumentException("inlined deletes need one snapshot per position: " + inlinedPositions.length + " positions, "
                    + inlinedSnapshots.length + " snapshots");
        }
        inlinedPositions = inlinedPositions.clone();
        inlinedSnapshots = inlinedSnapshots.clone();
    }

    /** The same task, also reporting these inlined deletes (positions, each with its deleting snapshot). */
    public DeletedRowsTask withInlinedDeletes(long[] positions, long[] snapshots)
    {
        return new DeletedRowsTask(file, deleteFile, previousDeleteFile, retiredAt, positions, snapshots, fromSnapshot, toSnapshot);
    }

    @Override
    public long[] inlinedPositions()
    {
        return inlinedPositions.clone();
    }

    @Override
    public long[] inlinedSnapshots()
    {
        return inlinedSnapshots.clone();
    }

    @Override
    public long tableId()
    {
        return file.tableId();
    }

    @Override
    public ChangeKind kind()
    {
        return ChangeKind.DELETION;
    }
}
