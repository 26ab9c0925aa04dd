package io.moraine.spark;

import io.moraine.core.error.MoraineException;
import io.moraine.core.write.InlinedStreams;
import io.moraine.core.write.InsertInlining;
import io.moraine.core.write.files.ParquetFileStatistics;
import io.moraine.core.write.WriteTransaction;
import io.moraine.core.write.files.WrittenDataFile;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
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
import java.util.function.Consumer;
import java.util.ArrayList;
import java.util.List;

/**
 * An append on the driver: the {@link WriteTransaction} begun when Spark planned the write (its layout told the
 * executors where to write), and, at {@link #commit}, every task's files appended in that one transaction, their
 * statistics taken from the footers the executors' writers produced. Rows tasks held back are inlined when the whole
 * append has no more rows than the table's inlining limit (as DuckDB's small inserts are), else the driver writes them
 * to a data file. An abort deletes the files.
 */
final class MoraineBatchWrite
        implements BatchWrite
{
    private final MoraineTable table;
    private final WriteTransaction transaction;
    private final WriteRecipe recipe;
    private final Broadcast<SerializableConfiguration> hadoop;
    private final String statement;
    private final InsertInlining inlining;
    private final boolean truncate;

    /** {@code truncate}: the table's rows are deleted in the commit that adds the written ones (an overwrite). */
    MoraineBatchWrite(MoraineTable table, WriteTransaction transaction, WriteRecipe recipe, Broadcast<SerializableConfiguration> hadoop, InsertInlining inlining,
            boolean truncate)
    {
        this.table = table;
        this.truncate = truncate;
        this.inlining = inlining;
        this.transaction = transaction;
        this.recipe = recipe;
        this.hadoop = hadoop;
        this.statement = (truncate ? "overwrite of " : "append to ") + table.name() + " (Spark)";
    }

    @Override
    public DataWriterFactory createBatchWriterFactory(PhysicalWriteInfo info)
    {
        return new MoraineDataWriter.Factory(recipe, hadoop, inlining);
    }

    @Override
    public void commit(WriterCommitMessage[] messages)
    {
        List<WrittenFilesMessage> written = written(messages);
        long heldRows = written.stream().mapToLong(WrittenFilesMessage::inlinedRowCount).sum();
        long fileRows = written.stream().mapToLong(WrittenFilesMessage::fileRowCount).sum();
        List<WrittenFilesMessage.File> driverFiles = new ArrayList<>();
        boolean committed = false;
        try (BufferAllocator allocator = new RootAllocator()) {
            if (inlining.inlines(heldRows, fileRows)) {
                try (InlinedStreams held = InlinedStreams.read(written.stream().map(WrittenFilesMessage::inlinedRows).filter(rows -> rows != null).toList(),
                        allocator)) {
                    VectorSchemaRoot inlined = held.merged(allocator);
                    append(written, List.of(), writes -> writes.insertInlined(table.schemaName(), table.tableName(), inlined));
                    committed = true;
                }
            }
            else {
                if (heldRows > 0) {
                    driverFiles.addAll(writeHeldRows(written, allocator));
                }
                append(written, driverFiles, writes -> {});
                committed = true;
            }
        }
        catch (RuntimeException e) {
            if (committed) {
                // the files are the lake's now (freeing Arrow memory failed)
                throw e;
            }
            deleteAll(driverFiles);
            abort(messages);
            throw e;
        }
    }

    /** The rows tasks held back, in data files the driver writes (the append is over the inlining limit). */
    private List<WrittenFilesMessage.File> writeHeldRows(List<WrittenFilesMessage> written, BufferAllocator allocator)
    {
        return writeHeldRows(recipe, hadoop.value().value(), written, allocator, false);
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

    /** Commits the tasks' files, the driver's and the {@code inlining} step in the one transaction. */
    private void append(List<WrittenFilesMessage> written, List<WrittenFilesMessage.File> driverFiles, Consumer<WriteTransaction> inlining)
    {
        List<WrittenFilesMessage.File> all = new ArrayList<>(driverFiles);
        written.forEach(message -> all.addAll(message.files()));
        List<WrittenDataFile> files = dataFiles(all, recipe);
        CatalogWrites.commit(transaction, statement, writes -> {
            if (truncate) {
                // Rows added after the truncation in the same transaction are kept.
                writes.truncate(table.schemaName(), table.tableName());
            }
            inlining.accept(writes);
            if (!files.isEmpty()) {
                writes.appendDataFiles(table.schemaName(), table.tableName(), files);
            }
        });
    }

    /** Written files as the core adds them, their statistics from the footers the writers produced. */
    static List<WrittenDataFile> dataFiles(List<WrittenFilesMessage.File> written, WriteRecipe recipe)
    {
        List<WrittenDataFile> files = new ArrayList<>();
        for (WrittenFilesMessage.File file : written) {
            files.add(new WrittenDataFile(file.location(), file.sizeBytes(), file.footerSize(), file.recordCount(),
                    ParquetFileStatistics.fromFooter(footer(file), recipe.columns().columns()), file.partitionValues()));
        }
        return files;
    }

    private void deleteAll(List<WrittenFilesMessage.File> files)
    {
        Configuration configuration = hadoop.value().value();
        files.forEach(file -> delete(file.location(), configuration));
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
        written(messages).forEach(message -> files.addAll(message.files()));
        return files;
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
