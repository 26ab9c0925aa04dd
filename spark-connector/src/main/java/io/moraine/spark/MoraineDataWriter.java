package io.moraine.spark;

import io.moraine.core.write.InsertInlining;
import io.moraine.core.write.HeldRows;
import io.moraine.core.write.files.DataFileLayout;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.connector.write.streaming.StreamingDataWriterFactory;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.DataTypes;
import io.moraine.core.scan.DataFileTask;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.util.SerializableConfiguration;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An executor's writer of one task: its rows into data files at the layout's targets, one open file per partition
 * (DuckLake rolls unpartitioned files over at the target size only). While the task has no more rows than the table's
 * inlining limit it holds them instead, for the driver to inline when the whole append fits the limit; its first row
 * past the limit sends the held rows to files too. It never opens the store; the driver commits what it reports.
 * A writer that keeps row ids (the new rows of an UPDATE or MERGE) takes rows with one more column, the row id each
 * keeps, and writes it to its files as DuckLake's {@code _ducklake_internal_row_id} (or reports it with the held rows).
 */
final class MoraineDataWriter
        implements DataWriter<InternalRow>
{
    /** The column DuckLake keeps an updated row's id in. */
    static final String ROW_ID_COLUMN = io.moraine.core.write.files.DataFileSchema.ROW_ID_NAME;
    /** How often a rolling file's size is measured: a file overshoots the target size by at most this many rows. */
    private static final int SIZE_CHECK_ROWS = 1024;

    private final WriteRecipe recipe;
    private final DataFileLayout layout;
    private final Configuration hadoop;
    private final Map<Long, Integer> ordinals = new HashMap<>();
    /** In the order the partitions first appear, as DuckDB orders a write's files (and so their row ids). */
    private final Map<List<String>, SparkDataFileWriter> open = new java.util.LinkedHashMap<>();
    private final List<WrittenFilesMessage.File> written = new ArrayList<>();
    private final boolean keepRowIds;
    private final StructType fileSchema;
    private final HeldRows<InternalRow> held;

    /** {@code inlining}: how many rows the task may hold for inlining ({@link InsertInlining#OFF}: every row goes to a file). */
    MoraineDataWriter(WriteRecipe recipe, Configuration hadoop, InsertInlining inlining)
    {
        this(recipe, hadoop, inlining, false);
    }

    /** {@code keepRowIds}: each row ends with the row id it keeps (BIGINT, after the table's columns). */
    MoraineDataWriter(WriteRecipe recipe, Configuration hadoop, InsertInlining inlining, boolean keepRowIds)
    {
        this.recipe = recipe;
        this.keepRowIds = keepRowIds;
        this.fileSchema = keepRowIds
                ? recipe.fileSchema().add(SparkTypes.withFieldId(ROW_ID_COLUMN, DataTypes.LongType, DataFileTask.ROW_ID_FIELD_ID))
                : recipe.fileSchema();
        this.held = inlining.newTask();
        this.layout = recipe.layout();
        this.hadoop = hadoop;
        for (int i = 0; i < recipe.columns().columns().size(); i++) {
            ordinals.put(recipe.columns().columns().get(i).columnId(), i);
        }
    }

    @Override
    public void write(InternalRow row)
            throws IOException
    {
        if (!held.holding()) {
            writeToFile(row);
            return;
        }
        for (InternalRow toFile : held.hold(row.copy(), 1)) {
            writeToFile(toFile);
        }
    }

    private void writeToFile(InternalRow row)
            throws IOException
    {
        List<String> partition = layout.partitionValues(columnId -> value(row, ordinals.get(columnId)));
        SparkDataFileWriter file = open.get(partition);
        if (file == null) {
            file = new SparkDataFileWriter(layout.target(partition, keepRowIds), fileSchema, hadoop);
            open.put(partition, file);
        }
        file.write(row);
        // the buffered size sums every column's buffers: measured every SIZE_CHECK_ROWS rows, not per row (a few per cent of a write)
        if (recipe.rollOver() && file.rowCount() % SIZE_CHECK_ROWS == 0 && file.dataSize() >= recipe.targetFileSizeBytes()) {
            written.add(file.close());
            open.remove(partition);
        }
    }

    @Override
    public WriterCommitMessage commit()
            throws IOException
    {
        for (SparkDataFileWriter file : open.values()) {
            written.add(file.close());
        }
        open.clear();
        byte[] inlined = held.rowCount() == 0 ? null : SparkInlinedRows.encode(held.batches(), recipe.columns().columns());
        long[] rowIds = null;
        if (keepRowIds) {
            int ordinal = recipe.columns().columns().size();
            rowIds = held.batches().stream().mapToLong(row -> row.getLong(ordinal)).toArray();
        }
        return new WrittenFilesMessage(List.copyOf(written), inlined, held.rowCount(), rowIds);
    }

    @Override
    public void abort()
    {
        open.values().forEach(file -> file.discard(hadoop));
        open.clear();
        held.discard();
        for (WrittenFilesMessage.File file : written) {
            MoraineBatchWrite.delete(file.location(), hadoop);
        }
    }

    @Override
    public void close() {}

    private Object value(InternalRow row, int ordinal)
    {
        return SparkPartitionValues.value(row, ordinal, recipe.fileSchema().fields()[ordinal]);
    }

    /** Ships the recipe, the inlining limit and the Hadoop configuration to the executors, for a batch or a micro-batch. */
    record Factory(WriteRecipe recipe, Broadcast<SerializableConfiguration> hadoop, InsertInlining inlining)
            implements DataWriterFactory, StreamingDataWriterFactory
    {
        @Override
        public DataWriter<InternalRow> createWriter(int partitionId, long taskId)
        {
            return new MoraineDataWriter(recipe, hadoop.value().value(), inlining);
        }

        @Override
        public DataWriter<InternalRow> createWriter(int partitionId, long taskId, long epochId)
        {
            return createWriter(partitionId, taskId);
        }
    }
}
