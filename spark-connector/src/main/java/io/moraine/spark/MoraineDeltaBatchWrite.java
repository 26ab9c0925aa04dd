package io.moraine.spark;

import io.moraine.core.error.MoraineException;
import io.moraine.core.write.InlinedArrowSchema;
import io.moraine.core.write.RowDeletes;
import io.moraine.core.write.InsertInlining;
import io.moraine.core.write.WriteTransaction;
import io.moraine.core.write.files.WrittenDataFile;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.connector.write.DeltaBatchWrite;
import org.apache.spark.sql.connector.write.DeltaWriterFactory;
import org.apache.spark.sql.connector.write.PhysicalWriteInfo;
import org.apache.spark.sql.connector.write.RowLevelOperation;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.execution.arrow.ArrowWriter;
import org.apache.spark.util.SerializableConfiguration;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;

/**
 * A DELETE, UPDATE or MERGE on the driver: every task's deletes, updated rows and inserted rows committed in the
 * operation's one {@link WriteTransaction}, as Trino's coordinator commits its merge. Deleted rows go to the core's
 * {@code deleteRows}; the new versions of updated rows keep their row ids, inlined when the tasks held them all and
 * they fit the table's inlining limit ({@code insertInlinedKeepingRowIds}), else in data files with the row-id column;
 * a MERGE's inserts are inlined or written as an append's are ({@link MoraineBatchWrite}). An abort deletes the files.
 */
