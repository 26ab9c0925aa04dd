package io.moraine.spark;

import io.moraine.core.write.files.DataFileTarget;
import io.moraine.core.write.files.DataFileWriterSettings;
import io.moraine.core.write.files.MeasuredOutputFile;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.format.Util;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.util.HadoopOutputFile;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.execution.datasources.parquet.ParquetWriteSupport;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.StructType;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * One data file written by Spark's own Parquet writer ({@link ParquetWriteSupport} in parquet-java) at a
 * {@link DataFileTarget}: the table's columns with their ids as field ids (list elements and map keys and values too,
 * through {@link FieldIdWriteSupport}), DuckLake's writer settings (codec, row
 * group rows), timestamps as INT64 microseconds. Closing it keeps the footer the writer produced, for the driver's
 * statistics, and which top-level FLOAT and DOUBLE columns held a NaN (Spark's parquet-java 1.17 counts no NaN in the
 * footer; the core's {@code ParquetFileStatistics.withWrittenNans} takes what the writer saw).
 */
final class SparkDataFileWriter
{
    private final DataFileTarget target;
    private final MeasuredOutputFile file;
    private final ParquetWriter<InternalRow> writer;
    private final boolean[] nanWritten;
    // The top-level FLOAT and DOUBLE columns, found once: the per-row NaN check looks at these only.
    private final int[] floatColumns;
    private final int[] doubleColumns;
    private long rows;

    SparkDataFileWriter(DataFileTarget target, StructType fileSchema, Configuration hadoop)
    {
        this.target = target;
        this.nanWritten = new boolean[fileSchema.fields().length];
        this.floatColumns = columnsOf(fileSchema, FloatType.class);
        this.doubleColumns = columnsOf(fileSchema, DoubleType.class);
        Configuration configuration = new Configuration(hadoop);
        ParquetWriteSupport.setSchema(fileSchema, configuration);
        // ParquetWriteSupport reads its settings from the Hadoop configuration, not from the session
        configuration.set(SQLConf.PARQUET_WRITE_LEGACY_FORMAT().key(), "false");
        configuration.set(SQLConf.PARQUET_OUTPUT_TIMESTAMP_TYPE().key(), "TIMESTAMP_MICROS");
        configuration.set(SQLConf.PARQUET_FIELD_ID_WRITE_ENABLED().key(), "true");
        configuration.set(SQLConf.PARQUET_ANNOTATE_VARIANT_LOGICAL_TYPE().key(), "false");
        configuration.set("spark.sql.parquet.datetimeRebaseModeInWrite", "CORRECTED");
        configuration.set("spark.sql.parquet.int96RebaseModeInWrite", "CORRECTED");
        DataFileWriterSettings settings = target.settings();
        try {
            this.file = new MeasuredOutputFile(HadoopOutputFile.fromPath(HadoopLakeFileSystem.hadoopPath(target.location()), configuration));
            this.writer = new Builder(file, target.schema())
                    .withConf(configuration)
                    .withCompressionCodec(settings.compression())
                    .withRowGroupRowCountLimit(Math.toIntExact(Math.min(Integer.MAX_VALUE, settings.rowGroupRows())))
                    // no byte limit: a quarter of Long's range, since parquet-java compares the buffers against 3x it (at half, the
                    // product overflowed and every row group logged "Too much memory used" with a dump of the column store)
                    .withRowGroupSize(settings.rowGroupBytes().orElse(Long.MAX_VALUE / 4))
                    .withWriterVersion(settings.parquetVersion().filter(version -> version == 2).isPresent()
                            ? ParquetProperties.WriterVersion.PARQUET_2_0 : ParquetProperties.WriterVersion.PARQUET_1_0)
                    .build();
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot create data file " + target.location() + ": " + e.getMessage(), e);
        }
    }

    void write(InternalRow row)
            throws IOException
    {
        writer.write(row);
        rows++;
        for (int i : doubleColumns) {
            if (!nanWritten[i] && !row.isNullAt(i)) {
                nanWritten[i] = Double.isNaN(row.getDouble(i));
            }
        }
        for (int i : floatColumns) {
            if (!nanWritten[i] && !row.isNullAt(i)) {
                nanWritten[i] = Float.isNaN(row.getFloat(i));
            }
        }
    }

    private static int[] columnsOf(StructType schema, Class<? extends DataType> type)
    {
        return java.util.stream.IntStream.range(0, schema.fields().length).filter(i -> type.isInstance(schema.fields()[i].dataType())).toArray();
    }

    long rowCount()
    {
        return rows;
    }

    /** Bytes written so far, buffered row group included: when to roll over to a new file. */
    long dataSize()
    {
        return writer.getDataSize();
    }

    WrittenFilesMessage.File close()
            throws IOException
    {
        writer.close();
        ByteArrayOutputStream footer = new ByteArrayOutputStream();
        Util.writeFileMetaData(new ParquetMetadataConverter().toParquetMetadata(1, writer.getFooter()), footer);
        return new WrittenFilesMessage.File(target.location(), target.path(), target.partitionValues(), file.length(), file.footerLength(), rows,
                footer.toByteArray(), nanWritten.clone());
    }

    /** Closes and deletes the file (an aborted task). */
    void discard(Configuration hadoop)
    {
        try {
            writer.close();
        }
        catch (IOException | RuntimeException ignored) {
            // deleted below
        }
        try {
            org.apache.hadoop.fs.Path path = HadoopLakeFileSystem.hadoopPath(target.location());
            path.getFileSystem(hadoop).delete(path, false);
        }
        catch (IOException ignored) {
            // an orphan for the clean-up of old files
        }
    }

    private static final class Builder
            extends ParquetWriter.Builder<InternalRow, Builder>
    {
        private final MessageType target;

        Builder(OutputFile file, MessageType target)
        {
            super(file);
            this.target = target;
        }

        @Override
        protected Builder self()
        {
            return this;
        }

        @Override
        protected WriteSupport<InternalRow> getWriteSupport(Configuration configuration)
        {
            return new FieldIdWriteSupport(target);
        }
    }
}
