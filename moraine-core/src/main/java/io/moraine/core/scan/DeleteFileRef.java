package io.moraine.core.scan;

import java.io.Serializable;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A positional delete file of a data file, visible at the scan's snapshot.
 *
 * @param beginSnapshot the snapshot that wrote it: the deleting snapshot of every position when the file has no
 *         {@code _ducklake_internal_snapshot_id} column
 * @param copy the file's bytes when the catalog keeps a copy of this (tiny) file; readers then do not open it
 */
public record DeleteFileRef(String path, OptionalLong sizeBytes, long beginSnapshot, String format, Optional<FileCopy> copy)
        implements Serializable
{
    public DeleteFileRef(String path, OptionalLong sizeBytes, long beginSnapshot, String format)
    {
        this(path, sizeBytes, beginSnapshot, format, Optional.empty());
    }

    public DeleteFileRef withCopy(FileCopy fileCopy)
    {
        return new DeleteFileRef(path, sizeBytes, beginSnapshot, format, Optional.of(fileCopy));
    }
}
