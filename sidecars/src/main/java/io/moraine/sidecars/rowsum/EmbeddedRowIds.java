package io.moraine.sidecars.rowsum;

import io.moraine.core.error.CorruptionException;
import io.moraine.core.io.LakeFileSystem;
import io.moraine.core.io.ParquetReaders;
import io.moraine.core.scan.DataFileTask;
import io.moraine.core.scan.FieldIds;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.example.data.simple.convert.GroupRecordConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

import java.io.IOException;
import java.util.OptionalLong;

/**
 * A data file's embedded row-id column ({@code _ducklake_internal_row_id}, field id 2147483540) in file order, read
 * whole and unfiltered: a summary describes the file physically, deleted rows included.
 */
public final class EmbeddedRowIds
{
    private EmbeddedRowIds() {}

    /** The summary of {@code file}, derived from its row-id column: what a sidecar saves a reader from doing. */
    public static RowSummary derive(LakeFileSystem files, DataFileIdentity file)
            throws IOException
    {
        return RowSummary.fromFileOrder(read(files, file));
    }

    /** The ids at positions 0, 1, ... of {@code file}. */
    public static long[] read(LakeFileSystem files, DataFileIdentity file)
            throws IOException
    {
        return readIfEmbedded(files, file).orElseThrow(() -> new IllegalArgumentException("data file " + file.path()
                + " embeds no row ids (no column with field id " + DataFileTask.ROW_ID_FIELD_ID
                + "): its row ids are row_id_start + position and need no summary"));
    }

    /** The ids at positions 0, 1, ... of {@code file}; empty when it has no row-id column (its footer says so). */
    public static java.util.Optional<long[]> readIfEmbedded(LakeFileSystem files, DataFileIdentity file)
            throws IOException
    {
        try (ParquetFileReader reader = ParquetReaders.open(files.newInputFile(file.path(), OptionalLong.of(file.fileSize())))) {
            MessageType schema = reader.getFooter().getFileMetaData().getSchema();
            java.util.Optional<Type> found = FieldIds.find(schema, DataFileTask.ROW_ID_FIELD_ID);
            if (found.isEmpty()) {
                return java.util.Optional.empty();
            }
            Type field = found.get();
            if (!field.isPrimitive() || field.asPrimitiveType().getPrimitiveTypeName() != PrimitiveType.PrimitiveTypeName.INT64) {
                throw new CorruptionException("data file " + file.path() + ": its row-id column " + field.getName() + " is " + field + ", not INT64");
            }
            MessageType projection = new MessageType(schema.getName(), field);
            reader.setRequestedSchema(projection);
            ColumnDescriptor column = projection.getColumns().getFirst();
            int maxDefinition = column.getMaxDefinitionLevel();
            String createdBy = reader.getFooter().getFileMetaData().getCreatedBy();
            long[] ids = new long[Math.toIntExact(reader.getRecordCount())];
            int position = 0;
            PageReadStore pages;
            while ((pages = reader.readNextRowGroup()) != null) {
                ColumnReader values = new ColumnReadStoreImpl(pages, new GroupRecordConverter(projection).getRootConverter(), projection, createdBy)
                        .getColumnReader(column);
                for (long row = 0; row < pages.getRowCount(); row++) {
                    if (values.getCurrentDefinitionLevel() < maxDefinition) {
                        throw new CorruptionException("data file " + file.path() + " has a NULL row id at position " + position);
                    }
                    ids[position++] = values.getLong();
                    values.consume();
                }
            }
            if (position != ids.length) {
                throw new CorruptionException("data file " + file.path() + " promised " + ids.length + " rows and held " + position);
            }
            return java.util.Optional.of(ids);
        }
    }
}
