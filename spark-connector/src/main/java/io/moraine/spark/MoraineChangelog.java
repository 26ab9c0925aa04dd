package io.moraine.spark;

import io.moraine.core.changes.ChangeTaskCodec;
import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.changes.ChangeFeed;
import io.moraine.core.changes.ChangeTask;
import io.moraine.core.changes.InlinedChangesTask;
import io.moraine.core.error.MoraineException;
import io.moraine.core.types.TableColumn;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.catalog.Changelog;
import org.apache.spark.sql.connector.catalog.Column;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A moraine table's change feed between two snapshots (both inclusive, as resolved by {@link MoraineCatalog}), planned
 * by the core's {@link ChangeFeed}: DuckLake's insertions and deletions, each row with its snapshot, rowid and the
 * snapshot that wrote it, under the table's columns at the end snapshot. An UPDATE is a deletion and an insertion of one
 * rowid in one snapshot, which Spark pairs into {@code update_preimage} / {@code update_postimage} when asked
 * ({@code computeUpdates}), exactly as DuckLake's {@code table_changes} pairs them. No carry-over pairs are declared:
 * DuckLake's {@code table_changes} reports a rewrite's rows as updates too, and so does this feed.
 */
final class MoraineChangelog
        implements Changelog
{
    private final MoraineTable table;
    private final long startSnapshot;
    private final List<ReadColumn> columns;
    private final List<TableColumn> tableColumns;

    MoraineChangelog(MoraineTable table, long startSnapshot)
    {
        for (TableColumn column : table.tableSchema().columns()) {
            String unreadable = SparkTypes.unreadable(column);
            if (unreadable != null) {
                throw SparkErrors.unsupported("column " + column.name() + " of " + table.name() + " has type " + column.type().duckLakeName() + " ("
                        + unreadable + "), which the Spark connector cannot read yet, so its change feed cannot be read");
            }
        }
        this.table = table;
        this.startSnapshot = startSnapshot;
        this.tableColumns = table.tableSchema().columns();
        this.columns = tableColumns.stream().map(ReadColumn::of).toList();
    }

    @Override
    public String name()
    {
        return table.name() + " changes " + startSnapshot + " to " + table.snapshotId();
    }

    StructType schema()
    {
        List<StructField> fields = new ArrayList<>();
        columns.forEach(column -> fields.add(new StructField(column.name(), column.logicalType(), true, Metadata.empty())));
        fields.addAll(ChangelogColumns.FIELDS);
        return new StructType(fields.toArray(StructField[]::new));
    }

    @Override
    public Column[] columns()
    {
        return Stream.of(schema().fields()).map(field -> Column.create(field.name(), field.dataType(), field.nullable())).toArray(Column[]::new);
    }

    @Override
    public boolean containsCarryoverRows()
    {
        return false;
    }

    @Override
    public boolean containsIntermediateChanges()
    {
        return true;
    }

    @Override
    public boolean representsUpdateAsDeleteAndInsert()
    {
        return true;
    }

    @Override
    public NamedReference[] rowId()
    {
        return new NamedReference[] {Expressions.column(ChangelogColumns.ROW_ID)};
    }

    @Override
    public NamedReference rowVersion()
    {
        return Expressions.column(ChangelogColumns.ROW_VERSION);
    }

    @Override
    public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options)
    {
        return ChangeScan::new;
    }

    /** The feed's input partitions: one per data-file task, one per side of the inlined rows (read here, on the driver). */
    private final class ChangeScan
            implements Scan, Batch
    {
        private Map<Long, Long> commitTimes;
        private List<InputPartition> partitions;

        @Override
        public StructType readSchema()
        {
            return schema();
        }

        @Override
        public String description()
        {
            return "moraine changes of " + table.name() + " from snapshot " + startSnapshot + " to " + table.snapshotId();
        }

        @Override
        public ColumnarSupportMode columnarSupportMode()
        {
            return ColumnarSupportMode.SUPPORTED;
        }

        @Override
        public Batch toBatch()
        {
            return this;
        }

        @Override
        public synchronized InputPartition[] planInputPartitions()
        {
            if (partitions == null) {
                plan();
            }
            return partitions.toArray(InputPartition[]::new);
        }

        private void plan()
        {
            List<InputPartition> planned = new ArrayList<>();
            Map<Long, Long> times = new HashMap<>();
            try (CatalogSnapshot end = OpenStores.catalog(table.settings()).at(table.snapshotId())) {
                for (long snapshot = startSnapshot; snapshot <= end.id(); snapshot++) {
                    long id = snapshot;
                    end.snapshotRow(id).ifPresent(row -> times.put(id,
                            org.apache.spark.sql.catalyst.util.DateTimeUtils.instantToMicros((java.time.Instant) row.get("snapshot_time"))));
                }
                StructType output = schema();
                for (ChangeTask task : ChangeFeed.forTable(end, table.tableId(), startSnapshot).withDataPath(table.settings().dataPath()).planTasks()) {
                    if (task instanceof InlinedChangesTask inlined) {
                        InlinedRowsPartition partition = InlinedRowsEncoder.encodeChanges(end, inlined, tableColumns, output, times);
                        if (partition.rows() > 0) {
                            planned.add(partition);
                        }
                    }
                    else {
                        planned.add(new ChangeFilePartition(ChangeTaskCodec.encode(task)));
                    }
                }
            }
            catch (MoraineException e) {
                throw SparkErrors.of(e);
            }
            this.commitTimes = times;
            this.partitions = List.copyOf(planned);
        }

        @Override
        public synchronized PartitionReaderFactory createReaderFactory()
        {
            if (partitions == null) {
                plan();
            }
            SparkSession session = SparkSession.active();
            StructType withPositions = new StructType(columns.stream().map(ReadColumn::physicalField).toArray(StructField[]::new))
                    .add(SparkTypes.withFieldId("_ducklake_internal_row_id", DataTypes.LongType, io.moraine.core.scan.DataFileTask.ROW_ID_FIELD_ID))
                    .add(SparkTypes.withFieldId("_ducklake_internal_snapshot_id", DataTypes.LongType, io.moraine.core.scan.DataFileTask.SNAPSHOT_ID_FIELD_ID))
                    .add(new StructField("_tmp_metadata_row_index", DataTypes.LongType, true, Metadata.empty()));
            return new ChangeReaderFactory(columns, SparkParquetReaders.factory(session, withPositions), SparkParquetReaders.hadoopConfiguration(session),
                    new HashMap<>(commitTimes));
        }
    }
}
