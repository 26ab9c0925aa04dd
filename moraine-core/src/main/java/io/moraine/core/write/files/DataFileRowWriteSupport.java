package io.moraine.core.write.files;

import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;

import java.util.Map;

/**
 * Writes the rows of a DuckLake data file with parquet-java's record consumer: the user columns, then the hidden
 * {@code _ducklake_internal_row_id} and {@code _ducklake_internal_snapshot_id} columns, each when the file's schema
 * carries it. Where the user values come from (rows read from Parquet files, Arrow batches) is the caller's
 * {@link UserColumns}.
 */
public final class DataFileRowWriteSupport<V>
        extends WriteSupport<DataFileRowWriteSupport.Row<V>>
{
    /** One row: its user values, its row id and the snapshot that inserted it. */
    public record Row<V>(V values, long rowId, long snapshotId) {}

    /** Writes one row's user columns, the first {@code count} fields of {@code schema}, to {@code consumer}. */
    @FunctionalInterface
    public interface UserColumns<V>
    {
        void write(V values, MessageType schema, int count, RecordConsumer consumer);
    }

    private final MessageType schema;
    private final boolean rowIds;
    private final boolean snapshotIds;
    private final int userColumnCount;
    private final UserColumns<V> userColumns;
    private RecordConsumer consumer;

    /**
     * @param schema the file's schema: the user columns, then the hidden columns {@code rowIds} and {@code snapshotIds} say it has
     */
    public DataFileRowWriteSupport(MessageType schema, boolean rowIds, boolean snapshotIds, UserColumns<V> userColumns)
    {
        this.schema = schema;
        this.rowIds = rowIds;
        this.snapshotIds = snapshotIds;
        this.userColumnCount = schema.getFieldCount() - (rowIds ? 1 : 0) - (snapshotIds ? 1 : 0);
        this.userColumns = userColumns;
    }

    @Override
    public WriteContext init(ParquetConfiguration configuration)
    {
        return new WriteContext(schema, Map.of());
    }

    @Override
    public WriteContext init(org.apache.hadoop.conf.Configuration configuration)
    {
        return new WriteContext(schema, Map.of());
    }

    @Override
    public void prepareForWrite(RecordConsumer recordConsumer)
    {
        this.consumer = recordConsumer;
    }

    @Override
    public void write(Row<V> row)
    {
        consumer.startMessage();
        userColumns.write(row.values(), schema, userColumnCount, consumer);
        int index = userColumnCount;
        if (rowIds) {
            writeLong(DataFileSchema.ROW_ID_NAME, index++, row.rowId());
        }
        if (snapshotIds) {
            writeLong(DataFileSchema.SNAPSHOT_ID_NAME, index, row.snapshotId());
        }
        consumer.endMessage();
    }

    private void writeLong(String name, int index, long value)
    {
        consumer.startField(name, index);
        consumer.addLong(value);
        consumer.endField(name, index);
    }
}
