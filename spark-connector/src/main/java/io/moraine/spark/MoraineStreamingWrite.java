package io.moraine.spark;

import io.moraine.core.error.MoraineException;
import io.moraine.core.write.InsertInlining;
import io.moraine.core.write.StreamEpochs;
import io.moraine.core.write.WriteTransaction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.connector.write.PhysicalWriteInfo;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.connector.write.streaming.StreamingDataWriterFactory;
import org.apache.spark.sql.connector.write.streaming.StreamingWrite;
import org.apache.spark.util.SerializableConfiguration;

/**
 * A streaming query's appends ({@code writeStream ... toTable(t)}): the executors write each micro-batch as a batch
 * append's tasks do (rows held while under the table's inlining limit, else Parquet files), and {@link #commit} commits
 * each epoch as one snapshot through {@link AppendCommit}, at the lake's head, recording the query's id and the epoch
 * ({@link StreamEpochs}). An epoch the lake already holds — replayed after a restart that came between the commit and
 * Spark's own commit log — commits nothing, and the files its replay wrote are deleted.
 */
final class MoraineStreamingWrite
        implements StreamingWrite
{
    private final MoraineTable table;
    private final WriteRecipe recipe;
    private final Broadcast<SerializableConfiguration> hadoop;
    private final InsertInlining inlining;
    private final String queryId;
    private final AppendCommit append;

    /**
     * @param recipe the layout the executors write by, as the table was when the micro-batch was planned
     * @param inlining how many rows each task holds for inlining
     * @param queryId the streaming query's id (kept in its checkpoint, the same after a restart)
     */
    MoraineStreamingWrite(MoraineTable table, WriteRecipe recipe, Broadcast<SerializableConfiguration> hadoop, InsertInlining inlining, String queryId)
    {
        this.table = table;
        this.recipe = recipe;
        this.hadoop = hadoop;
        this.inlining = inlining;
        this.queryId = queryId;
        this.append = new AppendCommit(table, recipe, hadoop);
    }

    @Override
    public StreamingDataWriterFactory createStreamingWriterFactory(PhysicalWriteInfo info)
    {
        return new MoraineDataWriter.Factory(recipe, hadoop, inlining);
    }

    @Override
    public void commit(long epochId, WriterCommitMessage[] messages)
    {
        String statement = "streaming append to " + table.name() + " (Spark query " + queryId + ", epoch " + epochId + ")";
        WriteTransaction transaction;
        try {
            transaction = WriteTransaction.begin(OpenStores.writer(table.settings()));
        }
        catch (MoraineException e) {
            append.deleteFiles(messages);
            throw SparkErrors.of(e);
        }
        InsertInlining atHead;
        try {
            if (transaction.streamEpochCommitted(queryId, epochId)) {
                // A replay: the lake holds this epoch already.
                append.abort(transaction, messages);
                return;
            }
            checkLayout(transaction);
            atHead = InsertInlining.of(transaction, table.schemaName(), table.tableName());
        }
        catch (Exception e) {
            // AnalysisException included: SparkErrors throws it unchecked
            append.abort(transaction, messages);
            if (e instanceof MoraineException moraine) {
                throw SparkErrors.of(moraine);
            }
            throw e;
        }
        append.commit(transaction, atHead, messages, AppendCommit.Replace.NOTHING, StreamEpochs.commitInfo(CatalogWrites.AUTHOR, statement, queryId, epochId));
    }

    /** The executors wrote by the table's columns and partitioning as planned; a table altered since is refused, not written wrongly. */
    private void checkLayout(WriteTransaction transaction)
    {
        WriteRecipe now = WriteRecipe.of(transaction.dataFileLayout(table.schemaName(), table.tableName()), table.name());
        if (!now.columnRecipes().equals(recipe.columnRecipes()) || !now.keys().equals(recipe.keys()) || now.partitionId() != recipe.partitionId()
                || !now.tablePath().equals(recipe.tablePath())) {
            throw SparkErrors.analysis("MORAINE_TABLE_CHANGED", "40001", "table " + table.name() + " changed (columns or partitioning) while the streaming "
                    + "query " + queryId + " wrote its epoch; nothing of the epoch was committed; restart the query from its checkpoint to write the epoch again");
        }
    }

    @Override
    public void abort(long epochId, WriterCommitMessage[] messages)
    {
        append.deleteFiles(messages);
    }
}
