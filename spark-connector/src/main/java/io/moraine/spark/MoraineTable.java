package io.moraine.spark;

import io.moraine.core.types.TableSchema;
import org.apache.spark.sql.connector.catalog.MetadataColumn;
import org.apache.spark.sql.connector.catalog.SupportsMetadataColumns;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.SupportsRowLevelOperations;
import org.apache.spark.sql.connector.catalog.TruncatableTable;
import org.apache.spark.sql.connector.write.RowLevelOperationBuilder;
import org.apache.spark.sql.connector.write.RowLevelOperationInfo;
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
 * ({@link MoraineWriteBuilder}), a streaming query's micro-batches too ({@link MoraineStreamingWrite}); DELETE, UPDATE
 * and MERGE are row-level operations at the lake's head ({@link MoraineRowLevelOperation}); TRUNCATE TABLE deletes
 * every row in a commit of its own.
 *
 * @param catalogName the Spark catalog it was loaded through
 * @param snapshotId the snapshot every scan of it reads
 */
record MoraineTable(MoraineSettings settings, String catalogName, String schemaName, String tableName, long tableId, long snapshotId, TableSchema tableSchema)
        implements SupportsRead, SupportsWrite, SupportsMetadataColumns, SupportsRowLevelOperations, TruncatableTable
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
        return Set.of(TableCapability.BATCH_READ, TableCapability.BATCH_WRITE, TableCapability.STREAMING_WRITE, TableCapability.TRUNCATE,
                TableCapability.OVERWRITE_BY_FILTER, TableCapability.OVERWRITE_DYNAMIC);
    }

    /**
     * The table's identity partition keys at its snapshot, which are what Spark's {@code PARTITION (k = v)} clause and
     * dynamic {@code INSERT OVERWRITE} name. Keys by year, month, day, hour or bucket are left out: DuckLake's calendar
     * keys are fields, not Spark's {@code months(c)} / {@code days(c)}, so reporting them would be wrong.
     */
    @Override
    public org.apache.spark.sql.connector.expressions.Transform[] partitioning()
    {
        try (io.moraine.core.catalog.CatalogSnapshot snapshot = OpenStores.catalog(settings).at(snapshotId)) {
            return snapshot.partitionInfo(tableId)
                    .map(info -> snapshot.partitionColumns(tableId, info.getLong("partition_id")).stream()
                            .sorted(java.util.Comparator.comparing(key -> key.getLong("partition_key_index")))
                            .filter(key -> io.moraine.core.catalog.PartitionTransform.parse(key.getString("transform")).kind()
                                    == io.moraine.core.catalog.PartitionTransform.Kind.IDENTITY)
                            .flatMap(key -> tableSchema.column(key.getLong("column_id")).stream())
                            .map(column -> (org.apache.spark.sql.connector.expressions.Transform) org.apache.spark.sql.connector.expressions.Expressions.identity(column.name()))
                            .toArray(org.apache.spark.sql.connector.expressions.Transform[]::new))
                    .orElse(new org.apache.spark.sql.connector.expressions.Transform[0]);
        }
        catch (io.moraine.core.error.MoraineException e) {
            throw SparkErrors.of(e);
        }
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
    public RowLevelOperationBuilder newRowLevelOperationBuilder(RowLevelOperationInfo info)
    {
        return new MoraineRowLevelOperation.Builder(this, info.command());
    }

    /** TRUNCATE TABLE: every row the lake's head has deleted, in one commit (DuckLake's truncate, which Trino's TRUNCATE also is). */
    @Override
    public boolean truncateTable()
    {
        String statement = "TRUNCATE TABLE " + name();
        if (settings.readOnly()) {
            throw SparkErrors.readOnly(statement);
        }
        CatalogWrites.commit(MoraineSparkCatalog.writer(settings, catalogName), statement + " (Spark)", writes -> writes.truncate(schemaName, tableName));
        return true;
    }

    @Override
    public java.util.Map<String, String> properties()
    {
        return java.util.Map.of("moraine.table-id", Long.toString(tableId), "moraine.snapshot-id", Long.toString(snapshotId));
    }
}
