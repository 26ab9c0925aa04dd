package io.moraine.core.write.files;

import io.moraine.core.scan.DataFileTask;
import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;

import java.util.Map;

/**
 * Writes DuckLake's positional delete rows (reference §1.5): {@code (file_path, pos)} with field ids 2147483646 and
 * 2147483645, and, in a cumulative ("partial") delete file, {@code _ducklake_internal_snapshot_id}, the snapshot that
 * deleted each position. The caller writes positions sorted and unique.
 */
public final class DeleteRowWriteSupport
        extends WriteSupport<DeleteRowWriteSupport.Deletion>
{
    public static final int FILE_PATH_FIELD_ID = 2147483646;
    public static final int POSITION_FIELD_ID = 2147483645;
    public static final String SNAPSHOT_ID = "_ducklake_internal_snapshot_id";

    /** A deleted position and the snapshot that deleted it (not written by a plain delete file). */
    public record Deletion(long position, long snapshotId) {}

    private final Binary dataFilePath;
    private final boolean withSnapshots;
    private RecordConsumer consumer;

    /**
     * @param dataFilePath the data file's full path, as DuckLake writes it into {@code file_path}
     * @param withSnapshots whether the file records each position's snapshot (DuckLake's partial form)
     */
    public DeleteRowWriteSupport(String dataFilePath, boolean withSnapshots)
    {
        this.dataFilePath = Binary.fromString(dataFilePath);
        this.withSnapshots = withSnapshots;
    }

    /** The schema of a delete file, with or without the snapshot column. */
    public static MessageType schema(boolean withSnapshots)
    {
        var file = Types.optional(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType()).id(FILE_PATH_FIELD_ID).named("file_path");
        var position = Types.optional(PrimitiveTypeName.INT64).id(POSITION_FIELD_ID).named("pos");
        if (!withSnapshots) {
            return new MessageType("duckdb_schema", file, position);
        }
        return new MessageType("duckdb_schema", file, position,
                Types.optional(PrimitiveTypeName.INT64).id(DataFileTask.SNAPSHOT_ID_FIELD_ID).named(SNAPSHOT_ID));
    }

    @Override
    public WriteContext init(ParquetConfiguration configuration)
    {
        return new WriteContext(schema(withSnapshots), Map.of());
    }

    @Override
    public WriteContext init(org.apache.hadoop.conf.Configuration configuration)
    {
        return new WriteContext(schema(withSnapshots), Map.of());
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
        if (withSnapshots) {
            consumer.startField(SNAPSHOT_ID, 2);
            consumer.addLong(deletion.snapshotId());
            consumer.endField(SNAPSHOT_ID, 2);
        }
        consumer.endMessage();
    }
}
