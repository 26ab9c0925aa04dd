package io.moraine.trino;

import com.google.inject.Inject;
import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.error.MoraineException;
import io.moraine.core.scan.RowIdMembership;
import io.moraine.core.scan.Scan;
import io.moraine.core.scan.ScanBuilder;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplitManager;
import io.trino.spi.connector.ConnectorSplitSource;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.Constraint;
import io.trino.spi.connector.FixedSplitSource;
import io.trino.spi.predicate.TupleDomain;
import jakarta.annotation.PreDestroy;

import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static io.airlift.concurrent.Threads.daemonThreadsNamed;

/**
 * Splits a table scan: the core plans the tasks (inlined rows, then each data file its filter does not rule out) and
 * each task becomes a split. Planning runs on the connector's own threads, batch by batch, once Trino has waited (up
 * to the session's timeout) for the query's dynamic filters, so files those rule out are never planned.
 */
public class MoraineSplitManager
        implements ConnectorSplitManager
{
    private final MoraineCatalogHolder catalog;
    private final MoraineTableColumns tableColumns;
    private final long maxSplitSize;
    private final ExecutorService planning = Executors.newCachedThreadPool(daemonThreadsNamed("moraine-split-planning-%s"));
    private final ChangeFeedSplits changeFeedSplits;
    private final RowSummaries rowSummaries;

    @Inject
    public MoraineSplitManager(MoraineCatalogHolder catalog, MoraineTableColumns tableColumns, MoraineConfig config, ChangeFeedSplits changeFeedSplits,
            RowSummaries rowSummaries)
    {
        this.rowSummaries = rowSummaries;
        this.changeFeedSplits = changeFeedSplits;
        this.catalog = catalog;
        this.tableColumns = tableColumns;
        this.maxSplitSize = config.getMaxSplitSize().toBytes();
    }

    @Override
    public ConnectorSplitSource getSplits(ConnectorTransactionHandle transaction, ConnectorSession session, ConnectorTableHandle tableHandle,
            Set<ColumnHandle> dynamicFilterColumns, Constraint constraint)
    {
        if (tableHandle instanceof MoraineMetadataTableHandle) {
            return new FixedSplitSource(new MoraineMetadataSplit(0));
        }
        if (tableHandle instanceof ChangeFeedTableHandle changes) {
            // The splits of a change-feed call ({@link ChangeFeedFunction}), planned whole.
            return changeFeedSplits.splits(session, changes);
        }
        MoraineTableHandle table = (MoraineTableHandle) tableHandle;
        long waitMillis = dynamicFilterColumns.isEmpty() ? 0 : MoraineSessionProperties.dynamicFilteringWaitTimeout(session).toMillis();
        RowIdMembership membership = rowSummaries.membership(session);
        boolean catalogCopies = MoraineSessionProperties.tinyFilesEnabled(session);
        return new MoraineSplitSource(dynamicFilter -> plan(table, table.constraint().intersect(dynamicFilter), membership, catalogCopies), maxSplitSize,
                waitMillis, planning);
    }

    /** The tasks of {@code table} that {@code predicate} (the handle's constraint and the dynamic filter) does not rule out. */
    private MoraineSplitSource.PlannedScan plan(MoraineTableHandle table, TupleDomain<MoraineColumnHandle> predicate, RowIdMembership membership,
            boolean catalogCopies)
    {
        CatalogSnapshot snapshot = open(table);
        try {
            ScanBuilder builder = ScanBuilder.forTable(snapshot, table.tableId(), () -> tableColumns.of(table, snapshot).schema())
                    .withFilter(TrinoFilters.toScanFilter(predicate))
                    .withDataPath(catalog.dataPathOverride())
                    .withMaxSplitSize(maxSplitSize)
                    .withRowIdMembership(membership)
                    .withCatalogCopies(catalogCopies);
            table.limit().ifPresent(builder::withLimit);
            Scan scan = builder.build();
            return new MoraineSplitSource.PlannedScan(snapshot, scan.planTasks());
        }
        catch (MoraineException e) {
            snapshot.close();
            throw MoraineErrorCode.toTrino(e);
        }
        catch (RuntimeException e) {
            snapshot.close();
            throw e;
        }
    }

    private CatalogSnapshot open(MoraineTableHandle table)
    {
        try {
            return catalog.catalog().at(table.snapshotId());
        }
        catch (MoraineException e) {
            throw MoraineErrorCode.toTrino(e);
        }
    }

    /** Stops planning before the catalog it reads is closed (Airlift stops this before the catalog holder). */
    @PreDestroy
    public void shutdown()
            throws InterruptedException
    {
        planning.shutdownNow();
        if (!planning.awaitTermination(10, TimeUnit.SECONDS)) {
            throw new IllegalStateException("split planning threads did not stop within 10 s of the connector's shutdown");
        }
    }
}
