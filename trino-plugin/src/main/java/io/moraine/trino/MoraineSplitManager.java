package io.moraine.trino;

import com.google.inject.Inject;
import io.moraine.core.catalog.BucketPartitionFilter;
import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.FileStatsFilter;
import io.moraine.core.catalog.Row;
import io.moraine.inline.DataFilePlanner;
import io.moraine.inline.PlannedDataFile;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplitManager;
import io.trino.spi.connector.ConnectorSplitSource;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.Constraint;
import io.trino.spi.predicate.TupleDomain;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.LongPredicate;
import java.util.function.Predicate;

/**
 * Splits a table at its snapshot: one split for its inlined rows (when it has an inlined-data table), one per visible data file whose column statistics do
 * not rule out the pushed-down predicate and whose bucket partition can hold its equality constants (reference §4.9;
 * inlined rows are never pruned), the dynamic filter included when Trino has it in time. Under a pushed-down LIMIT,
 * files stop being planned once the files already planned are certain to hold enough rows.
 */
public class MoraineSplitManager
        implements ConnectorSplitManager
{
    private final MoraineCatalogHolder catalog;
    private final long maxSplitSize;

    @Inject
    public MoraineSplitManager(MoraineCatalogHolder catalog, MoraineConfig config)
    {
        this.catalog = catalog;
        this.maxSplitSize = config.getMaxSplitSize().toBytes();
    }

    @Override
    public ConnectorSplitSource getSplits(ConnectorTransactionHandle transaction, ConnectorSession session, ConnectorTableHandle tableHandle,
            Set<ColumnHandle> dynamicFilterColumns, Constraint constraint)
    {
        MoraineTableHandle table = (MoraineTableHandle) tableHandle;
        long waitMillis = dynamicFilterColumns.isEmpty() ? 0 : MoraineSessionProperties.dynamicFilteringWaitTimeout(session).toMillis();
        return new MoraineSplitSource(dynamicFilter -> plan(table, table.constraint().intersect(dynamicFilter)), waitMillis);
    }

    /** The splits of {@code table} that {@code predicate} (the handle's constraint and the dynamic filter) does not rule out. */
    private List<MoraineSplit> plan(MoraineTableHandle table, TupleDomain<MoraineColumnHandle> predicate)
    {
        List<MoraineSplit> splits = new ArrayList<>();
        if (predicate.isNone()) {
            return splits;
        }
        try (CatalogSnapshot snapshot = catalog.catalog().at(table.snapshotId())) {
            // Only a table with a registered inlined-data table at the snapshot can have inlined rows there.
            if (!snapshot.inlinedDataTables(table.tableId()).isEmpty()) {
                splits.add(MoraineSplit.inlinedRows(snapshot.viewHeadSnapshotId()));
            }
            LongPredicate statsMayMatch = FileStatsFilter.filesMayMatchAny(snapshot, table.tableId(), StatsPruning.ranges(predicate));
            Predicate<Row> mayMatch = BucketPartitionFilter.filesMayMatch(snapshot, table.tableId(), StatsPruning.discreteValues(predicate))
                    .and(file -> statsMayMatch.test(file.getLong("data_file_id")));
            long certainRows = 0;
            for (PlannedDataFile file : DataFilePlanner.plan(snapshot, table.tableId(), catalog.dataPath(snapshot), mayMatch)) {
                if (table.limit().isPresent() && certainRows >= table.limit().getAsLong()) {
                    break;
                }
                addFileSplits(splits, file);
                certainRows += predicate.isAll() ? file.certainRows(table.snapshotId()) : 0;
            }
        }
        return splits;
    }

    /** One split per {@code maxSplitSize} bytes of a file; each reads the row groups that start in its range. */
    private void addFileSplits(List<MoraineSplit> splits, PlannedDataFile file)
    {
        long start = 0;
        do {
            long length = Math.min(maxSplitSize, file.sizeBytes() - start);
            splits.add(MoraineSplit.dataFile(file, start, length, maxSplitSize));
            start += length;
        }
        while (start < file.sizeBytes());
    }
}
