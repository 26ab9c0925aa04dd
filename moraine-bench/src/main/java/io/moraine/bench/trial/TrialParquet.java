package io.moraine.bench.trial;

import io.moraine.core.io.LakeFileSystem;
import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Types;

import java.io.IOException;
import java.util.HashMap;

/** Writes the rows of one batch as a Parquet data file, as DuckDB would: columns by field id (= DuckLake column id), no row-id column. */
final class TrialParquet
{
    private static final MessageType SCHEMA = Types.buildMessage()
            .optional(PrimitiveType.PrimitiveTypeName.INT64).id(1).named("id")
            .optional(PrimitiveType.PrimitiveTypeName.INT64).id(2).named("batch")
            .named("duckdb_schema");

    private TrialParquet() {}

    /** Writes {@code count} rows of {@code batch} to {@code path} and returns the file's size in bytes (the lake is on local disk). */
    static long write(LakeFileSystem files, String path, long batch, int count)
            throws IOException
    {
        ParquetWriter<long[]> writer = new Builder(files.newOutputFile(path)).withConf(new PlainParquetConfiguration())
                .withCompressionCodec(CompressionCodecName.SNAPPY).build();
        try (writer) {
            for (int i = 0; i < count; i++) {
                writer.write(new long[] {TrialTable.rowId(batch, i), batch});
            }
        }
        return java.nio.file.Files.size(io.moraine.core.io.LocalFileSystem.localPath(path));
    }

    private static final class Support
            extends WriteSupport<long[]>
    {
        private RecordConsumer consumer;

        @Override
        public WriteContext init(ParquetConfiguration configuration)
        {
            return new WriteContext(SCHEMA, new HashMap<>());
        }

        @Override
        public WriteContext init(org.apache.hadoop.conf.Configuration configuration)
        {
            return new WriteContext(SCHEMA, new HashMap<>());
        }

        @Override
        public void prepareForWrite(RecordConsumer recordConsumer)
        {
            this.consumer = recordConsumer;
        }

        @Override
        public void write(long[] record)
        {
            consumer.startMessage();
            for (int i = 0; i < record.length; i++) {
                consumer.startField(SCHEMA.getFieldName(i), i);
                consumer.addLong(record[i]);
                consumer.endField(SCHEMA.getFieldName(i), i);
            }
            consumer.endMessage();
        }
    }

    private static final class Builder
            extends ParquetWriter.Builder<long[], Builder>
    {
        private Builder(OutputFile file)
        {
            super(file);
        }

        @Override
        protected Builder self()
        {
            return this;
        }

        @Override
        protected WriteSupport<long[]> getWriteSupport(ParquetConfiguration configuration)
        {
            return new Support();
        }

        @Override
        protected WriteSupport<long[]> getWriteSupport(org.apache.hadoop.conf.Configuration configuration)
        {
            return new Support();
        }
    }
}
