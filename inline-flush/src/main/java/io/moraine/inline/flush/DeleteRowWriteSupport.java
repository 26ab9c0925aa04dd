package io.moraine.inline.flush;

import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;

import java.util.Map;

/** Writes DuckLake's partial positional delete rows: (file_path, pos, _ducklake_internal_snapshot_id). */
final class DeleteRowWriteSupport
        extends WriteSupport<DeleteRowWriteSupport.Deletion>
{
    record Deletion(long position, long snapshotId) {}

    private final Binary dataFilePath;
    private RecordConsumer consumer;

    DeleteRowWriteSupport(String dataFilePath)
    {
        this.dataFilePath = Binary.fromString(dataFilePath);
    }

    @Override
    public WriteContext init(ParquetConfiguration configuration)
    {
        return new WriteContext(ParquetSchemas.deleteFile(), Map.of());
    }

    @Override
    public WriteContext init(org.apache.hadoop.conf.Configuration configuration)
    {
        return new WriteContext(ParquetSchemas.deleteFile(), Map.of());
    }

    @Override
    public void prepareForWrite(RecordConsumer recordConsumer)
    {
        this.consumer = recordConsumer;
    }

    @Override
    public void write(Deletion deletion)
    {
        consumer.startMessage();
        consumer.startField("file_path", 0);
        consumer.addBinary(dataFilePath);
        consumer.endField("file_path", 0);
        consumer.startField("pos", 1);
        consumer.addLong(deletion.position());
        consumer.endField("pos", 1);
        consumer.startField(ParquetSchemas.SNAPSHOT_ID, 2);
        consumer.addLong(deletion.snapshotId());
        consumer.endField(ParquetSchemas.SNAPSHOT_ID, 2);
        consumer.endMessage();
    }
}
