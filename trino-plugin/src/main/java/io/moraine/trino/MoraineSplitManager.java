package io.moraine.trino;

import com.google.inject.Inject;
import io.moraine.core.catalog.CatalogSnapshot;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplitManager;
import io.trino.spi.connector.ConnectorSplitSource;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.Constraint;
import io.trino.spi.connector.FixedSplitSource;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/** Splits a table at its snapshot: one split for its inlined rows, one per visible data file. */
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
        splits.add(MoraineSplit.inlinedRows());
        try (CatalogSnapshot snapshot = catalog.catalog().at(table.snapshotId())) {
            snapshot.dataFiles(table.tableId()).forEachRemaining(file -> splits.add(new MoraineSplit(OptionalLong.of(file.getLong("data_file_id")))));
        }
        return new FixedSplitSource(splits);
    }
}
