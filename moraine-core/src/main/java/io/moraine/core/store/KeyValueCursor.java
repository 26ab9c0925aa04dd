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
    private DbIterator iterator;
    private final StoreUri store;
    // Where the scan goes on after a hand-off broke it (null: it cannot), and which failures those are.
    private final java.util.function.Function<byte[], DbIterator> resume;
    private final java.util.function.Predicate<Throwable> resumable;
    // How often one page may be resumed before its failure is thrown.
    private final int maxResumes;
    private byte[] lastKey;
    private final int pageSize;
    private final Duration timeout;
    private List<KeyValue> page = List.of();
    private int position;
    private boolean exhausted;

    KeyValueCursor(DbIterator iterator, StoreUri store, int pageSize, Duration timeout)
    {
        this(iterator, store, pageSize, timeout, null, failure -> false, 0);
    }

    /**
     * A cursor that, when a read fails in a way {@code resumable} accepts (a writer hand-off), goes on with the iterator
     * {@code resume} opens after the last key returned (given null when none was), at most {@code maxResumes} times for
     * one page.
     */
    KeyValueCursor(DbIterator iterator, StoreUri store, int pageSize, Duration timeout, java.util.function.Function<byte[], DbIterator> resume,
            java.util.function.Predicate<Throwable> resumable, int maxResumes)
    {
        this.maxResumes = maxResumes;
        this.iterator = iterator;
        this.store = store;
        this.pageSize = pageSize;
        this.timeout = timeout;
        this.resume = resume;
        this.resumable = resumable;
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
        page = nextPage();
        position = 0;
        if (page.size() < pageSize) {
            exhausted = true;
        }
        return !page.isEmpty();
    }

    private List<KeyValue> nextPage()
    {
        for (int attempt = 1; ; attempt++) {
            try {
                DbIterator current = iterator;
                return SlateDbCalls.await(executor -> current.nextBatch(pageSize, executor), store, "scanning", timeout).stream()
                        .map(entry -> new KeyValue(entry.key(), entry.value()))
                        .toList();
            }
            catch (RuntimeException e) {
                if (resume == null || attempt > maxResumes || !resumable.test(e)) {
                    throw e;
                }
                try {
                    iterator.close();
                }
                catch (RuntimeException closing) {
                    e.addSuppressed(closing);
                }
                iterator = resume.apply(lastKey);
            }
        }
    }

    @Override
    public KeyValue next()
    {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        KeyValue next = page.get(position++);
        if (resume != null) {
            lastKey = next.key();
        }
        return next;
    }

    @Override
    public void close()
    {
        iterator.close();
    }
}
