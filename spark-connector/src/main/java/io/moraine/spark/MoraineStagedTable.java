package io.moraine.spark;

import io.moraine.core.error.MoraineException;
import io.moraine.core.types.TableSchema;
import io.moraine.core.write.InsertInlining;
import io.moraine.core.write.WriteTransaction;
import org.apache.spark.sql.connector.catalog.StagedTable;
import org.apache.spark.sql.connector.catalog.SupportsWrite;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.write.BatchWrite;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.PhysicalWriteInfo;
import org.apache.spark.sql.connector.write.SupportsTruncate;
import org.apache.spark.sql.connector.write.Write;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.types.StructType;

import java.util.Map;
import java.util.Set;

/**
 * The table of a {@code CREATE TABLE AS SELECT}, {@code REPLACE TABLE AS SELECT} or {@code df.writeTo(t).create() /
 * createOrReplace()}, staged in one {@link WriteTransaction}: the transaction creates the table (after dropping the old
 * one, for a replace), the query's rows are added to it by the write, and {@link #commitStagedChanges} commits it all as
 * one snapshot. Before that nothing is visible; a query that fails ends the transaction and leaves the lake as it was.
 * The table's lake options (TBLPROPERTIES) are set in commits of their own right after it (DuckLake keys them by the
 * table's id, which the commit allocates); the write already obeys a lower {@code data_inlining_row_limit}.
 */
final class MoraineStagedTable
        implements StagedTable, SupportsWrite
{
    private final MoraineTable table;
    private final WriteTransaction transaction;
    private final String statement;
    private final Map<String, String> lakeOptions;
    private final Runnable setOptions;
    private WriterCommitMessage[] written = new WriterCommitMessage[0];
    private AppendCommit files;
    private MoraineBatchWrite write;

    /**
     * @param table the table as the transaction will create it (its id and snapshot not yet known)
     * @param setOptions sets {@code lakeOptions} once the table is committed
     */
    MoraineStagedTable(MoraineTable table, WriteTransaction transaction, String statement, Map<String, String> lakeOptions, Runnable setOptions)
    {
        this.table = table;
        this.transaction = transaction;
        this.statement = statement;
        this.lakeOptions = Map.copyOf(lakeOptions);
        this.setOptions = setOptions;
    }

    @Override
    public String name()
    {
        return table.name();
    }

    @Override
    public StructType schema()
    {
        return table.schema();
    }

    @Override
    public Set<TableCapability> capabilities()
    {
        return Set.of(TableCapability.BATCH_WRITE, TableCapability.TRUNCATE);
    }

    TableSchema tableSchema()
    {
        return table.tableSchema();
    }

    @Override
    public WriteBuilder newWriteBuilder(LogicalWriteInfo info)
    {
        return new SupportsTruncate()
        {
            /** A replace writes into the table its transaction creates, which has no rows to truncate. */
            @Override
            public WriteBuilder truncate()
            {
                return this;
            }

            @Override
            public Write build()
            {
                return new Write()
                {
                    @Override
                    public String description()
                    {
                        return "moraine " + statement;
                    }

                    @Override
                    public BatchWrite toBatch()
                    {
                        return CatalogWrites.build(transaction, () -> batch());
                    }
                };
            }
        };
    }

    private BatchWrite batch()
    {
        WriteRecipe recipe = WriteRecipe.of(transaction.dataFileLayout(table.schemaName(), table.tableName()), table.name());
        long limit = transaction.inliningRowLimit(table.schemaName(), table.tableName());
        String asked = lakeOptions.get("data_inlining_row_limit");
        if (asked != null) {
            // the core checks inlined rows against the limit it knows (the lake's), so only a lower one is obeyed now
            try {
                limit = Math.min(limit, Long.parseLong(asked.strip()));
            }
            catch (NumberFormatException e) {
                // refused when the option is set, after the commit
            }
        }
        var hadoop = CatalogWrites.hadoopConfiguration();
        files = new AppendCommit(table, recipe, hadoop);
        write = new MoraineBatchWrite(table, transaction, recipe, hadoop, new InsertInlining(limit), AppendCommit.Replace.NOTHING, statement,
                true);
        return new BatchWrite()
        {
            @Override
            public DataWriterFactory createBatchWriterFactory(PhysicalWriteInfo info)
            {
                return write.createBatchWriterFactory(info);
            }

            @Override
            public void commit(WriterCommitMessage[] messages)
            {
                written = messages;
                write.commit(messages);
            }

            @Override
            public void abort(WriterCommitMessage[] messages)
            {
                write.abort(messages);
            }
        };
    }

    /** Commits the table and its rows as one snapshot, then sets its lake options. */
    @Override
    public void commitStagedChanges()
    {
        boolean committed = false;
        try {
            CatalogWrites.commit(transaction, statement + " (Spark)", writes -> {});
            committed = true;
        }
        finally {
            if (!committed && files != null) {
                files.deleteFiles(written);
            }
            if (write != null) {
                write.release();
            }
        }
        setOptions.run();
    }

    /** The query failed (or was cancelled): nothing is committed, and the files the tasks wrote are deleted. */
    @Override
    public void abortStagedChanges()
    {
        if (files != null) {
            files.deleteFiles(written);
        }
        try {
            transaction.rollback();
        }
        catch (MoraineException | IllegalStateException ignored) {
            // ended already (a failed write rolled it back)
        }
        finally {
            if (write != null) {
                write.release();
            }
        }
    }
}
