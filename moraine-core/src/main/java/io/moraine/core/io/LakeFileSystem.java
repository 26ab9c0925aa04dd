package io.moraine.core.io;

import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.OutputFile;

import java.io.IOException;
import java.util.List;
import java.util.OptionalLong;

/**
 * The lake's data and delete files, by their resolved DuckLake path (a local path, {@code file://...}, {@code s3://...},
 * ...). Everything the core reads or writes outside the catalog goes through this interface: engines adapt their own
 * file systems (Trino's {@code TrinoFileSystem}, Spark's Hadoop {@code FileSystem}); the command line and the flush
 * use a maintained multi-cloud library. Files are parquet-java's {@link InputFile} and {@link OutputFile}, which give
 * positioned, ranged reads and streamed writes.
 */
public interface LakeFileSystem
{
    /**
     * The file at {@code path} for reading. {@code length} is the catalog's {@code file_size_bytes} when known: it saves
     * a length lookup, and object stores then need no request before the first ranged read.
     */
    InputFile newInputFile(String path, OptionalLong length);

    /** A new file at {@code path}; it exists there once the stream parquet-java writes to is closed. */
    OutputFile newOutputFile(String path);

    /** Deletes the file at {@code path}; a file that does not exist is not an error. */
    void deleteFile(String path)
            throws IOException;

    /** The paths of every file under {@code directory}, recursively. */
    List<String> listFiles(String directory)
            throws IOException;

    /**
     * Every file under {@code directory}, recursively, with its last modification time (what the clean-up of orphaned
     * files, DuckLake's {@code ducklake_delete_orphaned_files}, selects by); paths named as {@link #listFiles} names them.
     */
    List<ListedFile> listFilesWithModificationTimes(String directory)
            throws IOException;

    /** A listed file and when it was last modified. */
    record ListedFile(String path, java.time.Instant lastModified) {}
}
