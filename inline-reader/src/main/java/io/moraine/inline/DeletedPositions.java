package io.moraine.inline;

import io.moraine.core.catalog.CatalogPaths;
import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.Row;
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

    public static TreeSet<Long> at(CatalogSnapshot snapshot, long tableId, Row dataFile, String tablePath, DataFiles files)
    {
        long dataFileId = dataFile.getLong("data_file_id");
        TreeSet<Long> deleted = new TreeSet<>();
        try (var deleteFiles = snapshot.deleteFiles(tableId)) {
            while (deleteFiles.hasNext()) {
                Row deleteFile = deleteFiles.next();
                if (deleteFile.getLong("data_file_id") != dataFileId) {
                    continue;
                }
                if (!"parquet".equals(deleteFile.getString("format"))) {
                    throw new UnsupportedFeatureException("delete file " + deleteFile.getString("path") + " has format "
                            + deleteFile.getString("format") + "; only Parquet positional delete files are read so far");
                }
                read(files.open(CatalogPaths.filePath(tablePath, deleteFile), sizeOf(deleteFile)), deleteFile.getLong("begin_snapshot"))
                        .forEach((position, deletedAt) -> {
                            if (deletedAt <= snapshot.id()) {
                                deleted.add(position);
                            }
                        });
            }
        }
        for (long position : InlineFileDeletes.positionsAt(snapshot.reader(), tableId, dataFileId, snapshot.id())) {
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

    /** A file row's {@code file_size_bytes}, when recorded. */
    public static java.util.OptionalLong sizeOf(Row file)
    {
        Long size = file.getLong("file_size_bytes");
        return size == null ? java.util.OptionalLong.empty() : java.util.OptionalLong.of(size);
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
