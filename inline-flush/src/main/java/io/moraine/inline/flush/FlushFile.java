package io.moraine.inline.flush;

import io.moraine.core.row.ColumnNode;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.io.LakeFileSystem;
import io.moraine.core.write.files.DataFileRowWriteSupport;
import io.moraine.core.write.files.DeleteRowWriteSupport;
import io.moraine.core.write.files.ParquetFileWriter;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.Field;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One Parquet data file a flush writes (one partition value tuple of one inlined table version): its rows with the
 * hidden columns, its column stats, and the positions — in the order the rows were written — of the row versions
 * that had already ended, with the snapshot that ended each.
 */
final class FlushFile
        implements AutoCloseable
{
    /** What a finished file registers in the catalog. */
    record Staged(InlineFlusher.FlushedFile flushed, Row dataFile, List<Row> columnStats, List<Row> partitionValues, Optional<Row> deleteFile)
    {
        /** The delete file numbered {@code deleteFileId}: DuckLake numbers a flush's delete files after its data files. */
        Staged withDeleteFileId(long deleteFileId)
        {
            return new Staged(flushed, dataFile, columnStats, partitionValues, deleteFile.map(row -> row.with("delete_file_id", deleteFileId)));
        }
    }

    private final LakeFileSystem files;
    private final String tablePath;
    private final String relativePath;
    private final List<String> partitionValues;
    private final List<ColumnNode> columns;
    private final FlushedColumnStats stats;
    private final List<DeleteRowWriteSupport.Deletion> deletions = new ArrayList<>();
    private ParquetFileWriter<DataFileRowWriteSupport.Row<ArrowRowColumns.Cells>> writer;
    private long rows;
    private long minSnapshot = Long.MAX_VALUE;
    private long maxSnapshot = Long.MIN_VALUE;
    private long minRowId = Long.MAX_VALUE;

    /** {@code hiveDirectory} is {@code ""} or {@code k=v/.../}, relative to the table's path. */
    FlushFile(LakeFileSystem files, String tablePath, String hiveDirectory, List<String> partitionValues, List<ColumnNode> columns)
    {
        this.files = files;
        this.tablePath = tablePath;
        this.relativePath = hiveDirectory + io.moraine.core.write.files.DataFileNames.dataFileName();
        this.partitionValues = partitionValues;
        this.columns = columns;
        this.stats = new FlushedColumnStats(columns);
    }

    /** The file's full path in the lake. */
    String path()
    {
        return FlushPaths.resolve(tablePath, relativePath);
    }

    void write(FlushRow row, long head)
            throws IOException
    {
        if (writer == null) {
            List<Field> fields = row.columns().stream().map(FieldVector::getField).toList();
            writer = ParquetFileWriter.create(files, path(), new DataFileRowWriteSupport<>(ParquetSchemas.dataFile(fields, columns), true, true, ArrowRowColumns.WRITER));
        }
        writer.write(row.ref());
        stats.add(row.columns(), row.index());
        if (row.endSnapshot() != null && row.endSnapshot() <= head) {
            deletions.add(new DeleteRowWriteSupport.Deletion(rows, row.endSnapshot()));
        }
        minSnapshot = Math.min(minSnapshot, row.beginSnapshot());
        maxSnapshot = Math.max(maxSnapshot, row.beginSnapshot());
        minRowId = Math.min(minRowId, row.rowId());
        rows++;
    }

    long rows()
    {
        return rows;
    }

    @Override
    public void close()
            throws IOException
    {
        if (writer != null) {
            writer.close();
        }
    }

    /**
     * Closes the file, writes its delete file if some versions ended, and returns its catalog rows: the data file gets
     * {@code dataFileId}, a delete file {@code dataFileId + 1}.
     */
    Staged stage(long tableId, long schemaVersion, long dataFileId, Long partitionId)
            throws IOException
    {
        close();
        String dataFile = path();
        Row dataRow = Row.of(TableKind.DATA_FILE, dataFileId, tableId, minSnapshot, null, null, relativePath, true, "parquet", rows,
                writer.sizeBytes(), writer.footerSize(), minRowId, partitionId, null, null, maxSnapshot);
        List<Row> partitionRows = new ArrayList<>();
        for (int key = 0; key < partitionValues.size(); key++) {
            partitionRows.add(Row.of(TableKind.FILE_PARTITION_VALUE, dataFileId, tableId, (long) key, partitionValues.get(key)));
        }
        Optional<Row> deleteRow = Optional.empty();
        if (!deletions.isEmpty()) {
            String deleteName = io.moraine.core.write.files.DataFileNames.deleteFileName();
            ParquetFileWriter<DeleteRowWriteSupport.Deletion> deleteWriter = ParquetFileWriter.create(files, FlushPaths.resolve(tablePath, deleteName),
                    new DeleteRowWriteSupport(dataFile, true));
            try (deleteWriter) {
                for (DeleteRowWriteSupport.Deletion deletion : deletions) {
                    deleteWriter.write(deletion);
                }
            }
            long minEnd = deletions.stream().mapToLong(DeleteRowWriteSupport.Deletion::snapshotId).min().orElseThrow();
            // numbered by the flusher once every data file has its id (withDeleteFileId)
            deleteRow = Optional.of(Row.of(TableKind.DELETE_FILE, -1L, tableId, minEnd, null, dataFileId, deleteName, true,
                    "parquet", (long) deletions.size(), deleteWriter.sizeBytes(), deleteWriter.footerSize(), null, null));
        }
        return new Staged(new InlineFlusher.FlushedFile(tableId, schemaVersion, dataFileId, dataFile, rows, deletions.size()), dataRow,
                stats.rows(dataFileId, tableId, writer.columnSizes()), partitionRows, deleteRow);
    }
}
