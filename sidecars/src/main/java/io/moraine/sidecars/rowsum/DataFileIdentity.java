package io.moraine.sidecars.rowsum;

import static java.util.Objects.requireNonNull;

/**
 * The data file a summary describes, as the catalog and the reader know it: a sidecar is used only when its header
 * names exactly this file. {@code path} is the file's path as the reader resolved it (data path applied).
 */
public record DataFileIdentity(long tableId, long dataFileId, String path, long fileSize)
{
    public static final String SIDECAR_SUFFIX = ".rowsum";

    public DataFileIdentity
    {
        requireNonNull(path, "path");
        if (path.isEmpty()) {
            throw new IllegalArgumentException("a data file's resolved path is needed to place its row summary");
        }
        if (fileSize < 0) {
            throw new IllegalArgumentException("file size must be non-negative, got " + fileSize + " for " + path);
        }
    }

    /** The sidecar's path: the data file's with {@code .rowsum} appended, never a name DuckLake's cleanup deletes. */
    public String sidecarPath()
    {
        return path + SIDECAR_SUFFIX;
    }
}
