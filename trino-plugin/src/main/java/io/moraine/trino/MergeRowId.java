package io.moraine.trino;

import io.moraine.core.scan.HiddenColumn;
import io.trino.spi.block.Block;
import io.trino.spi.block.RowBlock;
import io.trino.spi.type.RowType;

import java.util.List;

import static io.trino.spi.type.BigintType.BIGINT;

/**
 * Trino's merge row id of a moraine row: {@code ROW(file_id BIGINT, position BIGINT, row_id BIGINT)}, the split's data
 * file id and the scan's hidden columns {@code $file_row_number} and {@code $row_id}. A file row has a file id and a
 * position (what the core's {@code RowDeletes.fileRow(dataFileId, position)} takes; the id, unlike the path, does not
 * depend on {@code moraine.data-path}); an inlined row has neither, only its row id. The row id is also what an
 * updated row keeps.
 */
final class MergeRowId
{
    /** A column id no DuckLake column and no {@link HiddenColumn} has. */
    static final long COLUMN_ID = -100;
    static final String NAME = "$merge_row_id";
    static final RowType TYPE = RowType.from(List.of(RowType.field("file_id", BIGINT), RowType.field("position", BIGINT), RowType.field("row_id", BIGINT)));
    /** The hidden columns the row id's position and row id are read from. */
    static final List<HiddenColumn> FIELDS = List.of(HiddenColumn.FILE_ROW_NUMBER, HiddenColumn.ROW_ID);

    private MergeRowId() {}

    static MoraineColumnHandle handle()
    {
        return new MoraineColumnHandle(COLUMN_ID, NAME, TYPE, "STRUCT(file_id BIGINT, position BIGINT, row_id BIGINT)", java.util.Optional.empty());
    }

    static boolean is(MoraineColumnHandle column)
    {
        return column.columnId() == COLUMN_ID;
    }

    /** The row ids of {@code positions} rows of data file {@code fileId} (empty: inlined rows). */
    static Block of(int positions, java.util.OptionalLong fileId, Block position, Block rowId)
    {
        Block fileIds = io.trino.spi.block.RunLengthEncodedBlock.create(BIGINT, fileId.isPresent() ? fileId.getAsLong() : null, positions);
        return RowBlock.fromFieldBlocks(positions, new Block[] {fileIds, position, rowId});
    }

    /** The row ids of a block of merge row ids. */
    static Block rowIds(Block mergeRowIds)
    {
        return RowBlock.getRowFieldsFromBlock(mergeRowIds).get(2);
    }
}
