package io.moraine.spark;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.changes.ChangeFeed;
import io.moraine.core.error.MoraineException;
import io.moraine.core.scan.DataFileTask;
import io.moraine.core.types.TableColumn;
import org.apache.spark.sql.catalyst.util.DateTimeUtils;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What both ways of reading a table's change feed share ({@link MoraineChangelog} for Spark's {@code CHANGES FROM},
 * {@link MoraineChangeFeedTable} for {@code readChangeFeed}): the table's columns at the end snapshot, checked readable
 * up front, and the core's {@link ChangeFeed} over the range, opened with the catalog's settings (data path included).
 */
final class ChangeFeedSource
{
    private final MoraineTable table;
    private final long startSnapshot;
    private final List<TableColumn> tableColumns;
    private final List<ReadColumn> columns;

    ChangeFeedSource(MoraineTable table, long startSnapshot)
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

    String name()
    {
        return table.name() + " changes " + startSnapshot + " to " + table.snapshotId();
    }

    String description(String read)
    {
        return "moraine " + read + " of " + table.name() + " from snapshot " + startSnapshot + " to " + table.snapshotId();
    }

    String tableName()
    {
        return table.name();
    }

    /** The table as DuckLake names it, {@code schema.table}. */
    String lakeName()
    {
        return table.lakeName();
    }

    List<TableColumn> tableColumns()
    {
        return tableColumns;
    }

    List<ReadColumn> columns()
    {
        return columns;
    }

    /** The table's columns followed by {@code changeFields}. */
    StructType schema(List<StructField> changeFields)
    {
        List<StructField> fields = new ArrayList<>();
        columns.forEach(column -> fields.add(new StructField(column.name(), column.logicalType(), true, Metadata.empty())));
        fields.addAll(changeFields);
        return new StructType(fields.toArray(StructField[]::new));
    }

    /** Plans the feed on the driver: {@code planner} turns the core's feed into input partitions. */
    PlannedFeed plan(Planner planner)
    {
        try (CatalogSnapshot end = OpenStores.catalog(table.settings()).at(table.snapshotId())) {
            Map<Long, Long> commitTimes = new HashMap<>();
            for (long snapshot = startSnapshot; snapshot <= end.id(); snapshot++) {
                long id = snapshot;
                end.snapshotTime(id).ifPresent(time -> commitTimes.put(id, DateTimeUtils.instantToMicros(time)));
            }
            ChangeFeed feed = ChangeFeed.forTable(end, table.tableId(), startSnapshot).withDataPath(table.settings().dataPath())
                    .withAllowedLocations(table.settings().allowed());
            return new PlannedFeed(List.copyOf(planner.partitions(end, feed, commitTimes)), commitTimes);
        }
        catch (MoraineException e) {
            throw SparkErrors.of(e);
        }
    }

    /** The physical schema of a change file read: the columns by field id, DuckLake's hidden columns, the row position. */
    static StructType withPositions(List<ReadColumn> columns)
    {
        return new StructType(columns.stream().map(ReadColumn::physicalField).toArray(StructField[]::new))
                .add(SparkTypes.withFieldId("_ducklake_internal_row_id", DataTypes.LongType, DataFileTask.ROW_ID_FIELD_ID))
                .add(SparkTypes.withFieldId("_ducklake_internal_snapshot_id", DataTypes.LongType, DataFileTask.SNAPSHOT_ID_FIELD_ID))
                .add(new StructField("_tmp_metadata_row_index", DataTypes.LongType, true, Metadata.empty()));
    }

    @FunctionalInterface
    interface Planner
    {
        /** {@code commitTimes}: each snapshot of the range's time, in micros since the epoch. */
        List<InputPartition> partitions(CatalogSnapshot end, ChangeFeed feed, Map<Long, Long> commitTimes);
    }

    /** A planned feed: its input partitions and each snapshot's commit time (micros since the epoch). */
    record PlannedFeed(List<InputPartition> partitions, Map<Long, Long> commitTimes) {}
}
