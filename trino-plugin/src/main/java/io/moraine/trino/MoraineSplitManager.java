package io.moraine.trino;

import com.google.inject.Inject;
import com.google.common.base.Suppliers;
import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.error.MoraineException;
import io.moraine.core.inline.read.InlinedRowsPiece;
import io.moraine.core.inline.read.InlinedRowsPieces;
import io.moraine.core.scan.RowIdMembership;
import io.moraine.core.scan.InlinedRowsTask;
import io.moraine.core.scan.Scan;
import io.moraine.core.scan.ScanBuilder;
import io.moraine.core.types.DuckLakeType;
import io.moraine.core.types.TableColumn;
import io.moraine.core.types.TableColumnCodec;
import io.moraine.core.types.TableSchema;
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
import org.apache.arrow.memory.BufferAllocator;

import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static io.airlift.concurrent.Threads.daemonThreadsNamed;

/**
 * Splits a table scan: the core plans the tasks (inlined rows, then each data file its filter does not rule out); each
 * data-file task becomes a split, and the inlined rows are read here and shipped in bounded splits of their own
 * ({@link MoraineSplitSource}). Planning runs on the connector's own threads, batch by batch, once Trino has waited (up
 * to the session's timeout) for the query's dynamic filters, so files those rule out are never planned.
 */
public class MoraineSplitManager
        implements ConnectorSplitManager
{
    private final MoraineCatalogHolder catalog;
    private final MoraineTableColumns tableColumns;
    private final long maxSplitSize;
    private final InlinedRowsPieces.Bounds inlinedSplitBounds;
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
        this.inlinedSplitBounds = config.inlinedSplitBounds();
    }

    @Override
    public ConnectorSplitSource getSplits(ConnectorTransactionHandle transaction, ConnectorSession session, ConnectorTableHandle tableHandle,
            Set<ColumnHandle> dynamicFilterColumns, Constraint constraint)
    {
        if (tableHandle instanceof MoraineMetadataTableHandle metadataTable) {
            // Catalog facts, read here and shipped in the splits: the page sources never open the catalog.
            try {
                return new FixedSplitSource(MetadataPages.splits(catalog, metadataTable, inlinedSplitBounds.maxBytes()));
            }
            catch (MoraineException e) {
                throw MoraineErrorCode.toTrino(e);
            }
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
                inlinedSplitBounds.maxBytes(), waitMillis, planning);
    }

    /** The tasks of {@code table} that {@code predicate} (the handle's constraint and the dynamic filter) does not rule out. */
    private MoraineSplitSource.PlannedScan plan(MoraineTableHandle table, TupleDomain<MoraineColumnHandle> predicate, RowIdMembership membership,
            boolean catalogCopies)
    {
        CatalogSnapshot snapshot = open(table);
        try {
            // Read once per scan, when first needed: by the filter's types, the data-file splits' struct columns or the inlined rows.
            Supplier<TableSchema> schema = Suppliers.memoize(() -> tableColumns.of(table, snapshot).schema());
            ScanBuilder builder = ScanBuilder.forTable(snapshot, table.tableId(), schema)
                    .withFilter(TrinoFilters.toScanFilter(predicate))
                    .withDataPath(catalog.dataPathOverride())
                    .withAllowedLocations(catalog.allowedLocations())
                    .withMaxSplitSize(maxSplitSize)
                    .withRowIdMembership(membership)
                    .withCatalogCopies(catalogCopies);
            table.limit().ifPresent(builder::withLimit);
            Scan scan = builder.build();
            return new MoraineSplitSource.PlannedScan(snapshot, scan.planTasks(), Suppliers.memoize(() -> fileColumns(readColumns(table, schema.get()))),
                    task -> inlinedPieces(snapshot, task, readColumns(table, schema.get())));
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

    /**
     * The columns the scan reads: those of the handle's projection (struct columns pruned to the fields it dereferences),
     * else every column. Hidden columns are not among them.
     */
    private static List<TableColumn> readColumns(MoraineTableHandle table, TableSchema schema)
    {
        List<TableColumn> columns = schema.columns();
        return table.projection().map(projected -> NestedReadLayout.prunedColumns(projected, columns)).orElse(columns);
    }

    /** What data-file splits carry for finding struct fields by id: the read columns when one holds a struct, else nothing. */
    private static byte[] fileColumns(List<TableColumn> columns)
    {
        return columns.stream().anyMatch(MoraineSplitManager::holdsStruct) ? TableColumnCodec.encode(columns) : new byte[0];
    }

    private static boolean holdsStruct(TableColumn column)
    {
        return column.type() instanceof DuckLakeType.StructOf || column.children().stream().anyMatch(MoraineSplitManager::holdsStruct);
    }

    /**
     * Reads the scan's inlined rows through its catalog view, in bounded pieces, with the columns the scan reads. Hidden
     * columns come from each row's row id and begin snapshot, which every piece carries.
     */
    private MoraineSplitSource.InlinedPieces inlinedPieces(CatalogSnapshot snapshot, InlinedRowsTask task, List<TableColumn> columns)
    {
        BufferAllocator allocator = catalog.newAllocator("inlined rows of table " + task.tableId());
        InlinedRowsPieces pieces;
        try {
            pieces = InlinedRowsPieces.open(snapshot, task, columns, inlinedSplitBounds, allocator);
        }
        catch (RuntimeException e) {
            allocator.close();
            throw e;
        }
        return new MoraineSplitSource.InlinedPieces()
        {
            @Override
            public boolean hasNext()
            {
                return pieces.hasNext();
            }

            @Override
            public InlinedRowsPiece next()
            {
                return pieces.next();
            }

            @Override
            public void close()
            {
                try (allocator) {
                    pieces.close();
                }
            }
        };
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
