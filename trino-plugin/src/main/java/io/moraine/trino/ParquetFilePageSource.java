package io.moraine.trino;

import io.airlift.slice.Slices;
import io.moraine.core.scan.DataFileTask;
import io.moraine.core.scan.HiddenColumn;
import io.moraine.core.scan.VisibleRows;
import io.moraine.core.types.DuckLakeValues;
import io.trino.parquet.ParquetDataSource;
import io.trino.parquet.reader.ParquetReader;
import io.trino.spi.Page;
import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.block.LongArrayBlock;
import io.trino.spi.block.RunLengthEncodedBlock;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.SourcePage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.VarcharType.VARCHAR;

/**
 * Streams the pages of one data file as Trino's Parquet reader decodes them, keeping the rows {@link VisibleRows}
 * says the snapshot sees; columns the file lacks are filled with their defaults.
 */
final class ParquetFilePageSource
        implements ConnectorPageSource
{
    private final ParquetDataSource source;
    private final ParquetReader reader;
    private final List<MoraineColumnHandle> columns;
    private final int[] fieldOfColumn;
    private final HiddenColumn[] computed;
    private final DataFileTask file;
    private final int snapshotField;
    private final int positionField;
    private final VisibleRows visibility;
    private long readTimeNanos;
    private boolean finished;

    /**
     * @param fieldOfColumn for each projected column its field in the reader's pages, or -1 when the file lacks it
     * @param computed for each projected column the hidden column computed from the task and row positions, or null
     * @param snapshotField the reader field holding each row's snapshot, or -1 when {@code visibility} needs none
     * @param positionField the reader's row-position block, or -1 when no position of the file is deleted
     */
    ParquetFilePageSource(ParquetDataSource source, ParquetReader reader, List<MoraineColumnHandle> columns, int[] fieldOfColumn,
            HiddenColumn[] computed, DataFileTask file, int snapshotField, int positionField, VisibleRows visibility)
    {
        this.computed = computed.clone();
        this.file = file;
        this.source = source;
        this.reader = reader;
        this.columns = List.copyOf(columns);
        this.fieldOfColumn = fieldOfColumn.clone();
        this.snapshotField = snapshotField;
        this.positionField = positionField;
        this.visibility = visibility;
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
            page = reader.nextPage();
        }
        catch (IOException e) {
            throw new TrinoException(MoraineErrorCode.MORAINE_CANNOT_READ_DATA, "reading data file " + source.getId() + " failed: " + e.getMessage(), e);
        }
        finally {
            readTimeNanos += System.nanoTime() - start;
        }
        if (page == null) {
            finished = true;
            return null;
        }
        int rows = page.getPositionCount();
        if (visibility.keepsEveryRow()) {
            return page(page, null, rows);
        }
        int[] keep = new int[rows];
        Block snapshots = snapshotField >= 0 ? page.getBlock(snapshotField) : null;
        Block positions = positionField >= 0 ? page.getBlock(positionField) : null;
        int kept = visibility.select(rows, positions == null ? null : row -> BIGINT.getLong(positions, row),
                snapshots == null ? null : row -> BIGINT.getLong(snapshots, row), keep);
        return page(page, keep, kept);
    }

    /** The projected columns of {@code page}, only the rows in {@code keep} (all rows when null). */
    private SourcePage page(SourcePage page, int[] keep, int kept)
    {
        Block[] blocks = new Block[columns.size()];
        for (int i = 0; i < columns.size(); i++) {
            if (computed[i] != null) {
                blocks[i] = hiddenColumn(computed[i], page, keep, kept);
                continue;
            }
            if (fieldOfColumn[i] < 0) {
                blocks[i] = ArrowToTrino.missing(columns.get(i), kept);
                continue;
            }
            Block block = keep == null ? page.getBlock(fieldOfColumn[i]) : page.getBlock(fieldOfColumn[i]).getPositions(keep, 0, kept);
            blocks[i] = columns.get(i).isInterval() ? intervalText(block) : block;
        }
        return SourcePage.create(new Page(kept, blocks));
    }

    /** A hidden column's values for the kept rows: per file, or from the rows' file positions. */
    private Block hiddenColumn(HiddenColumn column, SourcePage page, int[] keep, int kept)
    {
        return switch (column) {
            case PATH -> RunLengthEncodedBlock.create(VARCHAR, Slices.utf8Slice(file.path()), kept);
            case FILE_SIZE_BYTES -> RunLengthEncodedBlock.create(BIGINT, file.sizeBytes(), kept);
            case SNAPSHOT_ID -> RunLengthEncodedBlock.create(BIGINT, file.rowSnapshot(OptionalLong.empty()), kept);
            case FILE_ROW_NUMBER, ROW_ID -> {
                Block positions = page.getBlock(positionField);
                long offset = column == HiddenColumn.ROW_ID ? file.rowId(0, OptionalLong.empty()) : 0;
                long[] values = new long[kept];
                for (int row = 0; row < kept; row++) {
                    values[row] = offset + BIGINT.getLong(positions, keep == null ? row : keep[row]);
                }
                yield new LongArrayBlock(kept, Optional.empty(), values);
            }
        };
    }

    /** Trino has no DuckDB interval: the reader hands over Parquet's 12 bytes, which are shown as DuckDB prints the interval. */
    static Block intervalText(Block raw)
    {
        BlockBuilder text = VARCHAR.createBlockBuilder(null, raw.getPositionCount());
        for (int position = 0; position < raw.getPositionCount(); position++) {
            if (raw.isNull(position)) {
                text.appendNull();
            }
            else {
                VARCHAR.writeString(text, DuckLakeValues.parquetIntervalText(VARCHAR.getSlice(raw, position).getBytes()));
            }
        }
        return text.build();
    }

    @Override
    public long getCompletedBytes()
    {
        return source.getReadBytes();
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
        return reader.getMemoryContext().getBytes();
    }

    @Override
    public void close()
    {
        try (source; reader) {
            finished = true;
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
