package io.moraine.spark;

import io.moraine.core.write.CommitInfo;
import io.moraine.core.write.InsertInlining;
import io.moraine.core.write.files.ParquetFileStatistics;
import io.moraine.core.write.WriteTransaction;
import io.moraine.core.write.files.WrittenDataFile;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.format.Util;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.connector.write.BatchWrite;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.connector.write.PhysicalWriteInfo;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.util.SerializableConfiguration;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * An append on the driver: the {@link WriteTransaction} begun when Spark planned the write (its layout told the
 * executors where to write), committed by {@link AppendCommit} with every task's files and held rows. An abort deletes
 * the files. Also holds the helpers the driver's commits share (held rows to files, footers to statistics).
 */
final class MoraineBatchWrite
        implements BatchWrite
{
    private final WriteTransaction transaction;
    private final WriteRecipe recipe;
    private final Broadcast<SerializableConfiguration> hadoop;
    private final String statement;
    private final InsertInlining inlining;
    private final AppendCommit.Replace replace;
    private final AppendCommit append;

    /** {@code replace}: the rows the commit that adds the written ones deletes (an overwrite); {@code statement} names the write. */
    MoraineBatchWrite(MoraineTable table, WriteTransaction transaction, WriteRecipe recipe, Broadcast<SerializableConfiguration> hadoop, InsertInlining inlining,
            AppendCommit.Replace replace, String statement)
    {
        this(table, transaction, recipe, hadoop, inlining, replace, statement, false);
    }

    /** {@code staged}: the commit only adds the rows to {@code transaction}, which a staged table commits (CTAS, RTAS). */
    MoraineBatchWrite(MoraineTable table, WriteTransaction transaction, WriteRecipe recipe, Broadcast<SerializableConfiguration> hadoop, InsertInlining inlining,
            AppendCommit.Replace replace, String statement, boolean staged)
    {
        this.replace = replace;
        this.inlining = inlining;
        this.transaction = transaction;
        this.recipe = recipe;
        this.hadoop = hadoop;
        this.statement = statement + " (Spark)";
        this.append = new AppendCommit(table, recipe, hadoop, staged);
    }

    @Override
    public DataWriterFactory createBatchWriterFactory(PhysicalWriteInfo info)
    {
        return new MoraineDataWriter.Factory(recipe, hadoop, inlining);
    }

    @Override
    public void commit(WriterCommitMessage[] messages)
    {
        append.commit(transaction, inlining, messages, replace, new CommitInfo(CatalogWrites.AUTHOR, statement, null));
    }

    /**
     * The rows tasks held back, in data files the driver writes; with {@code keepRowIds} (the new rows of an update)
     * each with the row id its message gives it, in the files' {@code _ducklake_internal_row_id} column.
     */
    static List<WrittenFilesMessage.File> writeHeldRows(WriteRecipe recipe, Configuration configuration, List<WrittenFilesMessage> written,
            BufferAllocator allocator, boolean keepRowIds)
    {
        MoraineDataWriter writer = new MoraineDataWriter(recipe, configuration, InsertInlining.OFF, keepRowIds);
        try {
            for (WrittenFilesMessage message : written) {
                if (message.inlinedRows() != null) {
                    int[] next = {0};
                    SparkInlinedRows.forEachRow(message.inlinedRows(), allocator, row -> {
                        try {
                            writer.write(keepRowIds
                                    ? new org.apache.spark.sql.catalyst.expressions.JoinedRow(row, new org.apache.spark.sql.catalyst.expressions.GenericInternalRow(
                                            new Object[] {message.keptRowIds()[next[0]++]}))
                                    : row);
                        }
                        catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    });
                }
            }
            return ((WrittenFilesMessage) writer.commit()).files();
        }
        catch (IOException | RuntimeException e) {
            writer.abort();
            throw e instanceof RuntimeException runtime ? runtime : new UncheckedIOException((IOException) e);
        }
    }

    /** Written files as the core adds them, their statistics from the footers the writers produced. */
    static List<WrittenDataFile> dataFiles(List<WrittenFilesMessage.File> written, WriteRecipe recipe)
    {
        List<WrittenDataFile> files = new ArrayList<>();
        for (WrittenFilesMessage.File file : written) {
            List<io.moraine.core.types.TableColumn> columns = recipe.columns().columns(); // no recipe when nothing was written (a DELETE)
            java.util.Map<Long, Boolean> nans = new java.util.HashMap<>();
            for (int i = 0; i < columns.size(); i++) {
                org.apache.spark.sql.types.DataType type = recipe.fileSchema().fields()[i].dataType();
                if (type instanceof org.apache.spark.sql.types.DoubleType || type instanceof org.apache.spark.sql.types.FloatType) {
                    nans.put(columns.get(i).columnId(), file.nanWritten()[i]);
                }
            }
            files.add(new WrittenDataFile(file.location(), file.sizeBytes(), file.footerSize(), file.recordCount(),
                    ParquetFileStatistics.withWrittenNans(ParquetFileStatistics.fromFooter(footer(file), columns), nans), file.partitionValues()));
        }
        return files;
    }

    /** Frees what a staged commit kept for its transaction; call once the transaction ended. */
    void release()
    {
        append.release();
    }

    @Override
    public void abort(WriterCommitMessage[] messages)
    {
        append.abort(transaction, messages);
    }

    static List<WrittenFilesMessage> written(WriterCommitMessage[] messages)
    {
        List<WrittenFilesMessage> written = new ArrayList<>();
        for (WriterCommitMessage message : messages) {
            if (message instanceof WrittenFilesMessage files) {
                written.add(files);
            }
        }
        return written;
    }

    private static ParquetMetadata footer(WrittenFilesMessage.File file)
    {
        try {
            return new ParquetMetadataConverter().fromParquetMetadata(Util.readFileMetaData(new ByteArrayInputStream(file.footer())));
        }
        catch (IOException e) {
            throw new IllegalStateException("the footer of written data file " + file.location() + " cannot be decoded: " + e.getMessage(), e);
        }
    }

    static void delete(String location, Configuration configuration)
    {
        try {
            org.apache.hadoop.fs.Path path = HadoopLakeFileSystem.hadoopPath(location);
            path.getFileSystem(configuration).delete(path, false);
        }
        catch (IOException | RuntimeException ignored) {
            // an orphan for the clean-up of old files
        }
    }
}
