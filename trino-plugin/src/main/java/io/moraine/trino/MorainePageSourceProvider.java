package io.moraine.trino;

import com.google.inject.Inject;
import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.error.MoraineException;
import io.moraine.core.scan.DataFileTask;
import io.moraine.core.scan.InlinedRowsTask;
import io.moraine.files.TrinoLakeFileSystem;
import io.moraine.inline.InlineReader;
import io.moraine.core.types.TableColumn;
import io.moraine.inline.InlinedRowsReader;
import io.trino.filesystem.TrinoFileSystemFactory;
import io.trino.parquet.ParquetReaderOptions;
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
import org.apache.arrow.memory.BufferAllocator;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Pages of a split: a data-file task through Trino's Parquet reader, keeping the rows the core's {@code VisibleRows}
 * selects; the inlined-rows task from the inline reader at the task's snapshot.
 */
public class MorainePageSourceProvider
        implements ConnectorPageSourceProvider
{
    private final MoraineCatalogHolder catalog;
    private final MoraineTableColumns tableColumns;
    private final MoraineTypes types;
    private final TrinoFileSystemFactory fileSystemFactory;
    private final ParquetReaderOptions parquetOptions = ParquetReaderOptions.defaultOptions();

    @Inject
    public MorainePageSourceProvider(MoraineCatalogHolder catalog, MoraineTableColumns tableColumns, MoraineTypes types, TrinoFileSystemFactory fileSystemFactory)
    {
        this.catalog = catalog;
        this.tableColumns = tableColumns;
        this.types = types;
        this.fileSystemFactory = fileSystemFactory;
    }

    @Override
    public ConnectorPageSource createPageSource(ConnectorTransactionHandle transaction, ConnectorSession session, ConnectorSplit split,
            ConnectorTableHandle tableHandle, Optional<ConnectorTableCredentials> credentials, List<ColumnHandle> columns, DynamicFilter dynamicFilter)
    {
        if (tableHandle instanceof MoraineMetadataTableHandle metadataTable) {
            try {
                return MetadataPages.open(catalog, metadataTable, columns.stream().map(MoraineMetadataColumnHandle.class::cast).toList());
            }
            catch (MoraineException e) {
                throw MoraineErrorCode.toTrino(e);
            }
        }
        if (tableHandle instanceof ChangeFeedTableHandle changes) {
            ChangeRowSources sources = new ChangeRowSources(catalog, tableColumns, changes, new TrinoLakeFileSystem(fileSystemFactory.create(session)), parquetOptions);
            return new ChangeFeedPageSource(changes, ((ChangeFeedSplit) split).group(), sources, columns.stream().map(ChangeFeedColumnHandle.class::cast).toList());
        }
        MoraineTableHandle table = (MoraineTableHandle) tableHandle;
        List<MoraineColumnHandle> projected = columns.stream().map(MoraineColumnHandle.class::cast).toList();
        if (projected.stream().anyMatch(MoraineColumnHandle::isDereference)) {
            // Each column read once, pruned to the nested fields asked for; the fields are then taken out of its rows.
            NestedReadLayout layout = NestedReadLayout.of(projected, tableColumns.of(table), types);
            return new DereferencingPageSource(pageSource(session, split, table, layout.columns(), layout.readColumns(), dynamicFilter), layout.outputs());
        }
        return pageSource(session, split, table, projected, null, dynamicFilter);
    }

    /** @param readColumns the core's columns of {@code projected}, or null to look them up */
    private ConnectorPageSource pageSource(ConnectorSession session, ConnectorSplit split, MoraineTableHandle table, List<MoraineColumnHandle> projected,
            List<TableColumn> readColumns, DynamicFilter dynamicFilter)
    {
        try {
            return switch (((MoraineSplit) split).task()) {
                case DataFileTask file -> {
                    // The dynamic filter as it stands now: row groups and pages it rules out are never read.
                    TupleDomain<MoraineColumnHandle> predicate = table.constraint()
                            .intersect(dynamicFilter.getCurrentPredicate().transformKeys(MoraineColumnHandle.class::cast));
                    yield predicate.isNone()
                            ? new EmptyPageSource()
                            : ParquetFilePages.open(file, table, new TrinoLakeFileSystem(fileSystemFactory.create(session)), projected,
                                    readColumns != null ? readColumns : readColumns(table, projected), predicate, parquetOptions);
                }
                case InlinedRowsTask inlined -> inlinedRows(table, inlined, projected, readColumns);
            };
        }
        catch (MoraineException e) {
            throw MoraineErrorCode.toTrino(e);
        }
    }

    /**
     * The core's columns of the projected handles (cached per table and snapshot), for finding struct fields by id; none
     * are looked up when no projected column holds a struct.
     */
    private List<TableColumn> readColumns(MoraineTableHandle table, List<MoraineColumnHandle> columns)
    {
        if (columns.stream().noneMatch(column -> holdsStruct(column.type()))) {
            return List.of();
        }
        Map<Long, TableColumn> byId = tableColumns.of(table).schema().byId();
        return columns.stream().map(column -> byId.get(column.columnId())).toList();
    }

    private static boolean holdsStruct(io.trino.spi.type.Type type)
    {
        return type instanceof io.trino.spi.type.RowType || type.getTypeParameters().stream().anyMatch(MorainePageSourceProvider::holdsStruct);
    }

    private ConnectorPageSource inlinedRows(MoraineTableHandle table, InlinedRowsTask task, List<MoraineColumnHandle> columns, List<TableColumn> prunedColumns)
    {
        BufferAllocator allocator = catalog.newAllocator("inlined rows of table " + task.tableId());
        CatalogSnapshot snapshot = null;
        try {
            snapshot = catalog.catalog().at(task.snapshotId());
            Map<Long, TableColumn> byId = tableColumns.of(table, snapshot).schema().byId();
            // Hidden columns come from each row's row_id and begin_snapshot (or are NULL), not from the reader's columns.
            List<TableColumn> readColumns = new ArrayList<>();
            for (int i = 0; i < columns.size(); i++) {
                MoraineColumnHandle column = columns.get(i);
                if (column.hiddenColumn().isEmpty()) {
                    readColumns.add(prunedColumns != null ? prunedColumns.get(i) : byId.get(column.columnId()));
                }
            }
            InlinedRowsReader reader = InlinedRowsReader.open(snapshot, task, readColumns, InlineReader.DEFAULT_WINDOW_ROWS, allocator);
            return new InlinedRowsPageSource(allocator, snapshot, reader, columns, readColumns);
        }
        catch (RuntimeException e) {
            try (allocator; CatalogSnapshot opened = snapshot) {
                throw e;
            }
        }
    }
}
