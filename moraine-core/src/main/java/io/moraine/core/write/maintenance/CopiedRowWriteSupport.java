package io.moraine.core.write.maintenance;

import io.moraine.core.write.files.DataFileSchema;
import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;

import java.util.Map;

/**
 * Writes rows read from data files of one schema (as parquet-java's example {@link Group}s) into a compaction's
 * output, value for value, followed by the hidden {@code _ducklake_internal_row_id} and {@code _ducklake_internal_snapshot_id}
 * columns, each when the output carries it, as DuckLake's compaction writes.
 */
final class CopiedRowWriteSupport
        extends WriteSupport<CopiedRowWriteSupport.CopiedRow>
{
    /** One row: the user columns of a source row (the first {@code userColumns} fields), its row id and snapshot id. */
    record CopiedRow(Group source, long rowId, long snapshotId) {}

    private final MessageType schema;
    private final int userColumns;
    private final boolean rowIds;
    private final boolean snapshotIds;
    private RecordConsumer consumer;

    CopiedRowWriteSupport(MessageType schema, int userColumns, boolean rowIds, boolean snapshotIds)
    {
        this.schema = schema;
        this.userColumns = userColumns;
        this.rowIds = rowIds;
        this.snapshotIds = snapshotIds;
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
    public void write(CopiedRow row)
    {
        consumer.startMessage();
        writeFields(row.source(), schema, userColumns);
        int index = userColumns;
        if (rowIds) {
            writeLong(DataFileSchema.ROW_ID_NAME, index++, row.rowId());
        }
        if (snapshotIds) {
            writeLong(DataFileSchema.SNAPSHOT_ID_NAME, index, row.snapshotId());
        }
        consumer.endMessage();
    }

    private void writeFields(Group group, GroupType type, int fields)
    {
        for (int field = 0; field < fields; field++) {
            int repetitions = group.getFieldRepetitionCount(field);
            if (repetitions == 0) {
                continue;
            }
            String name = type.getFieldName(field);
            consumer.startField(name, field);
            for (int index = 0; index < repetitions; index++) {
                if (type.getType(field).isPrimitive()) {
                    group.writeValue(field, index, consumer);
                }
                else {
                    GroupType child = type.getType(field).asGroupType();
                    consumer.startGroup();
                    writeFields(group.getGroup(field, index), child, child.getFieldCount());
                    consumer.endGroup();
                }
            }
            consumer.endField(name, field);
        }
    }

    private void writeLong(String name, int index, long value)
    {
        consumer.startField(name, index);
        consumer.addLong(value);
        consumer.endField(name, index);
    }
}
