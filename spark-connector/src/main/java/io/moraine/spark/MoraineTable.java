package io.moraine.spark;

import io.moraine.core.types.TableSchema;
import org.apache.spark.sql.connector.catalog.MetadataColumn;
import org.apache.spark.sql.connector.catalog.SupportsMetadataColumns;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.SupportsWrite;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

import java.util.Set;

/**
 * A moraine table at one snapshot: its columns there, and scans of it at that snapshot; appends go to the lake's head
 * ({@link MoraineWriteBuilder}).
 *
 * @param catalogName the Spark catalog it was loaded through
 * @param snapshotId the snapshot every scan of it reads
 */
record MoraineTable(MoraineSettings settings, String catalogName, String schemaName, String tableName, long tableId, long snapshotId, TableSchema tableSchema)
        implements SupportsRead, SupportsWrite, SupportsMetadataColumns
{
    @Override
    public String name()
    {
        return catalogName + "." + schemaName + "." + tableName;
    }

    /** The table as DuckLake names it, {@code schema.table} (errors about its files name it so, as Trino's and {@code bin/moraine cat}'s do). */
    String lakeName()
    {
        return schemaName + "." + tableName;
    }

    @Override
    public String id()
    {
        return settings.store() + "#" + tableId;
    }

    /** The snapshot the table is read at, so that Spark sees a new version when the lake moves on. */
    @Override
    public String version()
    {
        return Long.toString(snapshotId);
    }

    @Override
    public StructType schema()
    {
        return SparkTypes.logical(tableSchema.columns());
    }

    @Override
    public Set<TableCapability> capabilities()
    {
        return Set.of(TableCapability.BATCH_READ, TableCapability.BATCH_WRITE);
    }

    @Override
    public MetadataColumn[] metadataColumns()
    {
        return MetadataColumns.ALL.toArray(MetadataColumn[]::new);
    }

    @Override
    public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options)
    {
        return new MoraineScanBuilder(this);
    }

    @Override
    public WriteBuilder newWriteBuilder(LogicalWriteInfo info)
    {
        return new MoraineWriteBuilder(this, info);
    }

    @Override
    public java.util.Map<String, String> properties()
    {
        return java.util.Map.of("moraine.table-id", Long.toString(tableId), "moraine.snapshot-id", Long.toString(snapshotId));
    }
}
