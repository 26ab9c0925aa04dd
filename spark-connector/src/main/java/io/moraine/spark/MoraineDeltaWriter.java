package io.moraine.spark;

import io.moraine.core.write.InsertInlining;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.JoinedRow;
import org.apache.spark.sql.connector.write.DeltaWriter;
import org.apache.spark.sql.connector.write.DeltaWriterFactory;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.util.SerializableConfiguration;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * An executor's share of a DELETE, UPDATE or MERGE, in Spark's delta form: a deleted row is named by its
 * {@code _file_id} and {@code _pos} (a file row) or its {@code _row_id} (an inlined row), as the core's
 * {@code RowDeletes} takes them; an updated row is deleted so and its new version written keeping its row id
 * (DuckLake's update, whose change feed pairs the two as pre- and post-image); a MERGE's inserts are plain new rows.
 * New rows are held for inlining or written to data files as an append's are ({@link MoraineDataWriter}). It never
 * opens the store; the driver commits what it reports.
 */
final class MoraineDeltaWriter
        implements DeltaWriter<InternalRow>
{
    private final WriteRecipe recipe;
    private final Configuration hadoop;
    private final InsertInlining inlining;
    private final RowIdentity identity;
    /** Made at the first row each writes: a DELETE has no recipe (its table may hold types Spark cannot write). */
    private MoraineDataWriter inserts;
    private MoraineDataWriter updates;
    private final List<Long> fileIds = new ArrayList<>();
    private final List<Long> positions = new ArrayList<>();
    private final List<Long> inlinedRowIds = new ArrayList<>();

    /** @param recipe how to write new rows; null for a DELETE, which writes none */
    MoraineDeltaWriter(WriteRecipe recipe, Configuration hadoop, InsertInlining inlining, RowIdentity identity)
    {
        this.recipe = recipe;
        this.hadoop = hadoop;
        this.inlining = inlining;
        this.identity = identity;
    }

    private MoraineDataWriter writer(boolean keepRowIds)
    {
        if (recipe == null) {
            throw new IllegalStateException("a DELETE writes no rows");
        }
        return new MoraineDataWriter(recipe, hadoop, inlining, keepRowIds);
    }

    /**
     * Where a row's identity sits in what Spark hands over: {@code _file_id} and {@code _pos} in the metadata row,
     * {@code _row_id} in the row-id row.
     */
    record RowIdentity(int fileIdOrdinal, int positionOrdinal, int rowIdOrdinal)
            implements java.io.Serializable {}

    @Override
    public void delete(InternalRow metadata, InternalRow id)
    {
        if (metadata.isNullAt(identity.fileIdOrdinal())) {
            inlinedRowIds.add(id.getLong(identity.rowIdOrdinal()));
        }
        else {
            fileIds.add(metadata.getLong(identity.fileIdOrdinal()));
            positions.add(metadata.getLong(identity.positionOrdinal()));
        }
    }

    @Override
    public void update(InternalRow metadata, InternalRow id, InternalRow row)
            throws IOException
    {
        delete(metadata, id);
        if (updates == null) {
            updates = writer(true);
        }
        updates.write(new JoinedRow(row, new GenericInternalRow(new Object[] {id.getLong(identity.rowIdOrdinal())})));
    }

    @Override
    public void insert(InternalRow row)
            throws IOException
    {
        if (inserts == null) {
            inserts = writer(false);
        }
        inserts.write(row);
    }

    @Override
    public WriterCommitMessage commit()
            throws IOException
    {
        return new RowChangesMessage(written(inserts), written(updates), longs(fileIds), longs(positions), longs(inlinedRowIds));
    }

    private static WrittenFilesMessage written(MoraineDataWriter writer)
            throws IOException
    {
        return writer == null ? new WrittenFilesMessage(List.of(), null, 0, new long[0]) : (WrittenFilesMessage) writer.commit();
    }

    @Override
    public void abort()
    {
        if (inserts != null) {
            inserts.abort();
        }
        if (updates != null) {
            updates.abort();
        }
    }

    @Override
    public void close() {}

    private static long[] longs(List<Long> values)
    {
        return values.stream().mapToLong(Long::longValue).toArray();
    }

    /** Ships the recipe, the inlining limit, where the row identity sits and the Hadoop configuration to the executors. */
    record Factory(WriteRecipe recipe, Broadcast<SerializableConfiguration> hadoop, InsertInlining inlining, RowIdentity identity)
            implements DeltaWriterFactory
    {
        @Override
        public DeltaWriter<InternalRow> createWriter(int partitionId, long taskId)
        {
            return new MoraineDeltaWriter(recipe, hadoop.value().value(), inlining, identity);
        }
    }
}
