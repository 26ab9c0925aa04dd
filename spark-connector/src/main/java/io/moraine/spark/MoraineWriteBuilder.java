package io.moraine.spark;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.error.MoraineException;
import io.moraine.core.write.files.WriteOrdering;
import org.apache.spark.sql.connector.distributions.Distribution;
import org.apache.spark.sql.connector.expressions.SortOrder;
import org.apache.spark.sql.connector.write.RequiresDistributionAndOrdering;
import io.moraine.core.write.InsertInlining;
import io.moraine.core.write.WriteTransaction;
import org.apache.spark.sql.connector.write.BatchWrite;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.Write;
import org.apache.spark.sql.connector.expressions.filter.AlwaysTrue;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.connector.write.SupportsDynamicOverwrite;
import org.apache.spark.sql.connector.write.SupportsOverwriteV2;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.connector.write.streaming.StreamingWrite;
import org.apache.spark.sql.types.StructType;

/**
 * Appends to a moraine table ({@code INSERT INTO}, {@code df.writeTo(t).append()}, the insert of CTAS): the write
 * transaction begins on the driver when Spark plans the batch, at the lake's head, and fixes the layout the executors
 * write by. Overwrites delete rows in the same commit that adds the written ones: every row ({@link #truncate}), the
 * rows a condition accepts ({@link #overwrite}, decided by the core when the write is planned) or the rows in the
 * partitions the written rows fall in ({@link #overwriteDynamicPartitions}, decided by the core at the commit). A
 * streaming query's micro-batches append through {@link MoraineStreamingWrite}.
 *
 * @param overwrite the rows the write replaces: null for none (an append), an empty array for every row, else the
 *         condition's predicates (all must hold)
 */
