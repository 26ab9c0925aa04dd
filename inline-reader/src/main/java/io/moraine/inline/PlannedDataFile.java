package io.moraine.inline;

import java.util.List;
import java.util.OptionalLong;

/**
 * Everything a reader needs to read one data file at a snapshot without going back to the catalog: where it is, its
 * size and footer size (reference §4.1), its {@code partial_max}, the delete files that apply to it and its inlined
 * deletes. Planned once per table scan by {@link DataFilePlanner}; engines ship it to their readers (a Trino split,
 * a Spark input partition).
 *
 * @param inlinedDeletes sorted, distinct positions deleted by inlined deletes visible at the snapshot
 */
public record PlannedDataFile(long dataFileId, String path, long sizeBytes, long recordCount, OptionalLong footerSize, OptionalLong partialMax,
        List<DeleteFile> deleteFiles, long[] inlinedDeletes)
{
    public PlannedDataFile
    {
        deleteFiles = List.copyOf(deleteFiles);
        inlinedDeletes = inlinedDeletes.clone();
    }

    /** Rows certain to be visible at {@code snapshotId} without reading the file: all of them, unless deletes or per-row snapshots apply. */
    public long certainRows(long snapshotId)
    {
        boolean partial = partialMax.isPresent() && partialMax.getAsLong() > snapshotId;
        return deleteFiles.isEmpty() && inlinedDeletes.length == 0 && !partial ? recordCount : 0;
    }

    /**
     * A positional delete file of the data file.
     *
     * @param beginSnapshot the snapshot that wrote it: the deleting snapshot of every position when the file has no
     *         {@code _ducklake_internal_snapshot_id} column
     */
    public record DeleteFile(String path, OptionalLong sizeBytes, long beginSnapshot, String format) {}
}
