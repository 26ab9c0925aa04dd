package io.moraine.core.write.maintenance;

import io.moraine.core.row.Row;

import java.util.List;

/**
 * A data file a compaction may read, with what DuckLake's {@code GetFilesForCompaction} gathers for it: its catalog
 * row, the table's schema version when it was written, its partition values, its delete files (history included,
 * oldest first) and the number of its inlined file deletions.
 */
record CompactionSource(Row file, long schemaVersion, List<String> partitionValues, List<Row> deleteFiles, long inlinedDeletions)
{
    long id()
    {
        return file.getLong("data_file_id");
    }

    long sizeBytes()
    {
        return file.getLong("file_size_bytes");
    }

    long beginSnapshot()
    {
        return file.getLong("begin_snapshot");
    }

    Long rowIdStart()
    {
        return file.getLong("row_id_start");
    }

    long rowCount()
    {
        return file.getLong("record_count");
    }

    /** The compaction group: files are only merged with files of the same schema version and partition. */
    List<Object> group()
    {
        return java.util.Arrays.asList(schemaVersion, file.get("partition_id"), partitionValues);
    }
}
