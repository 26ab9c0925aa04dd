package io.moraine.spark;

import io.moraine.core.write.CommitInfo;
import io.moraine.core.write.InlinedStreams;
import io.moraine.core.write.InsertInlining;
import io.moraine.core.write.WriteTransaction;
import io.moraine.core.write.files.WrittenDataFile;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.util.SerializableConfiguration;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The driver's commit of an append's written rows, for a batch append and a streaming micro-batch alike: every task's
 * files appended in one transaction, their statistics taken from the footers the executors' writers produced. Rows tasks
 * held back are inlined when the whole append has no more rows than the table's inlining limit (as DuckDB's small
 * inserts are), else the driver writes them to a data file. A commit that fails deletes the files.
 */
final class AppendCommit
{
    /** Which rows of the table the commit deletes besides adding the written ones. */
    enum Replace
    {
        /** none: an append (an overwrite by a condition deleted its rows when the write was planned) */
        NOTHING,
        /** every row (an overwrite of the whole table) */
        EVERY_ROW,
        /** the rows in the partitions the written rows fall in (a dynamic partition overwrite) */
        PARTITIONS_WRITTEN,
    }

    private final MoraineTable table;
    private final WriteRecipe recipe;
    private final Broadcast<SerializableConfiguration> hadoop;

    /** Whether the changes are only added to the transaction, which a staged table commits later (CTAS, RTAS). */
    private final boolean staged;
    private List<AutoCloseable> keptOpen = List.of();

    AppendCommit(MoraineTable table, WriteRecipe recipe, Broadcast<SerializableConfiguration> hadoop)
    {
        this(table, recipe, hadoop, false);
    }

    AppendCommit(MoraineTable table, WriteRecipe recipe, Broadcast<SerializableConfiguration> hadoop, boolean staged)
    {
        this.table = table;
        this.recipe = recipe;
        this.hadoop = hadoop;
        this.staged = staged;
    }

    /**
     * Commits the tasks' {@code messages} in {@code transaction} as one snapshot recording {@code info} and returns its
     * id; {@code replace}: the rows the same commit deletes (an overwrite). On failure nothing is
     * committed, the files are deleted and the transaction ended.
     */
    long commit(WriteTransaction transaction, InsertInlining inlining, WriterCommitMessage[] messages, Replace replace, CommitInfo info)
    {
        List<WrittenFilesMessage> written = MoraineBatchWrite.written(messages);
        long heldRows = written.stream().mapToLong(WrittenFilesMessage::inlinedRowCount).sum();
        long fileRows = written.stream().mapToLong(WrittenFilesMessage::fileRowCount).sum();
        List<WrittenFilesMessage.File> driverFiles = new ArrayList<>();
        boolean committed = false;
        BufferAllocator allocator = new RootAllocator();
        InlinedStreams held = null;
        try {
            long snapshot;
            if (inlining.inlines(heldRows, fileRows)) {
                held = InlinedStreams.read(written.stream().map(WrittenFilesMessage::inlinedRows).filter(rows -> rows != null).toList(), allocator);
                VectorSchemaRoot inlined = held.merged(allocator);
                snapshot = append(transaction, written, List.of(), replace, info, writes -> writes.insertInlined(table.schemaName(), table.tableName(), inlined));
                committed = true;
            }
            else {
                if (heldRows > 0) {
                    driverFiles.addAll(MoraineBatchWrite.writeHeldRows(recipe, hadoop.value().value(), written, allocator, false));
                }
                snapshot = append(transaction, written, driverFiles, replace, info, writes -> {});
                committed = true;
            }
            return snapshot;
        }
        catch (Exception e) {
            // AnalysisException included: CatalogWrites throws it unchecked
            Configuration configuration = hadoop.value().value();
            driverFiles.forEach(file -> MoraineBatchWrite.delete(file.location(), configuration));
            abort(transaction, messages);
            throw e;
        }
        finally {
            if (staged && committed) {
                // the staged transaction holds the inlined rows until the table's commit (release)
                keptOpen = held == null ? List.of(allocator) : List.of(held, allocator);
            }
            else {
                close(held == null ? List.of(allocator) : List.of(held, allocator));
            }
        }
    }

    /** Frees the inlined rows a staged commit kept for its transaction (once the transaction ended). */
    void release()
    {
        close(keptOpen);
        keptOpen = List.of();
    }

    private static void close(List<AutoCloseable> resources)
    {
        for (AutoCloseable resource : resources) {
            try {
                resource.close();
            }
            catch (Exception ignored) {
                // memory only
            }
        }
    }

    /** Deletes the files the tasks wrote and ends {@code transaction} (null: none begun) without committing. */
    void abort(WriteTransaction transaction, WriterCommitMessage[] messages)
    {
        deleteFiles(messages);
        if (transaction != null) {
            try {
                transaction.rollback();
            }
            catch (RuntimeException ignored) {
                // already ended by a failed commit
            }
        }
    }

    /** Deletes the files the tasks wrote (an aborted write, or a streaming epoch the lake already holds). */
    void deleteFiles(WriterCommitMessage[] messages)
    {
        Configuration configuration = hadoop.value().value();
        MoraineBatchWrite.written(messages).forEach(message -> message.files().forEach(file -> MoraineBatchWrite.delete(file.location(), configuration)));
    }

    /** Commits the tasks' files, the driver's and the {@code inlining} step in the one transaction. */
    private long append(WriteTransaction transaction, List<WrittenFilesMessage> written, List<WrittenFilesMessage.File> driverFiles, Replace replace,
            CommitInfo info, Consumer<WriteTransaction> inlining)
    {
        List<WrittenFilesMessage.File> all = new ArrayList<>(driverFiles);
        written.forEach(message -> all.addAll(message.files()));
        List<WrittenDataFile> files = MoraineBatchWrite.dataFiles(all, recipe);
        Consumer<WriteTransaction> changes = writes -> {
            if (replace == Replace.EVERY_ROW) {
                // Rows added after the truncation in the same transaction are kept.
                writes.truncate(table.schemaName(), table.tableName());
            }
            inlining.accept(writes);
            if (!files.isEmpty()) {
                writes.appendDataFiles(table.schemaName(), table.tableName(), files);
            }
            if (replace == Replace.PARTITIONS_WRITTEN) {
                // the core finds the partitions from the rows just added
                writes.deletePartitionsWritten(table.schemaName(), table.tableName());
            }
        };
        if (staged) {
            try {
                changes.accept(transaction);
            }
            catch (io.moraine.core.error.MoraineException e) {
                transaction.rollback();
                throw SparkErrors.analysis("MORAINE_" + e.code().name(), "42000", info.message() + " failed: " + e.getMessage(), e);
            }
            return transaction.readSnapshotId();
        }
        return CatalogWrites.commit(transaction, info, changes);
    }
}
