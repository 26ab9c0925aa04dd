package io.moraine.files;

import io.trino.filesystem.Location;

import java.nio.file.Path;

/**
 * How a resolved DuckLake path names a file in Trino's file systems. DuckLake records local files as plain absolute
 * paths (and accepts {@code file://} URIs); Trino's local file system names them {@code local:///...}, rooted at
 * {@code /}. Object-store URIs ({@code s3://...}, {@code gs://...}, {@code abfss://...}) pass through unchanged.
 */
public final class LakeLocations
{
    private static final String FILE_SCHEME = "file://";

    private LakeLocations() {}

    public static Location location(String path)
    {
        if (path.startsWith(FILE_SCHEME + "/")) {
            return local(path.substring(FILE_SCHEME.length()));
        }
        if (!path.contains("://")) {
            return local(path);
        }
        return Location.of(path);
    }

    private static Location local(String path)
    {
        if (path.startsWith("/")) {
            return Location.of("local://" + path);
        }
        // A relative local path is relative to the working directory, as it is for DuckDB.
        String absolute = Path.of(path).toAbsolutePath().toString();
        return Location.of("local://" + absolute + (path.endsWith("/") ? "/" : ""));
    }
}
