package io.moraine.inline;

import org.apache.parquet.io.InputFile;

import java.util.OptionalLong;

/**
 * Opens the lake's files (delete files, data files) by their resolved DuckLake path. Engines pass their own file
 * system (Trino's, Spark's Hadoop one); {@link io.moraine.inline.storage.LakeFileSystem} reads local paths,
 * {@code file://} and {@code s3://}.
 */
@FunctionalInterface
public interface DataFiles
{
    /** The file at {@code path}; {@code sizeBytes} is the catalog's {@code file_size_bytes} when known (saves a length lookup). */
    InputFile open(String path, OptionalLong sizeBytes);
}
