package io.moraine.spark;

import io.moraine.core.changes.ChangeFeed;
import io.moraine.core.changes.ChangeGroup;
import io.moraine.core.changes.ChangeGroups;
import io.moraine.core.changes.ChangeKind;
import io.moraine.core.changes.ChangeTask;
import io.moraine.core.changes.ChangeTaskCodec;
import io.moraine.core.changes.InlinedChangesTask;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Set;

/**
 * A table's change feed as {@code format("moraine").option("readChangeFeed", "true")} reads it (Delta's options): the
 * table's columns at the end snapshot, then {@code _change_type} (insert, delete, update_preimage, update_postimage),
 * {@code _commit_version}, {@code _commit_timestamp} and {@code _row_id}. The core plans the feed ({@link ChangeFeed}),
 * groups the tasks that may pair ({@link ChangeGroups}), and each group, one input partition, is paired where it is
 * read by the core's rule ({@code PairedChanges}): no shuffle.
 */
final class MoraineChangeFeedTable
        implements SupportsRead
{
    /** As Trino's change-feed splits: the inlined rows are cut into at most this many snapshot ranges. */
    private static final int MAX_INLINED_RANGES = 16;

    private final ChangeFeedSource source;

    MoraineChangeFeedTable(MoraineTable table, long startSnapshot)
    {
        this.source = new ChangeFeedSource(table, startSnapshot);
    }

    @Override
    public String name()
    {
        return source.name();
    }

    @Override
    public StructType schema()
    {
        return source.schema(ChangelogColumns.FIELDS.subList(0, PairedChangeReader.OUTPUT_CHANGE_FIELDS));
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

    /** One input partition per change group: the group's tasks, read and paired together. */
    private final class PairedChangeScan
            extends ChangeFeedScan
    {
        PairedChangeScan()
        {
            super(schema(), source.description("readChangeFeed"));
        }

        @Override
        ChangeFeedSource.PlannedFeed plan()
        {
            SparkSession session = SparkSession.active();
            HadoopLakeFileSystem files = new HadoopLakeFileSystem(SparkParquetReaders.hadoopConfiguration(session).value().value());
            // The readers of the raw feed produce its rows with _row_version, before pairing.
            StructType raw = source.schema(ChangelogColumns.FIELDS);
            return source.plan((end, feed, commitTimes) -> {
                List<InputPartition> planned = new ArrayList<>();
                for (ChangeGroup group : ChangeGroups.of(feed, feed.planTasks(), files, MAX_INLINED_RANGES)) {
                    List<InputPartition> parts = new ArrayList<>();
                    List<ChangeKind> kinds = new ArrayList<>();
                    for (ChangeTask task : group.tasks()) {
                        InputPartition part = task instanceof InlinedChangesTask inlined
                                ? InlinedRowsEncoder.encodeChanges(end, inlined, source.tableColumns(), raw, commitTimes)
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
                return planned;
            });
        }

        @Override
        PartitionReaderFactory readerFactory(SparkSession session, HashMap<Long, Long> commitTimes)
        {
            return new PairedChangeReaderFactory(source.tableName(), source.lakeName(), source.columns(),
                    SparkParquetReaders.factory(session, ChangeFeedSource.withPositions(source.columns())),
                    SparkParquetReaders.factory(session, ChangeFeedSource.withPositions(List.of())), SparkParquetReaders.hadoopConfiguration(session),
                    commitTimes);
        }
    }
}