record MoraineWriteBuilder(MoraineTable table, LogicalWriteInfo info, Predicate[] overwrite, boolean dynamic)
        implements WriteBuilder, SupportsOverwriteV2, SupportsDynamicOverwrite
{
    MoraineWriteBuilder(MoraineTable table, LogicalWriteInfo info)
    {
        this(table, info, null, false);
    }

    /** Spark asks whether it may overwrite by the condition; the core decides at planning, refusing a condition it cannot decide exactly. */
    @Override
    public boolean canOverwrite(Predicate[] predicates)
    {
        return true;
    }

    /**
     * {@code df.writeTo(t).overwrite(cond)} and {@code INSERT OVERWRITE t PARTITION (k = v, ...) ...} (static mode): the
     * rows {@code predicates} accept are deleted and the written rows added, in one commit.
     */
    @Override
    public WriteBuilder overwrite(Predicate[] predicates)
    {
        boolean everyRow = java.util.Arrays.stream(predicates).allMatch(predicate -> predicate instanceof AlwaysTrue);
        return new MoraineWriteBuilder(table, info, everyRow ? new Predicate[0] : predicates.clone(), false);
    }

    /**
     * {@code df.writeTo(t).overwritePartitions()} and {@code INSERT OVERWRITE} in dynamic mode
     * ({@code spark.sql.sources.partitionOverwriteMode=dynamic}): the partitions the written rows fall in are replaced
     * (every row of an unpartitioned table), in one commit.
     */
    @Override
    public WriteBuilder overwriteDynamicPartitions()
    {
        return new MoraineWriteBuilder(table, info, null, true);
    }

    private boolean overwrites()
    {
        return overwrite != null || dynamic;
    }


    /**
     * {@code INSERT OVERWRITE t ...} (static mode) and {@code df.writeTo(t).overwrite(lit(true))}: every row of the
     * table is deleted and the written rows added in the same commit, as DuckLake's {@code DELETE FROM t} plus
     * {@code INSERT} in one transaction.
     */
    @Override
    public WriteBuilder truncate()
    {
        return new MoraineWriteBuilder(table, info, new Predicate[0], false);
    }

    @Override
    public Write build()
    {
        SparkWriteOrdering ordering = ordering();
        return new RequiresDistributionAndOrdering()
        {
            @Override
            public Distribution requiredDistribution()
            {
                return ordering.distribution();
            }

            @Override
            public SortOrder[] requiredOrdering()
            {
                return ordering.ordering();
            }

            /** As Iceberg's writes: Spark may split a skewed partition over tasks (more files) rather than run it in one. */
            @Override
            public boolean distributionStrictlyRequired()
            {
                return false;
            }

            @Override
            public String description()
            {
                return "moraine " + statement();
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
        if (overwrites()) {
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
            // with the lake's files: an overwrite may add to delete files
            transaction = WriteTransaction.begin(OpenStores.writer(table.settings()),
                    new HadoopLakeFileSystem(io.moraine.spark.files.LakeObjectFileSystems.configure(org.apache.spark.sql.SparkSession.active().sessionState().newHadoopConf())));
        }
        catch (MoraineException e) {
            throw SparkErrors.of(e);
        }
        WriteTransaction begun = transaction;
        return CatalogWrites.build(begun, () -> {
            WriteRecipe recipe = WriteRecipe.of(begun.dataFileLayout(table.schemaName(), table.tableName()), table.name());
            checkSchema(recipe.fileSchema());
            AppendCommit.Replace replace = AppendCommit.Replace.NOTHING;
            if (dynamic) {
                replace = AppendCommit.Replace.PARTITIONS_WRITTEN;
            }
            else if (overwrite != null && overwrite.length == 0) {
                replace = AppendCommit.Replace.EVERY_ROW;
            }
            else if (overwrite != null) {
                deleteWhere(begun);
            }
            return new MoraineBatchWrite(table, begun, recipe, CatalogWrites.hadoopConfiguration(), InsertInlining.of(begun, table.schemaName(), table.tableName()),
                    replace, statement());
        });
    }

    /** The table's write ordering (partition keys, sort order) at the snapshot it was loaded at, by the core's rules. */
    private SparkWriteOrdering ordering()
    {
        try (CatalogSnapshot snapshot = OpenStores.catalog(table.settings()).at(table.snapshotId())) {
            return snapshot.model().table(table.schemaName(), table.tableName())
                    .map(lakeTable -> SparkWriteOrdering.of(WriteOrdering.at(snapshot, lakeTable)))
                    .orElse(SparkWriteOrdering.NONE);
        }
        catch (MoraineException e) {
            throw SparkErrors.of(e);
        }
    }

    /** The delete half of an overwrite by a condition, decided by the core now, before any task writes. */
    private void deleteWhere(WriteTransaction transaction)
    {
        String condition = condition();
        SparkFilters.Converted converted = SparkFilters.convert(overwrite, table.tableSchema());
        if (!converted.exact()) {
            throw SparkErrors.unsupported("cannot overwrite the rows of " + table.name() + " where " + condition + ": moraine overwrites by "
                    + "conditions of =, <, <=, >, >=, IN and IS [NOT] NULL on the table's columns joined by AND; use such a condition, or run "
                    + "DELETE FROM " + table.name() + " WHERE ... and then INSERT INTO");
        }
        try {
            transaction.deleteWhere(table.schemaName(), table.tableName(), converted.filter(), condition);
        }
        catch (MoraineException e) {
            throw SparkErrors.analysis("MORAINE_" + e.code().name(), "0A000", e.getMessage(), e);
        }
    }

    private String condition()
    {
        return java.util.Arrays.stream(overwrite).map(Predicate::toString).collect(java.util.stream.Collectors.joining(" AND "));
    }

    private String statement()
    {
        if (dynamic) {
            return "overwrite of the partitions written to " + table.name();
        }
        if (overwrite == null) {
            return "append to " + table.name();
        }
        return overwrite.length == 0 ? "overwrite of " + table.name() : "overwrite of " + table.name() + " where " + condition();
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
