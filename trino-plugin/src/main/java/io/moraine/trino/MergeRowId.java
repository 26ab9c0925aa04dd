package io.moraine.trino;

import io.moraine.core.scan.HiddenColumn;
import io.trino.spi.block.Block;
import io.trino.spi.block.RowBlock;
import io.trino.spi.type.RowType;

import java.util.List;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.VarcharType.VARCHAR;

/**
 * Trino's merge row id of a moraine row: {@code ROW(path VARCHAR, position BIGINT, row_id BIGINT)}, the hidden columns
 * {@code $path}, {@code $file_row_number} and {@code $row_id} of the scan. A file row has a path and a position (what
 * the core's {@code RowDeletes.fileRow(path, position)} takes); an inlined row has neither, only its row id. The row id
 * is also what an updated row keeps.
 */
final class MergeRowId
{
    /** A column id no DuckLake column and no {@link HiddenColumn} has. */
    static final long COLUMN_ID = -100;
    static final String NAME = "$merge_row_id";
    static final RowType TYPE = RowType.from(List.of(RowType.field("path", VARCHAR), RowType.field("position", BIGINT), RowType.field("row_id", BIGINT)));
    /** The hidden columns the row id is made of, in its field order. */
    static final List<HiddenColumn> FIELDS = List.of(HiddenColumn.PATH, HiddenColumn.FILE_ROW_NUMBER, HiddenColumn.ROW_ID);

    private MergeRowId() {}

    static MoraineColumnHandle handle()
    {
        return new MoraineColumnHandle(COLUMN_ID, NAME, TYPE, "STRUCT(path VARCHAR, position BIGINT, row_id BIGINT)", java.util.Optional.empty());
    }

    static boolean is(MoraineColumnHandle column)
    {
        return column.columnId() == COLUMN_ID;
    }

    static Block of(int positions, Block path, Block position, Block rowId)
    {
        return RowBlock.fromFieldBlocks(positions, new Block[] {path, position, rowId});
    }

    /** The row ids of a block of merge row ids. */
    static Block rowIds(Block mergeRowIds)
    {
        return RowBlock.getRowFieldsFromBlock(mergeRowIds).get(2);
    }
}