final class MoraineDeltaBatchWrite
        implements DeltaBatchWrite
{
    /** Kept so that the operation (whose transaction this commits) is not rolled back as garbage while Spark writes. */
    private final RowLevelOperation operation;
    private final MoraineTable table;
    private final String statement;
    private final WriteTransaction transaction;
    private final WriteRecipe recipe;
    private final Broadcast<SerializableConfiguration> hadoop;
    private final InsertInlining inlining;
    private final MoraineDeltaWriter.RowIdentity identity;

    MoraineDeltaBatchWrite(RowLevelOperation operation, MoraineTable table, String statement, WriteTransaction transaction, WriteRecipe recipe, Broadcast<SerializableConfiguration> hadoop,
            InsertInlining inlining, MoraineDeltaWriter.RowIdentity identity)
    {
        this.operation = operation;
        this.table = table;
        this.statement = statement;
        this.transaction = transaction;
        this.recipe = recipe;
        this.hadoop = hadoop;
        this.inlining = inlining;
        this.identity = identity;
    }

    @Override
    public DeltaWriterFactory createBatchWriterFactory(PhysicalWriteInfo info)
    {
        return new MoraineDeltaWriter.Factory(recipe, hadoop, inlining, identity);
    }

    @Override
    public void commit(WriterCommitMessage[] messages)
    {
        List<RowChangesMessage> changes = changes(messages);
        List<WrittenFilesMessage> inserted = changes.stream().map(RowChangesMessage::inserted).toList();
        List<WrittenFilesMessage> updated = changes.stream().map(RowChangesMessage::updated).toList();
        RowDeletes deletes = RowDeletes.create();
        for (RowChangesMessage change : changes) {
            for (int i = 0; i < change.deletedFileIds().length; i++) {
                deletes.fileRow(change.deletedFileIds()[i], change.deletedPositions()[i]);
            }
            LongStream.of(change.deletedInlinedRowIds()).forEach(deletes::inlinedRow);
        }
        Configuration configuration = hadoop.value().value();
        List<WrittenFilesMessage.File> driverFiles = new ArrayList<>();
        List<VectorSchemaRoot> roots = new ArrayList<>();
        // ended: the transaction is over (rolled back, or its commit tried); landed: the files are the lake's now
        boolean ended = false;
        boolean landed = false;
        try (BufferAllocator allocator = new RootAllocator()) {
            try {
                long heldUpdates = held(updated);
                // An update's held rows are weighed alone, not with the files its tasks wrote (as Trino's merge).
                boolean inlineUpdates = inlining.inlines(heldUpdates, 0);
                if (heldUpdates > 0 && !inlineUpdates) {
                    // each task's updated rows fit the limit, but not all of them: a file with their row ids, as DuckLake's
                    driverFiles.addAll(MoraineBatchWrite.writeHeldRows(recipe, configuration, updated, allocator, true));
                }
                List<WrittenFilesMessage.File> files = new ArrayList<>(driverFiles);
                inserted.forEach(message -> files.addAll(message.files()));
                updated.forEach(message -> files.addAll(message.files()));
                long heldInserts = held(inserted);
                long fileRows = files.stream().mapToLong(WrittenFilesMessage.File::recordCount).sum();
                boolean inlineInserts = inlining.inlines(heldInserts, fileRows);
                if (heldInserts > 0 && !inlineInserts) {
                    List<WrittenFilesMessage.File> written = MoraineBatchWrite.writeHeldRows(recipe, configuration, inserted, allocator, false);
                    driverFiles.addAll(written);
                    files.addAll(written);
                }
                if (deletes.isEmpty() && files.isEmpty() && !inlineUpdates && !inlineInserts) {
                    // nothing matched: no snapshot, as DuckDB commits none for a statement that changes no row
                    ended = true;
                    transaction.rollback();
                    return;
                }
                VectorSchemaRoot updatedRows = inlineUpdates ? collect(updated, allocator, roots) : null;
                long[] keptRowIds = inlineUpdates ? updated.stream().filter(message -> message.keptRowIds() != null)
                        .flatMapToLong(message -> LongStream.of(message.keptRowIds())).toArray() : null;
                VectorSchemaRoot insertedRows = inlineInserts ? collect(inserted, allocator, roots) : null;
                List<WrittenDataFile> dataFiles = MoraineBatchWrite.dataFiles(files, recipe);
                ended = true;
                CatalogWrites.commit(transaction, statement, writes -> {
                    if (!deletes.isEmpty()) {
                        writes.deleteRows(table.schemaName(), table.tableName(), deletes);
                    }
                    if (updatedRows != null) {
                        writes.insertInlinedKeepingRowIds(table.schemaName(), table.tableName(), updatedRows, keptRowIds);
                    }
                    if (insertedRows != null) {
                        writes.insertInlined(table.schemaName(), table.tableName(), insertedRows);
                    }
                    if (!dataFiles.isEmpty()) {
                        writes.appendDataFiles(table.schemaName(), table.tableName(), dataFiles);
                    }
                });
                landed = true;
            }
            finally {
                roots.forEach(VectorSchemaRoot::close);
            }
        }
        catch (RuntimeException e) {
            if (!landed) {
                driverFiles.forEach(file -> MoraineBatchWrite.delete(file.location(), configuration));
                files(messages).forEach(file -> MoraineBatchWrite.delete(file.location(), configuration));
                if (!ended) {
                    transaction.rollback();
                }
            }
            throw e;
        }
        finally {
            java.lang.ref.Reference.reachabilityFence(operation);
        }
    }

    /** The rows the tasks held, in one batch of the core's inlined types (open until the transaction ends). */
    private VectorSchemaRoot collect(List<WrittenFilesMessage> written, BufferAllocator allocator, List<VectorSchemaRoot> roots)
    {
        VectorSchemaRoot root = VectorSchemaRoot.create(InlinedArrowSchema.of(recipe.columns().columns()), allocator);
        roots.add(root);
        ArrowWriter writer = ArrowWriter.create(root);
        written.stream().filter(message -> message.inlinedRows() != null)
                .forEach(message -> SparkInlinedRows.forEachRow(message.inlinedRows(), allocator, writer::write));
        writer.finish();
        return root;
    }

    private static long held(List<WrittenFilesMessage> written)
    {
        return written.stream().mapToLong(WrittenFilesMessage::inlinedRowCount).sum();
    }

    @Override
    public void abort(WriterCommitMessage[] messages)
    {
        Configuration configuration = hadoop.value().value();
        files(messages).forEach(file -> MoraineBatchWrite.delete(file.location(), configuration));
        try {
            transaction.rollback();
        }
        catch (MoraineException | IllegalStateException ignored) {
            // already ended by a failed commit
        }
        finally {
            java.lang.ref.Reference.reachabilityFence(operation);
        }
    }

    private static List<WrittenFilesMessage.File> files(WriterCommitMessage[] messages)
    {
        List<WrittenFilesMessage.File> files = new ArrayList<>();
        for (RowChangesMessage change : changes(messages)) {
            files.addAll(change.inserted().files());
            files.addAll(change.updated().files());
        }
        return files;
    }

    private static List<RowChangesMessage> changes(WriterCommitMessage[] messages)
    {
        List<RowChangesMessage> changes = new ArrayList<>();
        for (WriterCommitMessage message : messages) {
            if (message instanceof RowChangesMessage change) {
                changes.add(change);
            }
        }
        return changes;
    }
}
