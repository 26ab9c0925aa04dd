package io.moraine.core.store;

import io.moraine.core.error.OperationInterruptedException;
import io.moraine.core.error.StoreUnavailableException;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.function.Function;

/**
 * Point reads that were started together and are collected together: see {@link KeyValueReader#startGetAll}.
 * <p>
 * Each read is started on the common pool. A binding call does its work, including copying its value out of Rust
 * byte by byte, when it is polled, and the first poll happens where the call is started: started there, that work runs
 * in parallel with the caller's own.
 */
public final class PendingReads
{
    /** One read: the pool task that starts the binding call, and the value it yields. */
    private record Read(CompletableFuture<CompletableFuture<byte[]>> call, CompletableFuture<byte[]> value)
    {
        void cancel()
        {
            call.cancel(false);
            call.thenAccept(started -> started.cancel(true));
        }

        /**
         * Gives up on the read without touching a binding call already started: its completion steps run on the
         * common pool, where one may be polling it right now, and cancelling frees its Rust future. It is left to
         * finish (or retry) on its own; its value is dropped.
         */
        void abandon()
        {
            call.cancel(false);
        }
    }

    private final List<Read> reads;
    private final StoreUri store;
    private final Duration timeout;
    // A hand-off's failures (see SlateStore#isHandoffFailure) and how to redo the reads then; null: none.
    private java.util.function.Predicate<Throwable> redoWhen;
    private Function<RuntimeException, List<byte[]>> redo;

    private PendingReads(List<Read> reads, StoreUri store, Duration timeout)
    {
        this.reads = reads;
        this.store = store;
        this.timeout = timeout;
    }

    static PendingReads start(List<Function<Executor, CompletableFuture<byte[]>>> calls, StoreUri store, Duration timeout)
    {
        ForkJoinPool pool = ForkJoinPool.commonPool();
        List<Read> reads = calls.stream()
                .map(call -> {
                    CompletableFuture<CompletableFuture<byte[]>> started = CompletableFuture.supplyAsync(() -> call.apply(pool), pool);
                    return new Read(started, started.thenCompose(Function.identity()));
                })
                .toList();
        return new PendingReads(reads, store, timeout);
    }

    /** Reads that completed before they were handed out. */
    public static PendingReads done(List<byte[]> values)
    {
        List<Read> reads = values.stream()
                .map(value -> new Read(CompletableFuture.completedFuture(CompletableFuture.completedFuture(value)), CompletableFuture.completedFuture(value)))
                .toList();
        return new PendingReads(reads, null, StoreOptions.DEFAULT_TIMEOUT);
    }

    /**
     * These reads, redone by {@code redo} (given the failure) if they fail in a way {@code redoWhen} accepts (a writer
     * hand-off, a file gone).
     */
    PendingReads failingOver(java.util.function.Predicate<Throwable> redoWhen, Function<RuntimeException, List<byte[]>> redo)
    {
        this.redoWhen = redoWhen;
        this.redo = redo;
        return this;
    }

    /**
     * Waits for every read, all within the store timeout; the values come in the order of the keys, null where a key
     * is absent.
     */
    public List<byte[]> await()
    {
        try {
            return awaitOnce();
        }
        catch (RuntimeException e) {
            if (redo == null || !redoWhen.test(e)) {
                throw e;
            }
            return redo.apply(e);
        }
    }

    private List<byte[]> awaitOnce()
    {
        try {
            return SlateDbCalls.awaitAll(reads.stream().map(Read::value).toList(), store, "reading a key", timeout);
        }
        catch (OperationInterruptedException e) {
            cancel();
            throw e;
        }
        catch (StoreUnavailableException e) {
            reads.forEach(Read::abandon);
            throw e;
        }
    }

    /** Abandons reads whose values are no longer wanted: those not started yet never start, the others are cancelled. */
    public void cancel()
    {
        reads.forEach(Read::cancel);
    }
}
