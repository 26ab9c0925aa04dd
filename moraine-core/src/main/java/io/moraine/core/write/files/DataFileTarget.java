package io.moraine.core.write.files;

import org.apache.parquet.schema.MessageType;

import java.util.List;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * Where and how an engine writes one data file of a table, as DuckLake would write it (reference writes §3): hand the
 * file back as a {@link WrittenDataFile} with {@link #path()} and {@link #partitionValues()}.
 *
 * @param location the file's full path or URI: the table's resolved path, then {@link #path()}
 * @param path the path to record in {@code ducklake_data_file.path}, relative to the table's path
 *         ({@code [k=v/...]ducklake-<uuidv7>.parquet})
 * @param pathIsRelative always true: DuckLake's files lie under their table's path
 * @param partitionId the table's partition spec, empty when unpartitioned
 * @param partitionValues the key values as DuckLake stores them ({@code null} for a NULL key), in key order; empty when unpartitioned
 * @param schema the Parquet schema to write: the table's columns with field ids (and the hidden row-id column for update outputs)
 * @param settings the writer settings DuckLake uses
 */
public record DataFileTarget(String location, String path, boolean pathIsRelative, OptionalLong partitionId, List<String> partitionValues,
        MessageType schema, DataFileWriterSettings settings)
{
    public DataFileTarget
    {
        requireNonNull(location, "location is null");
        requireNonNull(path, "path is null");
        requireNonNull(partitionId, "partitionId is null");
        partitionValues = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(partitionValues));
        requireNonNull(schema, "schema is null");
        requireNonNull(settings, "settings is null");
    }

    /** The hive directory part of {@link #path()} ({@code k=v/.../}), empty when the file lies in the table directory. */
    public String hiveDirectory()
    {
        int slash = path.lastIndexOf('/');
        return slash < 0 ? "" : path.substring(0, slash + 1);
    }
}
