package io.moraine.inline.flush;

import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.OutputFile;

import java.io.IOException;

/** Opens parquet-java writers without Hadoop file systems. */
final class ParquetFiles
{
    private ParquetFiles() {}

    static <T> ParquetWriter<T> writer(OutputFile file, WriteSupport<T> support)
            throws IOException
    {
        return new Builder<>(file, support)
                .withConf(new PlainParquetConfiguration())
                .withCompressionCodec(CompressionCodecName.SNAPPY)
                .build();
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
