package io.moraine.inline.flush;

import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.OutputFile;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;

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

    /** Bytes of each top-level column in the file (its column chunks' compressed sizes over all row groups), by name. */
    static java.util.Map<String, Long> columnSizes(Path file)
            throws IOException
    {
        java.util.Map<String, Long> sizes = new java.util.HashMap<>();
        try (org.apache.parquet.hadoop.ParquetFileReader reader = org.apache.parquet.hadoop.ParquetFileReader.open(new org.apache.parquet.io.LocalInputFile(file))) {
            for (org.apache.parquet.hadoop.metadata.BlockMetaData block : reader.getFooter().getBlocks()) {
                for (org.apache.parquet.hadoop.metadata.ColumnChunkMetaData column : block.getColumns()) {
                    sizes.merge(column.getPath().toArray()[0], column.getTotalSize(), Long::sum);
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
