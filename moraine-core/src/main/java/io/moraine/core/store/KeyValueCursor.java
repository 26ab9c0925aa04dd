package io.moraine.core.store;

import io.slatedb.uniffi.DbIterator;

import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * Streams a key range from SlateDB one page at a time: at most one page of entries is held in memory. Close it to
 * release the native iterator.
 */
public final class KeyValueCursor
        implements Iterator<KeyValue>, AutoCloseable
{
    private final DbIterator iterator;
    private final StoreUri store;
    private final int pageSize;
    private final Duration timeout;
    private List<KeyValue> page = List.of();
    private int position;
    private boolean exhausted;

    KeyValueCursor(DbIterator iterator, StoreUri store, int pageSize, Duration timeout)
    {
        this.iterator = iterator;
        this.store = store;
        this.pageSize = pageSize;
        this.timeout = timeout;
    }

    @Override
    public boolean hasNext()
    {
        if (position < page.size()) {
            return true;
        }
        if (exhausted) {
            return false;
        }
        page = SlateDbCalls.await(executor -> iterator.nextBatch(pageSize, executor), store, "scanning", timeout).stream()
                .map(entry -> new KeyValue(entry.key(), entry.value()))
                .toList();
        position = 0;
        if (page.size() < pageSize) {
            exhausted = true;
        }
        return !page.isEmpty();
    }

    @Override
    public KeyValue next()
    {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        return page.get(position++);
    }

    @Override
    public void close()
    {
        iterator.close();
    }
}
