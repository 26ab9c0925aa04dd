package io.moraine.spark;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.changes.ChangeFeed;
import io.moraine.core.changes.ChangeGroup;
import io.moraine.core.changes.ChangeGroups;
import io.moraine.core.changes.ChangeTask;
import io.moraine.core.changes.ChangeTaskCodec;
import io.moraine.core.changes.InlinedChangesTask;
import io.moraine.core.error.MoraineException;
import io.moraine.core.types.TableColumn;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.TableCapability;
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
import java.util.Set;

/**
 * A table's change feed as {@code format("moraine").option("readChangeFeed", "true")} reads it (Delta's options): the
 * table's columns at the end snapshot, then {@code _change_type} (insert, delete, update_preimage, update_postimage),
 * {@code _commit_version}, {@code _commit_timestamp} and {@code _row_id}. The core plans the feed ({@link ChangeFeed}),
 * groups the tasks that may pair ({@link ChangeGroups}), and each group, one input partition, is paired where it is
 * read by the core's rule ({@code ChangePairing}): no shuffle.
 */
final class MoraineChangeFeedTable
        implements SupportsRead
{
    /** As Trino's change-feed splits: the inlined rows are cut into at most this many snapshot ranges. */
    private static final int MAX_INLINED_RANGES = 16;

    private final MoraineTable table;
    private final long startSnapshot;
    private final List<TableColumn> tableColumns;
    private final List<ReadColumn> columns;

    MoraineChangeFeedTable(MoraineTable table, long startSnapshot)
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

    @Override
    public StructType schema()
    {
        return withChangeFields(ChangelogColumns.FIELDS.subList(0, PairedChangeReader.OUTPUT_CHANGE_FIELDS));
    }

    /** The rows as the readers of the raw feed produce them (with {@code _row_version}), before pairing. */
    private StructType rawSchema()
    {
        return withChangeFields(ChangelogColumns.FIELDS);
    }

    private StructType withChangeFields(List<StructField> changeFields)
    {
        List<StructField> fields = new ArrayList<>();
        columns.forEach(column -> fields.add(new StructField(column.name(), column.logicalType(), true, Metadata.empty())));
        fields.addAll(changeFields);
        return new StructType(fields.toArray(StructField[]::new));
    }

    @Override
    public Set<TableCapability> capabilities()
    {
        return Set.of(TableCapability.BATCH_READ);
    }

    @Override
    public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options)
    {
        return PairedChangeScan::new;
    }

    private final class PairedChangeScan
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
            return "moraine readChangeFeed of " + table.name() + " from snapshot " + startSnapshot + " to " + table.snapshotId();
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
            SparkSession session = SparkSession.active();
            HadoopLakeFileSystem files = new HadoopLakeFileSystem(SparkParquetReaders.hadoopConfiguration(session).value().value());
            List<InputPartition> planned = new ArrayList<>();
            Map<Long, Long> times = new HashMap<>();
            try (CatalogSnapshot end = OpenStores.catalog(table.settings()).at(table.snapshotId())) {
                for (long snapshot = startSnapshot; snapshot <= end.id(); snapshot++) {
                    long id = snapshot;
                    end.snapshotRow(id).ifPresent(row -> times.put(id,
                            org.apache.spark.sql.catalyst.util.DateTimeUtils.instantToMicros((java.time.Instant) row.get("snapshot_time"))));
                }
                ChangeFeed feed = ChangeFeed.forTable(end, table.tableId(), startSnapshot);
                StructType raw = rawSchema();
                for (ChangeGroup group : ChangeGroups.of(feed, feed.planTasks(), files, MAX_INLINED_RANGES)) {
                    List<InputPartition> parts = new ArrayList<>();
                    List<io.moraine.core.changes.ChangeKind> kinds = new ArrayList<>();
                    for (ChangeTask task : group.tasks()) {
                        InputPartition part = task instanceof InlinedChangesTask inlined
                                ? InlinedRowsEncoder.encodeChanges(end, inlined, tableColumns, raw, times)
                                : new ChangeFilePartition(ChangeTaskCodec.encode(task));
                        if (!(part instanceof InlinedRowsPartition rows) || rows.rows() > 0) {
                            parts.add(part);
                            kinds.add(task.kind());
                        }
                    }
                    if (!parts.isEmpty()) {
                        planned.add(new ChangeGroupPartition(group.firstSnapshot(), group.lastSnapshot(), group.pairs(), parts, kinds));
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
            return new PairedChangeReaderFactory(table.name(), columns, SparkParquetReaders.factory(session, withPositions(columns)),
                    SparkParquetReaders.factory(session, withPositions(List.of())), SparkParquetReaders.hadoopConfiguration(session), new HashMap<>(commitTimes));
        }
    }

    /** The physical schema of a change file read: the columns by field id, DuckLake's hidden columns, the row position. */
    static StructType withPositions(List<ReadColumn> columns)
    {
        return new StructType(columns.stream().map(ReadColumn::physicalField).toArray(StructField[]::new))
                .add(SparkTypes.withFieldId("_ducklake_internal_row_id", DataTypes.LongType, io.moraine.core.scan.DataFileTask.ROW_ID_FIELD_ID))
                .add(SparkTypes.withFieldId("_ducklake_internal_snapshot_id", DataTypes.LongType, io.moraine.core.scan.DataFileTask.SNAPSHOT_ID_FIELD_ID))
                .add(new StructField("_tmp_metadata_row_index", DataTypes.LongType, true, Metadata.empty()));
    }
}
