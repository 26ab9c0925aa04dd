package io.moraine.inline;

import io.moraine.core.error.StoreException;
import io.moraine.core.error.UnsupportedFeatureException;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.convert.GroupRecordConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.schema.MessageType;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The deleted positions of one data file at a snapshot (reference §4.4): the union, deduplicated, of its visible
 * positional delete file (filtered per row by {@code _ducklake_internal_snapshot_id} when the file carries it) and its
 * inlined deletes that began at or before the snapshot.
 */
public final class DeletedPositions
{
    private static final String SNAPSHOT_COLUMN = "_ducklake_internal_snapshot_id";

    private DeletedPositions() {}

    /** The positions of {@code file} deleted at {@code snapshotId}: its delete files' entries up to then, and its inlined deletes. */
    public static TreeSet<Long> of(PlannedDataFile file, long snapshotId, DataFiles files)
    {
        TreeSet<Long> deleted = new TreeSet<>();
        for (PlannedDataFile.DeleteFile deleteFile : file.deleteFiles()) {
            if (!"parquet".equals(deleteFile.format())) {
                throw new UnsupportedFeatureException("delete file " + deleteFile.path() + " has format " + deleteFile.format()
                        + "; only Parquet positional delete files are read so far");
            }
            read(files.open(deleteFile.path(), deleteFile.sizeBytes()), deleteFile.beginSnapshot()).forEach((position, deletedAt) -> {
                if (deletedAt <= snapshotId) {
                    deleted.add(position);
                }
            });
        }
        for (long position : file.inlinedDeletes()) {
            deleted.add(position);
        }
        return deleted;
    }

    /** Positions of a positional delete file with the snapshot that deleted each (the file's begin without a snapshot column). */
    public static Map<Long, Long> read(InputFile file, long fileBeginSnapshot)
    {
        TreeMap<Long, Long> positions = new TreeMap<>();
        try (ParquetFileReader reader = ParquetFileReader.open(file)) {
            MessageType schema = reader.getFooter().getFileMetaData().getSchema();
            boolean partial = schema.getFieldCount() >= 3 && schema.getFieldName(2).equals(SNAPSHOT_COLUMN);
            PageReadStore pages;
            while ((pages = reader.readNextRowGroup()) != null) {
                RecordReader<Group> records = new ColumnIOFactory().getColumnIO(schema).getRecordReader(pages, new GroupRecordConverter(schema));
                for (long i = 0; i < pages.getRowCount(); i++) {
                    Group row = records.read();
                    positions.put(row.getLong(1, 0), partial ? row.getLong(2, 0) : fileBeginSnapshot);
                }
            }
            return positions;
        }
        catch (IOException e) {
            throw new StoreException("reading delete file " + file + " failed: " + e.getMessage(), e);
        }
    }

    /** A local file system path for a resolved DuckLake path (object stores are not read by this library yet). */
    public static Path localPath(String path)
    {
        String local = path.startsWith("file://") ? path.substring("file://".length()) : path;
        if (local.contains("://")) {
            throw new UnsupportedFeatureException("data at " + path + " is on an object store; reading data files from object "
                    + "stores is not implemented yet (local paths only)");
        }
        return Path.of(local);
    }
}
