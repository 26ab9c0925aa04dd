package io.moraine.trino;

import com.google.inject.Inject;
import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.FileStatsFilter;
import io.moraine.core.catalog.Row;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplitManager;
import io.trino.spi.connector.ConnectorSplitSource;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.Constraint;
import io.trino.spi.connector.FixedSplitSource;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.List;
import java.util.OptionalLong;

/**
 * Splits a table at its snapshot: one split for its inlined rows, one per visible data file whose column statistics do
 * not rule out the pushed-down predicate (reference §4.9; inlined rows are never pruned).
 */
public class MoraineSplitManager
        implements ConnectorSplitManager
{
    private final MoraineCatalogHolder catalog;

    @Inject
    public MoraineSplitManager(MoraineCatalogHolder catalog)
    {
        this.catalog = catalog;
    }

    @Override
    public ConnectorSplitSource getSplits(ConnectorTransactionHandle transaction, ConnectorSession session, ConnectorTableHandle tableHandle,
            java.util.Set<io.trino.spi.connector.ColumnHandle> columns, Constraint constraint)
    {
        MoraineTableHandle table = (MoraineTableHandle) tableHandle;
        List<MoraineSplit> splits = new ArrayList<>();
        if (table.constraint().isNone()) {
            return new FixedSplitSource(splits);
        }
        splits.add(MoraineSplit.inlinedRows());
        Map<Long, FileStatsFilter.ValueRange> ranges = StatsPruning.ranges(table.constraint());
        try (CatalogSnapshot snapshot = catalog.catalog().at(table.snapshotId())) {
            Map<Long, Map<Long, Row>> stats = ranges.isEmpty() ? Map.of() : statsOf(snapshot, table.tableId(), ranges.keySet());
            snapshot.dataFiles(table.tableId()).forEachRemaining(file -> {
                long fileId = file.getLong("data_file_id");
                if (FileStatsFilter.mayMatch(stats.getOrDefault(fileId, Map.of()), ranges)) {
                    splits.add(new MoraineSplit(OptionalLong.of(fileId)));
                }
            });
        }
        return new FixedSplitSource(splits);
    }

    /** Data file id to its stats rows (by column id), for the constrained columns only. */
    private static Map<Long, Map<Long, Row>> statsOf(CatalogSnapshot snapshot, long tableId, java.util.Set<Long> columnIds)
    {
        Map<Long, Map<Long, Row>> stats = new HashMap<>();
        snapshot.fileColumnStats(tableId).forEachRemaining(row -> {
            if (columnIds.contains(row.getLong("column_id"))) {
                stats.computeIfAbsent(row.getLong("data_file_id"), ignored -> new HashMap<>()).put(row.getLong("column_id"), row);
            }
        });
        return stats;
    }
}
