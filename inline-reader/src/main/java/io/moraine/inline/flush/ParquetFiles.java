package io.moraine.inline.flush;

import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** Opens parquet-java writers on local files without Hadoop file systems, and reads a written file's footer length and column sizes. */
final class ParquetFiles
{
    private ParquetFiles() {}

    static <T> ParquetWriter<T> writer(Path file, WriteSupport<T> support)
            throws IOException
    {
        return new Builder<>(new LocalOutputFile(file), support)
                .withConf(new PlainParquetConfiguration())
                .withCompressionCodec(CompressionCodecName.SNAPPY)
                .build();
    }

    /** The Thrift footer's length: the little-endian int before the trailing {@code PAR1}. */
    static long footerSize(Path file)
            throws IOException
    {
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            byte[] tail = new byte[8];
            in.seek(in.length() - 8);
            in.readFully(tail);
            return ByteBuffer.wrap(tail, 0, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
        }
    }

    /**
     * Bytes of each leaf column in the file (its column chunks' compressed sizes over all row groups), by the leaf's
     * field id, which is its DuckLake column id.
     */
    static Map<Long, Long> columnSizes(Path file)
            throws IOException
    {
        Map<Long, Long> sizes = new HashMap<>();
        try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file))) {
            MessageType schema = reader.getFooter().getFileMetaData().getSchema();
            for (BlockMetaData block : reader.getFooter().getBlocks()) {
                for (ColumnChunkMetaData column : block.getColumns()) {
                    Type.ID fieldId = schema.getType(column.getPath().toArray()).getId();
                    if (fieldId != null) {
                        sizes.merge((long) fieldId.intValue(), column.getTotalSize(), Long::sum);
                    }
                }
            }
        }
        return sizes;
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
