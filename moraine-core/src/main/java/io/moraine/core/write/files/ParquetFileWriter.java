package io.moraine.core.write.files;

import io.moraine.core.io.LakeFileSystem;
import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

import java.io.Closeable;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * One Parquet file the core writes into the lake (a flush's data and delete files, a delete's delete file) with
 * parquet-java and no Hadoop file system, and, once closed, the sizes the catalog records for it.
 */
public final class ParquetFileWriter<T>
        implements Closeable
{
    private final String path;
    private final MeasuredOutputFile file;
    private final ParquetWriter<T> writer;
    private boolean closed;

    private ParquetFileWriter(String path, MeasuredOutputFile file, ParquetWriter<T> writer)
    {
        this.path = path;
        this.file = file;
        this.writer = writer;
    }

    public static <T> ParquetFileWriter<T> create(LakeFileSystem files, String path, WriteSupport<T> support)
            throws IOException
    {
        MeasuredOutputFile file = new MeasuredOutputFile(files.newOutputFile(path));
        return new ParquetFileWriter<>(path, file, new Builder<>(file, support)
                .withConf(new PlainParquetConfiguration())
                .withCompressionCodec(CompressionCodecName.SNAPPY)
                .build());
    }

    public void write(T record)
            throws IOException
    {
        writer.write(record);
    }

    /** Finishes the file; on an object store, this is when it is uploaded. */
    @Override
    public void close()
            throws IOException
    {
        if (!closed) {
            closed = true;
            writer.close();
        }
    }

    public String path()
    {
        return path;
    }

    public long sizeBytes()
    {
        return file.length();
    }

    public long footerSize()
    {
        return file.footerLength();
    }

    /**
     * Bytes of each leaf column (a VARIANT counts as one) in the file (its column chunks' compressed sizes over all row groups), by the leaf's
     * field id, which is its DuckLake column id.
     */
    public Map<Long, Long> columnSizes()
    {
        Map<Long, Long> sizes = new HashMap<>();
        MessageType schema = writer.getFooter().getFileMetaData().getSchema();
        for (BlockMetaData block : writer.getFooter().getBlocks()) {
            for (ColumnChunkMetaData column : block.getColumns()) {
                Type.ID fieldId = nearestFieldId(schema, column.getPath().toArray());
                if (fieldId != null) {
                    sizes.merge((long) fieldId.intValue(), column.getTotalSize(), Long::sum);
                }
            }
        }
        return sizes;
    }

    /** The leaf's own field id, or its nearest ancestor's: a VARIANT's metadata and value count toward their group. */
    private static Type.ID nearestFieldId(MessageType schema, String[] path)
    {
        for (int length = path.length; length > 0; length--) {
            Type.ID id = schema.getType(java.util.Arrays.copyOf(path, length)).getId();
            if (id != null) {
                return id;
            }
        }
        return null;
    }

    private static final class Builder<T>
            extends ParquetWriter.Builder<T, Builder<T>>
    {
        private final WriteSupport<T> support;

        private Builder(OutputFile file, WriteSupport<T> support)
        {
            super(file);
            this.support = support;
        }

        @Override
        protected Builder<T> self()
        {
            return this;
        }

        @Override
        protected WriteSupport<T> getWriteSupport(ParquetConfiguration configuration)
        {
            return support;
        }

        @Override
        protected WriteSupport<T> getWriteSupport(org.apache.hadoop.conf.Configuration configuration)
        {
            return support;
        }
    }
}
