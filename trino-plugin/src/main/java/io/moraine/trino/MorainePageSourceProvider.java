package io.moraine.trino;

import com.google.inject.Inject;
import io.moraine.core.error.MoraineException;
import io.moraine.core.inline.read.InlinedPieceReader;
import io.moraine.core.scan.DataFileTask;
import io.moraine.core.scan.InlinedRowsTask;
import io.moraine.files.TrinoLakeFileSystem;
import io.moraine.core.types.TableColumn;
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

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Pages of a split: a data-file task through Trino's Parquet reader, keeping the rows the core's {@code VisibleRows}
 * selects; a piece of the inlined rows, a change-feed group's inlined rows and columns, or a metadata table's rows from
 * what the coordinator shipped with the split. No page source opens the catalog.
 */
public class MorainePageSourceProvider
        implements ConnectorPageSourceProvider
{
    private final MoraineCatalogHolder catalog;
    private final MoraineTypes types;
    private final TrinoFileSystemFactory fileSystemFactory;
    private final ParquetReaderOptions parquetOptions = ParquetReaderOptions.defaultOptions();

    @Inject
    public MorainePageSourceProvider(MoraineCatalogHolder catalog, MoraineTypes types, TrinoFileSystemFactory fileSystemFactory)
    {
        this.catalog = catalog;
        this.types = types;
        this.fileSystemFactory = fileSystemFactory;
    }

    @Override
    public ConnectorPageSource createPageSource(ConnectorTransactionHandle transaction, ConnectorSession session, ConnectorSplit split,
            ConnectorTableHandle tableHandle, Optional<ConnectorTableCredentials> credentials, List<ColumnHandle> columns, DynamicFilter dynamicFilter)
    {
        if (tableHandle instanceof MoraineMetadataTableHandle metadataTable) {
            try {
                return MetadataPages.open(metadataTable, (MoraineMetadataSplit) split, columns.stream().map(MoraineMetadataColumnHandle.class::cast).toList());
            }
            catch (MoraineException e) {
                throw MoraineErrorCode.toTrino(e);
            }
        }
        if (tableHandle instanceof ChangeFeedTableHandle changes) {
            // Everything but the lake's files comes with the split: the group, the table's columns, the inlined rows.
            ChangeFeedSplit changeSplit = (ChangeFeedSplit) split;
            io.moraine.core.changes.ChangeGroup group = changeSplit.group();
            ChangeRowSources sources = new ChangeRowSources(catalog, changeSplit.columns(), changeSplit.inlinedPieces(group), changes,
                    new TrinoLakeFileSystem(fileSystemFactory.create(session)), parquetOptions);
            return new ChangeFeedPageSource(changes, group, sources, columns.stream().map(ChangeFeedColumnHandle.class::cast).toList());
        }
        MoraineTableHandle table = (MoraineTableHandle) tableHandle;
        List<MoraineColumnHandle> projected = columns.stream().map(MoraineColumnHandle.class::cast).toList();
        if (projected.stream().anyMatch(MergeRowId::is)) {
            // A DELETE, UPDATE or MERGE scan: the row id is read as its hidden columns and put together.
            List<ColumnHandle> read = List.copyOf(MergeRowIdPageSource.sourceColumns(projected));
            java.util.OptionalLong fileId = split instanceof MoraineSplit fileSplit && fileSplit.task() instanceof DataFileTask file
                    ? java.util.OptionalLong.of(file.dataFileId())
                    : java.util.OptionalLong.empty();
            return MergeRowIdPageSource.wrap(createPageSource(transaction, session, split, tableHandle, credentials, read, dynamicFilter), projected, fileId);
        }
        if (split instanceof MoraineInlinedRowsSplit inlined) {
            return inlinedRows(inlined, projected);
        }
        if (projected.stream().anyMatch(MoraineColumnHandle::isDereference)) {
            // Each column read once, pruned to the nested fields asked for; the fields are then taken out of its rows.
            NestedReadLayout layout = NestedReadLayout.of(projected, shippedColumns((MoraineSplit) split, projected), types);
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
                                    readColumns != null ? readColumns : readColumns((MoraineSplit) split, projected), predicate, parquetOptions);
                }
                case InlinedRowsTask inlined -> throw new IllegalStateException("a table's inlined rows come in " + MoraineInlinedRowsSplit.class.getSimpleName()
                        + "s, read on the coordinator, not as task " + inlined);
            };
        }
        catch (MoraineException e) {
            throw MoraineErrorCode.toTrino(e);
        }
    }

    /**
     * The core's columns of the projected handles, for finding struct fields by id, from the split (the coordinator
     * ships them when the scan reads a struct); none are needed when no projected column holds a struct.
     */
    private List<TableColumn> readColumns(MoraineSplit split, List<MoraineColumnHandle> columns)
    {
        if (columns.stream().noneMatch(column -> holdsStruct(column.type()))) {
            return List.of();
        }
        Map<Long, TableColumn> byId = new HashMap<>();
        shippedColumns(split, columns).forEach(column -> byId.put(column.columnId(), column));
        return columns.stream().map(column -> column.hiddenColumn().isPresent() ? null : byId.get(column.columnId())).toList();
    }

    /** The columns the split carries, checked to hold what every projected handle reads. */
    private List<TableColumn> shippedColumns(MoraineSplit split, List<MoraineColumnHandle> projected)
    {
        List<TableColumn> shipped = split.columns();
        Map<Long, TableColumn> byId = new HashMap<>();
        shipped.forEach(column -> byId.put(column.columnId(), column));
        for (MoraineColumnHandle column : projected) {
            if (column.hiddenColumn().isEmpty() && !holds(byId.get(column.columnId()), column)) {
                throw new IllegalStateException("the split holds column " + byId.get(column.columnId()) + ", not " + column);
            }
        }
        return shipped;
    }

    private static boolean holdsStruct(io.trino.spi.type.Type type)
    {
        return type instanceof io.trino.spi.type.RowType || type.getTypeParameters().stream().anyMatch(MorainePageSourceProvider::holdsStruct);
    }

    /**
     * The rows of a piece of the table's inlined rows, shipped with the split: decoded with the Arrow-to-Trino mapping,
     * each column found by id among the piece's columns (pruned by the coordinator to the fields the handle's projection
     * dereferences), the hidden columns from each row's row id and begin snapshot. No catalog is opened.
     */
    private ConnectorPageSource inlinedRows(MoraineInlinedRowsSplit split, List<MoraineColumnHandle> projected)
    {
        BufferAllocator allocator = catalog.newAllocator("inlined rows of a split");
        InlinedPieceReader piece = null;
        try {
            piece = InlinedPieceReader.open(split.piece(), allocator);
            Map<Long, TableColumn> shipped = new HashMap<>();
            piece.columns().forEach(column -> shipped.put(column.columnId(), column));
            for (MoraineColumnHandle column : projected) {
                if (column.hiddenColumn().isEmpty() && !holds(shipped.get(column.columnId()), column)) {
                    throw new IllegalStateException("the split of the inlined rows holds " + shipped.get(column.columnId()) + ", not " + column);
                }
            }
            long bytes = split.piece().length;
            if (projected.stream().anyMatch(MoraineColumnHandle::isDereference)) {
                NestedReadLayout layout = NestedReadLayout.of(projected, piece.columns(), types);
                return new DereferencingPageSource(InlinedRowsPageSource.ofPiece(allocator, piece, bytes, layout.columns(), layout.readColumns()), layout.outputs());
            }
            List<TableColumn> readColumns = projected.stream().map(column -> column.hiddenColumn().isPresent() ? null : shipped.get(column.columnId())).toList();
            return InlinedRowsPageSource.ofPiece(allocator, piece, bytes, projected, readColumns);
        }
        catch (MoraineException e) {
            close(piece, allocator);
            throw MoraineErrorCode.toTrino(e);
        }
        catch (RuntimeException e) {
            close(piece, allocator);
            throw e;
        }
    }

    /** Whether the piece's column (null when it has none of that id) holds what the handle reads: the column as typed, or the nested field. */
    private boolean holds(TableColumn shipped, MoraineColumnHandle column)
    {
        if (shipped == null) {
            return false;
        }
        if (!column.isDereference()) {
            return types.toTrino(shipped).equals(column.type());
        }
        TableColumn current = shipped;
        for (long fieldId : column.path()) {
            if (!(current.type() instanceof io.moraine.core.types.DuckLakeType.StructOf struct)) {
                return false;
            }
            current = struct.fields().stream().filter(field -> field.columnId() == fieldId).findFirst().orElse(null);
            if (current == null) {
                return false;
            }
        }
        return types.toTrino(current).equals(column.type());
    }

    private static void close(InlinedPieceReader piece, BufferAllocator allocator)
    {
        try (allocator; piece) {
            // the piece's vectors, then the allocator
        }
    }
}
