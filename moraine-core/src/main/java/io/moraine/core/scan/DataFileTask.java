package io.moraine.core.scan;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * The row groups of one data file that start in the byte range {@code [splitStart, splitStart + splitLength)} (the
 * whole file unless the scan splits large files), with everything reading them at the snapshot needs, so that a worker
 * never goes back to the catalog: the resolved path, sizes, the file's row-id and snapshot facts, the delete files
 * and inlined deletes that apply. {@link VisibleRows} turns it into the rows that survive.
 *
 * @param rowIdStart the row id of the file's first row when the file does not embed row ids (reference §4.8)
 * @param partialMax set for files holding rows of several snapshots (flush and merge outputs, reference §4.5)
 * @param inlinedDeletes sorted, distinct positions deleted by inlined deletes visible at the snapshot
 * @param partitionId the partition spec the file was written under, with its {@code partitionValues} by key index
 *         (null where a key has no value row, or several: {@link FilePartitionValues})
 * @param copy the file's bytes when the catalog keeps a copy of this (tiny) file: readers parse them instead of opening
 *         {@code path}
 * @param nameMapping for a file without field ids (added with {@code ducklake_add_data_files}), how its columns map to
 *         the table's: readers match the fields of {@link #fileSchema} by field id
 */
public record DataFileTask(
        long tableId,
        long snapshotId,
        long dataFileId,
        String path,
        long sizeBytes,
        long recordCount,
        OptionalLong footerSize,
        OptionalLong rowIdStart,
        long beginSnapshot,
        OptionalLong partialMax,
        List<DeleteFileRef> deleteFiles,
        long[] inlinedDeletes,
        OptionalLong partitionId,
        List<String> partitionValues,
        long splitStart,
        long splitLength,
        Optional<FileCopy> copy,
        Optional<NameMapping> nameMapping)
        implements ScanTask
{
    /** Field id of DuckLake's hidden {@code _ducklake_internal_row_id} column. */
    public static final int ROW_ID_FIELD_ID = 2147483540;
    /** Field id of DuckLake's hidden {@code _ducklake_internal_snapshot_id} column. */
    public static final int SNAPSHOT_ID_FIELD_ID = 2147483539;

    public DataFileTask
    {
        requireNonNull(path, "path is null");
        deleteFiles = List.copyOf(deleteFiles);
        inlinedDeletes = inlinedDeletes.clone();
        partitionValues = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(partitionValues));
        requireNonNull(copy, "copy is null");
        requireNonNull(nameMapping, "nameMapping is null");
    }

    public DataFileTask(long tableId, long snapshotId, long dataFileId, String path, long sizeBytes, long recordCount, OptionalLong footerSize,
            OptionalLong rowIdStart, long beginSnapshot, OptionalLong partialMax, List<DeleteFileRef> deleteFiles, long[] inlinedDeletes,
            OptionalLong partitionId, List<String> partitionValues, long splitStart, long splitLength, Optional<FileCopy> copy)
    {
        this(tableId, snapshotId, dataFileId, path, sizeBytes, recordCount, footerSize, rowIdStart, beginSnapshot, partialMax, deleteFiles,
                inlinedDeletes, partitionId, partitionValues, splitStart, splitLength, copy, Optional.empty());
    }

    public DataFileTask(long tableId, long snapshotId, long dataFileId, String path, long sizeBytes, long recordCount, OptionalLong footerSize,
            OptionalLong rowIdStart, long beginSnapshot, OptionalLong partialMax, List<DeleteFileRef> deleteFiles, long[] inlinedDeletes,
            OptionalLong partitionId, List<String> partitionValues, long splitStart, long splitLength)
    {
        this(tableId, snapshotId, dataFileId, path, sizeBytes, recordCount, footerSize, rowIdStart, beginSnapshot, partialMax, deleteFiles,
                inlinedDeletes, partitionId, partitionValues, splitStart, splitLength, Optional.empty(), Optional.empty());
    }

    @Override
    public long[] inlinedDeletes()
    {
        return inlinedDeletes.clone();
    }

    /** Whether the file holds rows newer than the snapshot, which readers filter by their embedded snapshot. */
    public boolean filtersRowsBySnapshot()
    {
        return partialMax.isPresent() && partialMax.getAsLong() > snapshotId;
    }

    /** Rows of this task certain to be visible without reading the file: all of them when nothing is deleted or filtered. */
    public long certainRows()
    {
        boolean whole = splitStart == 0 && splitLength >= sizeBytes;
        return whole && deleteFiles.isEmpty() && inlinedDeletes.length == 0 && !filtersRowsBySnapshot() ? recordCount : 0;
    }

    /** The same file, reading the row groups that start in {@code [start, start + length)}. */
    public DataFileTask withSplit(long start, long length)
    {
        return new DataFileTask(tableId, snapshotId, dataFileId, path, sizeBytes, recordCount, footerSize, rowIdStart, beginSnapshot, partialMax,
                deleteFiles, inlinedDeletes, partitionId, partitionValues, start, length, copy, nameMapping);
    }

    /** The same task, reading its file from the catalog's copy of it. */
    public DataFileTask withCopy(FileCopy fileCopy)
    {
        return new DataFileTask(tableId, snapshotId, dataFileId, path, sizeBytes, recordCount, footerSize, rowIdStart, beginSnapshot, partialMax,
                deleteFiles, inlinedDeletes, partitionId, partitionValues, splitStart, splitLength, Optional.of(fileCopy), nameMapping);
    }

    /** The same task with these delete files (the planner attaches the delete files' copies). */
    public DataFileTask withDeleteFiles(List<DeleteFileRef> files)
    {
        return new DataFileTask(tableId, snapshotId, dataFileId, path, sizeBytes, recordCount, footerSize, rowIdStart, beginSnapshot, partialMax,
                files, inlinedDeletes, partitionId, partitionValues, splitStart, splitLength, copy, nameMapping);
    }

    /** The same task, reading its file (which has no field ids) through {@code mapping}. */
    public DataFileTask withNameMapping(NameMapping mapping)
    {
        return new DataFileTask(tableId, snapshotId, dataFileId, path, sizeBytes, recordCount, footerSize, rowIdStart, beginSnapshot, partialMax,
                deleteFiles, inlinedDeletes, partitionId, partitionValues, splitStart, splitLength, copy, Optional.of(mapping));
    }

    /**
     * The schema readers match the file's columns in, by field id ({@link FieldIds}): the footer's own, or for a file
     * read through a name mapping, the footer's with the mapping's field ids.
     */
    public org.apache.parquet.schema.MessageType fileSchema(org.apache.parquet.schema.MessageType footerSchema)
    {
        return nameMapping.map(mapping -> mapping.applyTo(footerSchema)).orElse(footerSchema);
    }

    /** The file for parquet-java: the catalog's copy when there is one, else the file at {@code path} in {@code files}. */
    public org.apache.parquet.io.InputFile inputFile(io.moraine.core.io.LakeFileSystem files)
    {
        return copy.isPresent() ? copy.get().inputFile() : files.newInputFile(path, OptionalLong.of(sizeBytes));
    }

    /**
     * The row id of the row at {@code position} (reference §4.8): the embedded {@code _ducklake_internal_row_id} when the
     * file has one (pass it), else {@code row_id_start + position}.
     */
    public long rowId(long position, OptionalLong embeddedRowId)
    {
        if (embeddedRowId.isPresent()) {
            return embeddedRowId.getAsLong();
        }
        return rowIdStart.orElseThrow(() -> new io.moraine.core.error.CorruptionException("data file " + dataFileId + " (" + path
                + ") has neither embedded row ids nor a row_id_start")) + position;
    }

    /** The snapshot that wrote the row: the embedded {@code _ducklake_internal_snapshot_id} when present, else the file's begin. */
    public long rowSnapshot(OptionalLong embeddedSnapshotId)
    {
        return embeddedSnapshotId.orElse(beginSnapshot);
    }

    @Override
    public boolean equals(Object other)
    {
        return other instanceof DataFileTask task && task.dataFileId == dataFileId && task.snapshotId == snapshotId && task.tableId == tableId
                && task.splitStart == splitStart && task.splitLength == splitLength && task.path.equals(path);
    }

    @Override
    public int hashCode()
    {
        return java.util.Objects.hash(tableId, snapshotId, dataFileId, splitStart);
    }
}
