package io.moraine.trino;

import io.moraine.core.changes.ChangeTask;
import io.moraine.core.changes.DeletedRows;
import io.moraine.core.changes.DeletedRowsTask;
import io.moraine.core.changes.InlinedChangesTask;
import io.moraine.core.changes.InsertedRowsTask;
import io.moraine.core.error.MoraineException;
import io.moraine.core.inline.read.InlinedPiecesSource;
import io.moraine.core.types.TableColumn;
import io.moraine.files.TrinoLakeFileSystem;
import io.trino.parquet.ParquetReaderOptions;
import io.trino.spi.connector.ConnectorPageSource;
import org.apache.arrow.memory.BufferAllocator;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Opens the change rows of one task of a change-feed split: data files with the connector's Parquet reading, inlined
 * rows from the pieces the coordinator read and shipped with the split ({@link ChangeFeedSplit}); the table's columns
 * come with the split too, so no catalog is opened. Every page holds {@code snapshot_id}, {@code rowid}, then the
 * columns asked for.
 */
final class ChangeRowSources
{
    private final MoraineCatalogHolder catalog;
    private final ChangeFeedTableHandle handle;
    private final Map<ChangeTask, List<byte[]>> inlinedPieces;
    private final TrinoLakeFileSystem files;
    private final Map<Long, TableColumn> columnsById;
    private final ParquetReaderOptions options;
    // A split reads a task twice when it pairs (row keys, then rows): its delete files are read once.
    private final Map<DeletedRowsTask, DeletedRows> deletedRows = new IdentityHashMap<>();

    /**
     * @param catalog for its allocator only
     * @param columns the table columns the split carries
     * @param inlinedPieces the pieces of each inlined task of the split's group, by identity
     */
    ChangeRowSources(MoraineCatalogHolder catalog, List<TableColumn> columns, Map<ChangeTask, List<byte[]>> inlinedPieces, ChangeFeedTableHandle handle,
            TrinoLakeFileSystem files, ParquetReaderOptions options)
    {
        this.catalog = catalog;
        this.handle = handle;
        this.inlinedPieces = inlinedPieces;
        this.files = files;
        this.options = options;
        this.columnsById = new HashMap<>();
        columns.forEach(column -> columnsById.put(column.columnId(), column));
    }

    /** The rows of {@code task} with {@code columns} (none, for only the snapshots and row ids). */
    ConnectorPageSource open(ChangeTask task, List<MoraineColumnHandle> columns)
    {
        List<TableColumn> readColumns = columns.stream().map(column -> {
            TableColumn read = columnsById.get(column.columnId());
            if (read == null) {
                throw new IllegalStateException("the change-feed split does not hold column " + column.name() + " (id " + column.columnId() + ")");
            }
            return read;
        }).toList();
        String tableName = handle.table().toString();
        try {
            return switch (task) {
                case InsertedRowsTask inserted -> ChangeFilePageSource.insertions(inserted, tableName, files, columns, readColumns, options);
                case DeletedRowsTask deleted -> ChangeFilePageSource.deletions(deleted, deletedRows.computeIfAbsent(deleted, ignored -> DeletedRows.of(deleted, files)),
                        tableName, files, columns, readColumns, options);
                case InlinedChangesTask inlined -> inlined(inlined, columns, readColumns);
            };
        }
        catch (MoraineException e) {
            throw MoraineErrorCode.toTrinoReadingFiles(e);
        }
    }

    private ConnectorPageSource inlined(InlinedChangesTask task, List<MoraineColumnHandle> columns, List<TableColumn> readColumns)
    {
        List<byte[]> pieces = inlinedPieces.get(task);
        if (pieces == null) {
            throw new IllegalStateException("the change-feed split does not hold the pieces of " + task);
        }
        BufferAllocator allocator = catalog.newAllocator("inlined changes of a split");
        try {
            return InlinedRowsPageSource.changes(allocator, new InlinedPiecesSource(pieces, readColumns, allocator), pieces.stream().mapToLong(piece -> piece.length).sum(),
                    task.kind(), columns, readColumns);
        }
        catch (RuntimeException e) {
            try (allocator) {
                throw e;
            }
        }
    }
}
