package io.moraine.inline.flush;

import io.moraine.core.io.LocalFileSystem;

/**
 * The paths of the files a flush writes, as DuckLake records them: local files by their plain path (without
 * {@code file://}), object-store files by their URI.
 */
final class FlushPaths
{
    private FlushPaths() {}

    /** The path of {@code name} (which may hold directories, {@code k=v/...}) in {@code directory}. */
    static String resolve(String directory, String name)
    {
        if (isLocal(directory)) {
            return LocalFileSystem.localPath(directory).resolve(name).toString();
        }
        return directory.endsWith("/") ? directory + name : directory + "/" + name;
    }

    /** {@code path} in the form of {@link #resolve}: how a delete file names its data file. */
    static String canonical(String path)
    {
        return isLocal(path) ? LocalFileSystem.localPath(path).toString() : path;
    }

    private static boolean isLocal(String path)
    {
        return !path.contains("://") || path.startsWith("file://");
    }
}
