package io.moraine.trino;

import com.google.inject.Inject;
import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.inline.InlineReader;
import io.moraine.inline.InlineScan;
import io.moraine.inline.InlineSelection;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.ConnectorPageSourceProvider;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.ConnectorTableCredentials;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.DynamicFilter;
import io.trino.spi.connector.EmptyPageSource;
import io.trino.spi.predicate.TupleDomain;
import io.trino.filesystem.TrinoFileSystemFactory;
import io.trino.parquet.ParquetReaderOptions;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

import java.util.List;
import java.util.Optional;

import static io.trino.spi.StandardErrorCode.TRANSACTION_CONFLICT;

/**
 * Pages of a split. Inlined rows come from the inline reader at the handle's snapshot, matched to the table's
 * columns by name (a column a schema version lacks reads as NULL); data files through Trino's Parquet reader.
 */
public class MorainePageSourceProvider
        implements ConnectorPageSourceProvider
{
    private static final int WINDOW_ROWS = 8192;

    private final MoraineCatalogHolder catalog;
    private final TrinoFileSystemFactory fileSystemFactory;
    private final ParquetReaderOptions parquetOptions = ParquetReaderOptions.defaultOptions();

    @Inject
    public MorainePageSourceProvider(MoraineCatalogHolder catalog, TrinoFileSystemFactory fileSystemFactory)
    {
        this.catalog = catalog;
        this.fileSystemFactory = fileSystemFactory;
    }

    @Override
    public ConnectorPageSource createPageSource(ConnectorTransactionHandle transaction, ConnectorSession session, ConnectorSplit split,
            ConnectorTableHandle tableHandle, Optional<ConnectorTableCredentials> credentials, List<ColumnHandle> columns, DynamicFilter dynamicFilter)
    {
        MoraineSplit moraineSplit = (MoraineSplit) split;
        MoraineTableHandle table = (MoraineTableHandle) tableHandle;
        List<MoraineColumnHandle> projected = columns.stream().map(MoraineColumnHandle.class::cast).toList();
        if (moraineSplit.dataFile().isPresent()) {
            // The dynamic filter as it stands now: row groups and pages it rules out are never read.
            TupleDomain<MoraineColumnHandle> predicate = table.constraint().intersect(dynamicFilter.getCurrentPredicate().transformKeys(MoraineColumnHandle.class::cast));
            if (predicate.isNone()) {
                return new EmptyPageSource();
            }
            LakeFiles files = new LakeFiles(fileSystemFactory.create(session));
            return ParquetFilePages.open(moraineSplit, table, files, projected, predicate, parquetOptions);
        }
        BufferAllocator allocator = new RootAllocator();
        CatalogSnapshot snapshot = null;
        try {
            snapshot = catalog.catalog().at(table.snapshotId());
            if (snapshot.inlinedDataFlushedSince(table.tableId(), moraineSplit.plannedHead())) {
                throw new TrinoException(TRANSACTION_CONFLICT, "the inlined rows of table " + table.name() + " were flushed to data files while this query "
                        + "ran (after snapshot " + moraineSplit.plannedHead() + "), so its plan misses them; run the query again");
            }
            InlineScan scan = InlineReader.scan(snapshot.reader(), table.tableId(), new InlineSelection.AtSnapshot(table.snapshotId()),
                    Optional.of(projected.stream().map(MoraineColumnHandle::name).toList()), WINDOW_ROWS, allocator);
            return new InlinedRowsPageSource(allocator, snapshot, scan, projected);
        }
        catch (RuntimeException e) {
            try (allocator; CatalogSnapshot opened = snapshot) {
                throw e;
            }
        }
    }
}
