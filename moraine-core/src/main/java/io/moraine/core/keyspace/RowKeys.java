package io.moraine.core.keyspace;

import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;

/**
 * Store keys of catalog rows: {@code [subspace][kind tag][key cells...]}, where the key cells are the kind's key
 * columns ({@link TableKind#keyColumnIndexes()}). Kinds that belong to a table lead with {@code table_id}, so the
 * rows of one kind for one table form a single contiguous range. A row of a kind that allows duplicate keys whose
 * key cells another row had taken has one more cell, its duplicate number ({@link Row#duplicate()}).
 */
public final class RowKeys
{
    private RowKeys() {}

    /** The key {@code row} is stored under: its key cells, then its duplicate number when that is not 0. */
    public static byte[] key(Subspace subspace, Row row)
    {
        KeyWriter writer = keyCells(subspace.tag(), row);
        if (row.duplicate() != 0) {
            writer.cell(row.duplicate());
        }
        return writer.toBytes();
    }

    /**
     * The duplicate number of a row of a kind that {@link TableKind#allowsDuplicateKeys() allows duplicate keys},
     * decoded from {@code storedKey}, the key it was read from: 0 when the key is the row's key cells alone, n when
     * they are followed by the BIGINT cell n (n &gt; 0). Empty when the key is neither.
     */
    public static java.util.OptionalLong duplicateNumber(byte[] storedKey, Row row)
    {
        if (storedKey.length == 0) {
            return java.util.OptionalLong.empty();
        }
        int cellsEnd = keyCells(storedKey[0], row).toBytes().length;
        if (storedKey.length == cellsEnd) {
            return java.util.OptionalLong.of(0);
        }
        if (storedKey.length != cellsEnd + 9 || storedKey[cellsEnd] != 1) {
            return java.util.OptionalLong.empty();
        }
        long number = java.nio.ByteBuffer.wrap(storedKey, cellsEnd + 1, 8).getLong() ^ Long.MIN_VALUE;
        return number > 0 ? java.util.OptionalLong.of(number) : java.util.OptionalLong.empty();
    }

    private static KeyWriter keyCells(byte subspaceTag, Row row)
    {
        KeyWriter writer = new KeyWriter().tag(subspaceTag).tag(row.kind().tag());
        for (int index : row.kind().keyColumnIndexes()) {
            writer.cell(row.get(index));
        }
        return writer;
    }

    /** The key of a row given only its key cells, in key-column order (and its duplicate number, if not 0, last). */
    public static byte[] key(Subspace subspace, TableKind kind, Object... keyCells)
    {
        KeyWriter writer = new KeyWriter().tag(subspace.tag()).tag(kind.tag());
        for (Object cell : keyCells) {
            writer.cell(cell);
        }
        return writer.toBytes();
    }

    /** The prefix shared by the keys of {@code kind} whose leading key cells equal {@code leadingCells}. */
    public static byte[] prefix(Subspace subspace, TableKind kind, Object... leadingCells)
    {
        return key(subspace, kind, leadingCells);
    }

    /** The primary-key index entry for kinds whose declared primary key is not the first key column. */
    public static byte[] primaryKeyIndex(TableKind kind, long id)
    {
        return new KeyWriter().tag(Subspace.PRIMARY_KEY.tag()).tag(kind.tag()).int64(id).toBytes();
    }
}
