package io.moraine.spark;

import io.moraine.core.error.MoraineException;
import io.moraine.core.write.ParquetFileStatistics;
import io.moraine.core.write.WriteTransaction;
import io.moraine.core.write.WrittenDataFile;
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
import java.util.ArrayList;
import java.util.List;

/**
 * An append on the driver: the {@link WriteTransaction} begun when Spark planned the write (its layout told the
 * executors where to write), and, at {@link #commit}, every task's files appended in that one transaction, their
 * statistics taken from the footers the executors' writers produced. An abort deletes the files.
 */
final class MoraineBatchWrite
        implements BatchWrite
{
    private final MoraineTable table;
    private final WriteTransaction transaction;
    private final WriteRecipe recipe;
    private final Broadcast<SerializableConfiguration> hadoop;
    private final String statement;

    MoraineBatchWrite(MoraineTable table, WriteTransaction transaction, WriteRecipe recipe, Broadcast<SerializableConfiguration> hadoop)
    {
        this.table = table;
        this.transaction = transaction;
        this.recipe = recipe;
        this.hadoop = hadoop;
        this.statement = "append to " + table.name() + " (Spark)";
    }

    @Override
    public DataWriterFactory createBatchWriterFactory(PhysicalWriteInfo info)
    {
        return new MoraineDataWriter.Factory(recipe, hadoop);
    }

    @Override
    public void commit(WriterCommitMessage[] messages)
    {
        List<WrittenDataFile> files = new ArrayList<>();
        for (WrittenFilesMessage.File file : files(messages)) {
            files.add(new WrittenDataFile(file.location(), file.sizeBytes(), file.footerSize(), file.recordCount(),
                    ParquetFileStatistics.fromFooter(footer(file), recipe.columns().columns()), file.partitionValues()));
        }
        try {
            CatalogWrites.commit(transaction, statement, writes -> writes.appendDataFiles(table.schemaName(), table.tableName(), files));
        }
        catch (RuntimeException e) {
            abort(messages);
            throw e;
        }
    }

    @Override
    public void abort(WriterCommitMessage[] messages)
    {
        Configuration configuration = hadoop.value().value();
        for (WrittenFilesMessage.File file : files(messages)) {
            delete(file.location(), configuration);
        }
        try {
            transaction.rollback();
        }
        catch (MoraineException | IllegalStateException ignored) {
            // already ended by a failed commit
        }
    }

    private static List<WrittenFilesMessage.File> files(WriterCommitMessage[] messages)
    {
        List<WrittenFilesMessage.File> files = new ArrayList<>();
        for (WriterCommitMessage message : messages) {
            if (message instanceof WrittenFilesMessage written) {
                files.addAll(written.files());
            }
        }
        return files;
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
