package io.moraine.trino;

import io.moraine.core.changes.DeletedRows;
import io.moraine.core.changes.DeletedRowsTask;
import io.moraine.core.changes.InsertedRows;
import io.moraine.core.changes.InsertedRowsTask;
import io.moraine.core.scan.DataFileTask;
import io.moraine.core.scan.HiddenFields;
import io.moraine.core.types.TableColumn;
import io.moraine.files.TrinoLakeFileSystem;
import io.trino.parquet.ParquetReaderOptions;
import io.trino.spi.Page;
import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.EmptyPageSource;
import io.trino.spi.connector.SourcePage;
import io.trino.spi.predicate.TupleDomain;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import static io.trino.spi.type.BigintType.BIGINT;

/**
 * The change rows of one data file, an insertion or a deletion task's, read with Trino's Parquet reader
 * ({@link ParquetFilePages}): the rows the core's {@link InsertedRows} or {@link DeletedRows} selects, each page holding
 * {@code snapshot_id}, {@code rowid}, then the projected columns.
 */
final class ChangeFilePageSource
        implements ConnectorPageSource
{
    /** Which rows of a page are changes, and in which snapshot each was made. */
    private interface Selection
    {
        int select(int rows, Block positions, Block snapshots, int[] selected);

        long snapshot(long position, OptionalLong embeddedSnapshot);
    }

    private final DataFileTask file;
    private final ParquetFilePages.OpenedFile opened;
    private final List<MoraineColumnHandle> columns;
    private final Selection selection;
    private long readTimeNanos;
    private boolean finished;

    private ChangeFilePageSource(DataFileTask file, ParquetFilePages.OpenedFile opened, List<MoraineColumnHandle> columns, Selection selection)
    {
        this.file = file;
        this.opened = opened;
        this.columns = List.copyOf(columns);
        this.selection = selection;
    }

    static ConnectorPageSource insertions(InsertedRowsTask task, String tableName, TrinoLakeFileSystem files, List<MoraineColumnHandle> columns,
            List<TableColumn> readColumns, ParquetReaderOptions options)
    {
        InsertedRows inserted = InsertedRows.of(task);
        Selection selection = new Selection()
        {
            @Override
            public int select(int rows, Block positions, Block snapshots, int[] selected)
            {
                return inserted.select(rows, snapshots == null ? null : row -> BIGINT.getLong(snapshots, row), selected);
            }

            @Override
            public long snapshot(long position, OptionalLong embeddedSnapshot)
            {
                return task.file().rowSnapshot(embeddedSnapshot);
            }
        };
        // The embedded snapshots name each row's snapshot even when no row is filtered by them.
        return open(task.file(), tableName, files, columns, readColumns, options, new ParquetFilePages.ReadFields(InsertedRows.hiddenFields(task), true, true, true),
                selection);
    }

    /** @param deleted the task's {@link DeletedRows} */
    static ConnectorPageSource deletions(DeletedRowsTask task, DeletedRows deleted, String tableName, TrinoLakeFileSystem files, List<MoraineColumnHandle> columns,
            List<TableColumn> readColumns, ParquetReaderOptions options)
    {
        if (deleted.isEmpty()) {
            return new EmptyPageSource();
        }
        Selection selection = new Selection()
        {
            @Override
            public int select(int rows, Block positions, Block snapshots, int[] selected)
            {
                return deleted.select(rows, row -> BIGINT.getLong(positions, row), selected);
            }

            @Override
            public long snapshot(long position, OptionalLong embeddedSnapshot)
            {
                return deleted.deletedIn(position);
            }
        };
        return open(task.file(), tableName, files, columns, readColumns, options,
                new ParquetFilePages.ReadFields(HiddenFields.forDeletions(task.file()), false, true, true), selection);
    }

    private static ConnectorPageSource open(DataFileTask file, String tableName, TrinoLakeFileSystem files, List<MoraineColumnHandle> columns,
            List<TableColumn> readColumns, ParquetReaderOptions options, ParquetFilePages.ReadFields hidden, Selection selection)
    {
        Optional<ParquetFilePages.OpenedFile> opened = ParquetFilePages.openFile(file, tableName, files, columns, readColumns, TupleDomain.all(), options,
                () -> hidden);
        return opened.<ConnectorPageSource>map(reader -> new ChangeFilePageSource(file, reader, columns, selection)).orElseGet(EmptyPageSource::new);
    }

    @Override
    public SourcePage getNextSourcePage()
    {
        if (finished) {
            return null;
        }
        long start = System.nanoTime();
        SourcePage page;
        try {
            page = opened.reader().nextPage();
        }
        catch (IOException e) {
            throw new TrinoException(MoraineErrorCode.MORAINE_CANNOT_READ_DATA, "reading data file " + file.path() + " failed: " + e.getMessage(), e);
        }
        finally {
            readTimeNanos += System.nanoTime() - start;
        }
        if (page == null) {
            finished = true;
            return null;
        }
        int rows = page.getPositionCount();
        Block positions = page.getBlock(opened.positionField());
        Block snapshots = opened.snapshotField() >= 0 ? page.getBlock(opened.snapshotField()) : null;
        Block rowIds = opened.rowIdField() >= 0 ? page.getBlock(opened.rowIdField()) : null;
        int[] selected = new int[rows];
        int kept = selection.select(rows, positions, snapshots, selected);
        BlockBuilder snapshotIds = BIGINT.createFixedSizeBlockBuilder(kept);
        BlockBuilder rowIdBlock = BIGINT.createFixedSizeBlockBuilder(kept);
        for (int i = 0; i < kept; i++) {
            int row = selected[i];
            long position = BIGINT.getLong(positions, row);
            OptionalLong embeddedSnapshot = snapshots == null ? OptionalLong.empty() : OptionalLong.of(BIGINT.getLong(snapshots, row));
            OptionalLong embeddedRowId = rowIds == null ? OptionalLong.empty() : OptionalLong.of(BIGINT.getLong(rowIds, row));
            BIGINT.writeLong(snapshotIds, selection.snapshot(position, embeddedSnapshot));
            BIGINT.writeLong(rowIdBlock, file.rowId(position, embeddedRowId));
        }
        Block[] blocks = new Block[2 + columns.size()];
        blocks[0] = snapshotIds.build();
        blocks[1] = rowIdBlock.build();
        for (int i = 0; i < columns.size(); i++) {
            int field = opened.fieldOfColumn()[i];
            if (field < 0) {
                blocks[2 + i] = ArrowToTrino.missing(columns.get(i), kept);
                continue;
            }
            Block block = page.getBlock(field).getPositions(selected, 0, kept);
            blocks[2 + i] = columns.get(i).isInterval() ? ParquetFilePageSource.intervalText(block) : block;
        }
        return SourcePage.create(new Page(kept, blocks));
    }

    @Override
    public long getCompletedBytes()
    {
        return opened.source().getReadBytes();
    }

    @Override
    public long getReadTimeNanos()
    {
        return readTimeNanos;
    }

    @Override
    public boolean isFinished()
    {
        return finished;
    }

    @Override
    public long getMemoryUsage()
    {
        return opened.reader().getMemoryContext().getBytes();
    }

    @Override
    public void close()
    {
        finished = true;
        try (var source = opened.source(); var reader = opened.reader()) {
            // closed in reverse order: the reader, then the file
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
