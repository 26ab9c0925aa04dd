package io.moraine.core.changes;

import io.moraine.core.scan.DataFileTask;

import static java.util.Objects.requireNonNull;

/**
 * The rows of one data file inserted in {@code [fromSnapshot, toSnapshot]} (reference §6.1): all of them, or, in a
 * file holding rows of several snapshots (a flush or merge output, {@code partial_max} set), those whose embedded
 * snapshot is in the range. Deletes are not applied: a row inserted and later deleted is still an insertion.
 * {@link InsertedRows} selects them.
 *
 * @param file the file to read (path, sizes, row-id and snapshot facts); it carries no deletes
 */
public record InsertedRowsTask(DataFileTask file, long fromSnapshot, long toSnapshot)
        implements ChangeTask
{
    public InsertedRowsTask
    {
        requireNonNull(file, "file is null");
    }

    @Override
    public long tableId()
    {
        return file.tableId();
    }

    @Override
    public ChangeKind kind()
    {
        return ChangeKind.INSERTION;
    }
}
