package io.moraine.core.catalog;

import io.moraine.core.keyspace.KeyWriter;
import io.moraine.core.keyspace.RowKeys;
import io.moraine.core.keyspace.RowValueCodec;
import io.moraine.core.keyspace.Subspace;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.store.KeyValueCursor;
import io.moraine.core.store.KeyValueReader;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Predicate;

/**
 * Streams the rows of one kind (optionally under a key prefix) from one or more subspaces, decoding one store page
 * at a time: memory held is one page per subspace, however large the table. Close it to release the store iterators.
 * <p>
 * Rows of several subspaces come either one subspace after the other, or merged in key order ({@link
 * #inKeyOrder}): then a row found under the same key in two subspaces (a versioned row a concurrent commit moved from
 * current into history while this cursor read a following view) is returned once.
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
    private final boolean merged;
    private final List<PeekingCursor> mergeInputs = new ArrayList<>();
    private KeyValueCursor cursor;
    private Row next;

    RowCursor(KeyValueReader reader, TableKind kind, List<Subspace> subspaces, Object[] prefixCells, int pageSize,
            Predicate<Row> filter, List<Row> leadingRows)
    {
        this(reader, kind, subspaces, prefixCells, pageSize, filter, leadingRows, false);
    }

    private RowCursor(KeyValueReader reader, TableKind kind, List<Subspace> subspaces, Object[] prefixCells, int pageSize,
            Predicate<Row> filter, List<Row> leadingRows, boolean merged)
    {
        this.reader = reader;
        this.kind = kind;
        this.prefixCells = prefixCells.clone();
        this.pageSize = pageSize;
        this.filter = filter;
        this.pendingSubspaces = new ArrayDeque<>(subspaces);
        this.leadingRows = leadingRows.iterator();
        this.merged = merged && subspaces.size() > 1;
    }

    /** The rows of {@code subspaces} merged in key order (each subspace's keys without their subspace byte). */
    static RowCursor inKeyOrder(KeyValueReader reader, TableKind kind, List<Subspace> subspaces, Object[] prefixCells, Predicate<Row> filter)
    {
        return new RowCursor(reader, kind, subspaces, prefixCells, DEFAULT_PAGE_SIZE, filter, List.of(), true);
    }

    @Override
    public boolean hasNext()
    {
        while (next == null) {
            if (leadingRows.hasNext()) {
                next = leadingRows.next();
                continue;
            }
            Row row = merged ? nextMerged() : nextSequential();
            if (row == null) {
                return false;
            }
            if (filter.test(row)) {
                next = row;
            }
        }
        return true;
    }

    private Row nextSequential()
    {
        while (cursor == null || !cursor.hasNext()) {
            if (cursor != null) {
                cursor.close();
                cursor = null;
            }
            if (pendingSubspaces.isEmpty()) {
                return null;
            }
            cursor = open(pendingSubspaces.removeFirst());
        }
        var entry = cursor.next();
        return RowValueCodec.decode(kind, entry.key(), entry.value());
    }

    private Row nextMerged()
    {
        if (!pendingSubspaces.isEmpty()) {
            while (!pendingSubspaces.isEmpty()) {
                mergeInputs.add(new PeekingCursor(open(pendingSubspaces.removeFirst())));
            }
        }
        PeekingCursor smallest = null;
        for (PeekingCursor input : mergeInputs) {
            if (input.hasHead() && (smallest == null || input.compareHeads(smallest) < 0)) {
                smallest = input;
            }
        }
        if (smallest == null) {
            return null;
        }
        byte[] key = smallest.headKey();
        byte[] value = smallest.headValue();
        for (PeekingCursor input : mergeInputs) {
            if (input != smallest && input.hasHead() && input.compareHeads(smallest) == 0) {
                input.advance();
            }
        }
        smallest.advance();
        return RowValueCodec.decode(kind, key, value);
    }

    private KeyValueCursor open(Subspace subspace)
    {
        byte[] prefix = RowKeys.prefix(subspace, kind, prefixCells);
        return reader.scan(prefix, KeyWriter.prefixEnd(prefix), pageSize);
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
            List<Row> rows = new ArrayList<>();
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
        mergeInputs.forEach(input -> input.cursor.close());
        mergeInputs.clear();
        pendingSubspaces.clear();
    }

    /** A subspace's cursor with its next entry looked at; keys compare without their leading subspace byte. */
    private static final class PeekingCursor
    {
        private final KeyValueCursor cursor;
        private byte[] headKey;
        private byte[] headValue;

        PeekingCursor(KeyValueCursor cursor)
        {
            this.cursor = cursor;
            advance();
        }

        boolean hasHead()
        {
            return headKey != null;
        }

        byte[] headKey()
        {
            return headKey;
        }

        byte[] headValue()
        {
            return headValue;
        }

        int compareHeads(PeekingCursor other)
        {
            return Arrays.compareUnsigned(headKey, 1, headKey.length, other.headKey, 1, other.headKey.length);
        }

        void advance()
        {
            if (cursor.hasNext()) {
                var entry = cursor.next();
                headKey = entry.key();
                headValue = entry.value();
            }
            else {
                headKey = null;
                headValue = null;
            }
        }
    }
}
