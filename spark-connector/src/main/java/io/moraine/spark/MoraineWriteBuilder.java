package io.moraine.spark;

import io.moraine.core.error.MoraineException;
import io.moraine.core.write.InsertInlining;
import io.moraine.core.write.WriteTransaction;
import org.apache.spark.sql.connector.write.BatchWrite;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.Write;
import org.apache.spark.sql.connector.write.SupportsTruncate;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.connector.write.streaming.StreamingWrite;
import org.apache.spark.sql.types.StructType;

/**
 * Appends to a moraine table ({@code INSERT INTO}, {@code df.writeTo(t).append()}, the insert of CTAS): the write
 * transaction begins on the driver when Spark plans the batch, at the lake's head, and fixes the layout the executors
 * write by. An overwrite ({@link #truncate}) deletes the table's rows in the same commit; overwrites by a filter or of
 * partitions (dynamic mode) are not supported yet. A streaming query's micro-batches append through
 * {@link MoraineStreamingWrite}.
 */
record MoraineWriteBuilder(MoraineTable table, LogicalWriteInfo info, boolean overwrite)
        implements WriteBuilder, SupportsTruncate
{
    MoraineWriteBuilder(MoraineTable table, LogicalWriteInfo info)
    {
        this(table, info, false);
    }


    /**
     * {@code INSERT OVERWRITE t ...} (static mode) and {@code df.writeTo(t).overwrite(lit(true))}: every row of the
     * table is deleted and the written rows added in the same commit, as DuckLake's {@code DELETE FROM t} plus
     * {@code INSERT} in one transaction.
     */
    @Override
    public WriteBuilder truncate()
    {
        return new MoraineWriteBuilder(table, info, true);
    }

    @Override
    public Write build()
    {
        return new Write()
        {
            @Override
            public String description()
            {
                return (overwrite ? "moraine overwrite of " : "moraine append to ") + table.name();
            }

            @Override
            public BatchWrite toBatch()
            {
                return batch();
            }

            @Override
            public StreamingWrite toStreaming()
            {
                return streaming();
            }
        };
    }

    /**
     * A micro-batch of a streaming query ({@code writeStream ... toTable(t)}), in output mode append: Spark builds one
     * per micro-batch. Output mode complete (which Spark asks for through {@link #truncate}) is refused; update mode
     * Spark refuses itself, as this builder does not take update as append.
     */
    private StreamingWrite streaming()
    {
        if (overwrite) {
            throw SparkErrors.unsupported("moraine's streaming sink only appends: outputMode(\"complete\") would replace every row of " + table.name()
                    + " in each micro-batch, which it does not do; write the stream with outputMode(\"append\"), or replace the table's rows per batch in "
                    + "foreachBatch with df.writeTo(\"" + table.name() + "\").overwrite(lit(true))");
        }
        WriteTransaction begun;
        try {
            begun = WriteTransaction.begin(OpenStores.writer(table.settings()));
        }
        catch (MoraineException e) {
            throw SparkErrors.of(e);
        }
        return CatalogWrites.build(begun, () -> {
            WriteRecipe recipe = WriteRecipe.of(begun.dataFileLayout(table.schemaName(), table.tableName()), table.name());
            checkSchema(recipe.fileSchema());
            MoraineStreamingWrite write = new MoraineStreamingWrite(table, recipe, CatalogWrites.hadoopConfiguration(),
                    InsertInlining.of(begun, table.schemaName(), table.tableName()), info.queryId());
            // Each epoch commits in a transaction of its own, begun at the head when the epoch commits.
            begun.rollback();
            return write;
        });
    }

    private BatchWrite batch()
    {
        WriteTransaction transaction;
        try {
            transaction = WriteTransaction.begin(OpenStores.writer(table.settings()));
        }
        catch (MoraineException e) {
            throw SparkErrors.of(e);
        }
        WriteTransaction begun = transaction;
        return CatalogWrites.build(begun, () -> {
            WriteRecipe recipe = WriteRecipe.of(begun.dataFileLayout(table.schemaName(), table.tableName()), table.name());
            checkSchema(recipe.fileSchema());
            return new MoraineBatchWrite(table, begun, recipe, CatalogWrites.hadoopConfiguration(), InsertInlining.of(begun, table.schemaName(), table.tableName()),
                    overwrite);
        });
    }

    /** Spark hands rows in the table's schema as loaded; a table changed since then is refused rather than written wrongly. */
    private void checkSchema(StructType fileSchema)
    {
        StructType expected = SparkTypes.logical(table.tableSchema().columns());
        // catalogString leaves out nullability and metadata (field ids)
        if (fileSchema.catalogString().equals(expected.catalogString()) && !info.schema().catalogString().equals(expected.catalogString())) {
            // Spark resolves a batch write's columns to the table's; a stream's rows come as its query makes them.
            throw SparkErrors.analysis("MORAINE_COLUMNS_MISMATCH", "42000", "the rows written to " + table.name() + " have columns "
                    + info.schema().simpleString() + ", not the table's " + expected.simpleString() + "; select the table's columns, in its order and "
                    + "with its types, before writing (e.g. selectExpr with CASTs)");
        }
        if (!fileSchema.catalogString().equals(expected.catalogString()) || !info.schema().catalogString().equals(expected.catalogString())) {
            throw SparkErrors.analysis("MORAINE_TABLE_CHANGED", "40001", "table " + table.name() + " changed while the write was planned (its columns are now "
                    + fileSchema.simpleString() + "); run the write again");
        }
    }
}
