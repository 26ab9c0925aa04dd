package io.moraine.core.keyspace;

import io.moraine.core.catalog.Row;
import io.moraine.core.catalog.TableKind;

/**
 * Store keys of catalog rows: {@code [subspace][kind tag][key cells...]}, where the key cells are the kind's key
 * columns ({@link TableKind#keyColumnIndexes()}). Kinds that belong to a table lead with {@code table_id}, so the
 * rows of one kind for one table form a single contiguous range.
 */
public final class RowKeys
{
    private RowKeys() {}

    public static byte[] key(Subspace subspace, Row row)
    {
        KeyWriter writer = new KeyWriter().tag(subspace.tag()).tag(row.kind().tag());
        for (int index : row.kind().keyColumnIndexes()) {
            writer.cell(row.get(index));
        }
        return writer.toBytes();
    }

    /** The key of a row given only its key cells, in key-column order. */
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
