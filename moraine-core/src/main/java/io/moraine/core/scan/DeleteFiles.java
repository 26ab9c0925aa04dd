package io.moraine.core.scan;

import io.moraine.core.error.CorruptionException;
import io.moraine.core.error.StoreException;
import io.moraine.core.error.UnsupportedFeatureException;
import io.moraine.core.io.LakeFileSystem;
import io.moraine.core.io.ParquetReaders;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.example.data.simple.convert.GroupRecordConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.schema.MessageType;

import java.io.IOException;
import java.util.List;

/**
 * Reads DuckLake's positional delete files (reference §4.4): Parquet with {@code file_path, pos} and, in a cumulative
 * ("partial") delete file, {@code _ducklake_internal_snapshot_id}, the snapshot that deleted each position. Columns are
 * read by position with parquet-java's column readers.
 */
public final class DeleteFiles
{
    private static final String SNAPSHOT_COLUMN = "_ducklake_internal_snapshot_id";

    /** Receives one deleted position and the snapshot that deleted it. */
    @FunctionalInterface
    public interface PositionConsumer
    {
        void accept(long position, long deletedAt);
    }

    private DeleteFiles() {}

    /**
     * Every position of {@code file} with its deleting snapshot ({@code fileBeginSnapshot} when the file names none).
     * Returns whether the file records a snapshot per position (a cumulative, "partial" delete file).
     */
    public static boolean read(LakeFileSystem files, DeleteFileRef file, PositionConsumer consumer)
    {
        if (!"parquet".equals(file.format())) {
            throw new UnsupportedFeatureException("delete file " + file.path() + " has format " + file.format()
                    + "; moraine reads Parquet positional delete files only (DuckLake's default; deletion vectors are experimental)");
        }
        InputFile input = file.copy().isPresent() ? file.copy().get().inputFile() : files.newInputFile(file.path(), file.sizeBytes());
        return read(input, file.beginSnapshot(), consumer);
    }

    /** As {@link #read(LakeFileSystem, DeleteFileRef, PositionConsumer)}, from an open input file. */
    public static boolean read(InputFile input, long fileBeginSnapshot, PositionConsumer consumer)
    {
        try (ParquetFileReader reader = ParquetReaders.open(input)) {
            MessageType schema = reader.getFooter().getFileMetaData().getSchema();
            List<ColumnDescriptor> columns = schema.getColumns();
            if (columns.size() < 2) {
                throw new CorruptionException("delete file " + input + " has " + columns.size() + " columns; DuckLake writes file_path and pos");
            }
            ColumnDescriptor position = columns.get(1);
            ColumnDescriptor snapshot = columns.size() >= 3 && schema.getFieldName(2).equals(SNAPSHOT_COLUMN) ? columns.get(2) : null;
            String createdBy = reader.getFooter().getFileMetaData().getCreatedBy();
            PageReadStore pages;
            while ((pages = reader.readNextRowGroup()) != null) {
                ColumnReadStoreImpl store = new ColumnReadStoreImpl(pages, new GroupRecordConverter(schema).getRootConverter(), schema, createdBy);
                ColumnReader positions = store.getColumnReader(position);
                ColumnReader snapshots = snapshot == null ? null : store.getColumnReader(snapshot);
                for (long row = 0; row < pages.getRowCount(); row++) {
                    long deletedAt = snapshots == null ? fileBeginSnapshot : value(snapshots, input);
                    consumer.accept(value(positions, input), deletedAt);
                }
            }
            return snapshot != null;
        }
        catch (IOException e) {
            throw new StoreException("reading delete file " + input + " failed: " + e.getMessage(), e);
        }
    }

    private static long value(ColumnReader column, InputFile input)
    {
        if (column.getCurrentDefinitionLevel() < column.getDescriptor().getMaxDefinitionLevel()) {
            throw new CorruptionException("delete file " + input + " has a NULL in column " + String.join(".", column.getDescriptor().getPath())
                    + "; DuckLake's delete files never do");
        }
        long value = column.getLong();
        column.consume();
        return value;
    }
}
