package io.moraine.trino;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.changes.ChangeTask;
import io.moraine.core.changes.DeletedRows;
import io.moraine.core.changes.DeletedRowsTask;
import io.moraine.core.changes.InlinedChangesTask;
import io.moraine.core.changes.InsertedRowsTask;
import io.moraine.core.error.MoraineException;
import io.moraine.core.types.TableColumn;
import io.moraine.files.TrinoLakeFileSystem;
import io.moraine.inline.InlineReader;
import io.moraine.inline.InlinedRowsReader;
import io.trino.parquet.ParquetReaderOptions;
import io.trino.spi.connector.ConnectorPageSource;
import org.apache.arrow.memory.BufferAllocator;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Opens the change rows of one task of a change-feed call: data files with the connector's Parquet reading, inlined
 * rows with the inline reader at the feed's end snapshot. Every page holds {@code snapshot_id}, {@code rowid}, then
 * the columns asked for.
 */
final class ChangeRowSources
{
    private final MoraineCatalogHolder catalog;
    private final ChangeFeedTableHandle handle;
    private final TrinoLakeFileSystem files;
    private final Map<Long, TableColumn> columnsById;
    private final ParquetReaderOptions options;
    // A split reads a task twice when it pairs (row keys, then rows): its delete files are read once.
    private final Map<DeletedRowsTask, DeletedRows> deletedRows = new IdentityHashMap<>();

    ChangeRowSources(MoraineCatalogHolder catalog, MoraineTableColumns tableColumns, ChangeFeedTableHandle handle, TrinoLakeFileSystem files,
            ParquetReaderOptions options)
    {
        this.catalog = catalog;
        this.handle = handle;
        this.files = files;
        this.options = options;
        this.columnsById = tableColumns.of(handle.tableAtEnd()).schema().byId();
    }

    /** The rows of {@code task} with {@code columns} (none, for only the snapshots and row ids). */
    ConnectorPageSource open(ChangeTask task, List<MoraineColumnHandle> columns)
    {
        List<TableColumn> readColumns = columns.stream().map(column -> columnsById.get(column.columnId())).toList();
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
        BufferAllocator allocator = catalog.newAllocator("inlined changes of table " + task.tableId());
        CatalogSnapshot snapshot = null;
        try {
            snapshot = catalog.catalog().at(task.endSnapshotId());
            InlinedRowsReader reader = InlinedRowsReader.openChanges(snapshot, task, readColumns, InlineReader.DEFAULT_WINDOW_ROWS, allocator);
            return InlinedRowsPageSource.changes(allocator, snapshot, reader, task.kind(), columns, readColumns);
        }
        catch (RuntimeException e) {
            try (allocator; CatalogSnapshot opened = snapshot) {
                throw e;
            }
        }
    }
}
