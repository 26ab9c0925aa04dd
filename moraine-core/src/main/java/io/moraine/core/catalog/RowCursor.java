package io.moraine.core.catalog;

import io.moraine.core.keyspace.RowKeys;
import io.moraine.core.keyspace.RowValueCodec;
import io.moraine.core.keyspace.Subspace;
import io.moraine.core.keyspace.KeyWriter;
import io.moraine.core.store.KeyValue;
import io.moraine.core.store.KeyValueCursor;
import io.moraine.core.store.KeyValueReader;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Predicate;

/**
 * Streams the rows of one kind (optionally under a key prefix) from one or more subspaces, decoding one store page
 * at a time: memory held is one page, however large the table. Close it to release the store iterators.
 */
public final class RowCursor
        implements Iterator<Row>, AutoCloseable
{
    public static final int DEFAULT_PAGE_SIZE = 1024;

    private final KeyValueReader reader;
    private final TableKind kind;
    private final Object[] prefixCells;
    private final int pageSize;
    private final Predicate<Row> filter;
    private final Deque<Subspace> pendingSubspaces;
    private final Iterator<Row> leadingRows;
    private KeyValueCursor cursor;
    private Row next;

    RowCursor(KeyValueReader reader, TableKind kind, List<Subspace> subspaces, Object[] prefixCells, int pageSize,
            Predicate<Row> filter, List<Row> leadingRows)
    {
        this.reader = reader;
        this.kind = kind;
        this.prefixCells = prefixCells.clone();
        this.pageSize = pageSize;
        this.filter = filter;
        this.pendingSubspaces = new ArrayDeque<>(subspaces);
        this.leadingRows = leadingRows.iterator();
    }

    @Override
    public boolean hasNext()
    {
        while (next == null) {
            if (leadingRows.hasNext()) {
                next = leadingRows.next();
                continue;
            }
            if (cursor == null || !cursor.hasNext()) {
                if (cursor != null) {
                    cursor.close();
                    cursor = null;
                }
                if (pendingSubspaces.isEmpty()) {
                    return false;
                }
                byte[] prefix = RowKeys.prefix(pendingSubspaces.removeFirst(), kind, prefixCells);
                cursor = reader.scan(prefix, KeyWriter.prefixEnd(prefix), pageSize);
                continue;
            }
            KeyValue entry = cursor.next();
            Row row = RowValueCodec.decode(kind, entry.key(), entry.value());
            if (filter.test(row)) {
                next = row;
            }
        }
        return true;
    }

    @Override
    public Row next()
    {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        Row row = next;
        next = null;
        return row;
    }

    /** Drains the cursor into a list; for small, bounded results such as the columns of one table. */
    public List<Row> toList()
    {
        try (this) {
            List<Row> rows = new java.util.ArrayList<>();
            forEachRemaining(rows::add);
            return rows;
        }
    }

    @Override
    public void close()
    {
        if (cursor != null) {
            cursor.close();
            cursor = null;
        }
        pendingSubspaces.clear();
    }
}
