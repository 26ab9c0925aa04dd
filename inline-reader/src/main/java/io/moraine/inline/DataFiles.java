package io.moraine.inline;

import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.LocalInputFile;

import java.util.OptionalLong;

/**
 * Opens the lake's files (delete files, data files) by their resolved DuckLake path. Engines pass their own file
 * system (Trino's, Spark's Hadoop one); {@link #LOCAL} reads plain paths and {@code file://} URIs.
 */
@FunctionalInterface
public interface DataFiles
{
    DataFiles LOCAL = (path, sizeBytes) -> new LocalInputFile(DeletedPositions.localPath(path));

    /** The file at {@code path}; {@code sizeBytes} is the catalog's {@code file_size_bytes} when known (saves a length lookup). */
    InputFile open(String path, OptionalLong sizeBytes);
}
