package io.moraine.core.scan;

import java.io.Serializable;
import java.util.OptionalLong;

/**
 * A positional delete file of a data file, visible at the scan's snapshot.
 *
 * @param beginSnapshot the snapshot that wrote it: the deleting snapshot of every position when the file has no
 *         {@code _ducklake_internal_snapshot_id} column
 */
public record DeleteFileRef(String path, OptionalLong sizeBytes, long beginSnapshot, String format)
        implements Serializable {}
