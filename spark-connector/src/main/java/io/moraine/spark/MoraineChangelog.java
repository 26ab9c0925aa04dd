package io.moraine.spark;

import io.moraine.core.changes.ChangeFeed;
import io.moraine.core.changes.ChangeTask;
import io.moraine.core.changes.ChangeTaskCodec;
import io.moraine.core.changes.InlinedChangesTask;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.catalog.Changelog;
import org.apache.spark.sql.connector.catalog.Column;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.stream.Stream;

/**
 * A moraine table's change feed between two snapshots (both inclusive, as resolved by {@link MoraineSparkCatalog}), planned
 * by the core's {@link ChangeFeed}: DuckLake's insertions and deletions, each row with its snapshot, rowid and the
 * snapshot that wrote it, under the table's columns at the end snapshot. An UPDATE is a deletion and an insertion of one
 * rowid in one snapshot, which Spark pairs into {@code update_preimage} / {@code update_postimage} when asked
 * ({@code computeUpdates}), exactly as DuckLake's {@code table_changes} pairs them. No carry-over pairs are declared:
 * DuckLake's {@code table_changes} reports a rewrite's rows as updates too, and so does this feed.
 */
final class MoraineChangelog
        implements Changelog
{
    private final ChangeFeedSource source;

    MoraineChangelog(MoraineTable table, long startSnapshot)
    {
        this.source = new ChangeFeedSource(table, startSnapshot);
    }

    @Override
    public String name()
    {
        return source.name();
    }

    StructType schema()
    {
        return source.schema(ChangelogColumns.FIELDS);
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
            extends ChangeFeedScan
    {
        ChangeScan()
        {
            super(schema(), source.description("changes"));
        }

        @Override
        ChangeFeedSource.PlannedFeed plan()
        {
            StructType output = schema();
            return source.plan((end, feed, commitTimes) -> {
                List<InputPartition> planned = new ArrayList<>();
                for (ChangeTask task : feed.planTasks()) {
                    if (task instanceof InlinedChangesTask inlined) {
                        InlinedRowsPartition partition = InlinedRowsEncoder.encodeChanges(end, inlined, source.tableColumns(), output, commitTimes);
                        if (partition.rows() > 0) {
                            planned.add(partition);
                        }
                    }
                    else {
                        planned.add(new ChangeFilePartition(ChangeTaskCodec.encode(task)));
                    }
                }
                return planned;
            });
        }

        @Override
        PartitionReaderFactory readerFactory(SparkSession session, HashMap<Long, Long> commitTimes)
        {
            return new ChangeReaderFactory(source.lakeName(), source.columns(), SparkParquetReaders.factory(session, ChangeFeedSource.withPositions(source.columns())),
                    SparkParquetReaders.hadoopConfiguration(session), commitTimes);
        }
    }
}
