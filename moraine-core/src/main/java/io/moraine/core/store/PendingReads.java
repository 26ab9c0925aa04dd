package io.moraine.core.store;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Point reads that were started together and are collected together: see {@link KeyValueReader#startGetAll}. */
public final class PendingReads
{
    private final List<CompletableFuture<byte[]>> reads;
    private final StoreUri store;

    private PendingReads(List<CompletableFuture<byte[]>> reads, StoreUri store)
    {
        this.reads = reads;
        this.store = store;
    }

    static PendingReads started(List<CompletableFuture<byte[]>> reads, StoreUri store)
    {
        return new PendingReads(reads, store);
    }

    /** Reads that completed before they were handed out. */
    public static PendingReads done(List<byte[]> values)
    {
        return new PendingReads(values.stream().map(CompletableFuture::completedFuture).toList(), null);
    }

    /** Waits for every read; the values come in the order of the keys, null where a key is absent. */
    public List<byte[]> await()
    {
        return SlateDbCalls.awaitAll(reads, store, "reading a key");
    }

    /** Abandons reads whose values are no longer wanted. */
    public void cancel()
    {
        reads.forEach(read -> read.cancel(true));
    }
}
