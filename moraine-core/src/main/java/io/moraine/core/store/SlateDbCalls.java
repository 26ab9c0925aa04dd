package io.moraine.core.store;

import io.moraine.core.error.CorruptionException;
import io.moraine.core.error.FencedException;
import io.moraine.core.error.InternalException;
import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.error.MoraineException;
import io.moraine.core.error.OperationInterruptedException;
import io.moraine.core.error.Secrets;
import io.moraine.core.error.StoreException;
import io.moraine.core.error.StoreObjectMissingException;
import io.moraine.core.error.StoreUnavailableException;
import io.slatedb.uniffi.CloseReason;
import io.slatedb.uniffi.Error;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * Waits for SlateDB's asynchronous calls and turns its errors into typed moraine exceptions.
 * <p>
 * SlateDB retries a failing object store without end, so opens and reads wait at most a deadline (the store
 * timeout, {@link StoreOptions#timeout()}). A call past its deadline is cancelled: cancelling the binding's future
 * drops the Rust future, which stops its retries, and its completion steps, queued for the waiting thread, are never
 * run. Reads started on the common pool ({@link PendingReads}) are abandoned instead, since a pool thread may be
 * polling them: they finish or retry on their own and their values are dropped.
 */
final class SlateDbCalls
{
    private static final long NO_DEADLINE = Long.MAX_VALUE;

    private SlateDbCalls() {}

    /**
     * Starts an asynchronous binding call and waits for it without a deadline (writes, whose outcome a deadline
     * would leave unknown); {@code what} says what was being done, for the error message. The binding's completion
     * steps run on this thread (see {@link WaitingThreadExecutor}).
     */
    public static <T> T await(Function<Executor, CompletableFuture<T>> call, StoreUri store, String what)
    {
        return await(call, store, what, null);
    }

    /** {@link #await(Function, StoreUri, String)}, failing with {@link StoreUnavailableException} after {@code timeout}. */
    public static <T> T await(Function<Executor, CompletableFuture<T>> call, StoreUri store, String what, Duration timeout)
    {
        long deadline = deadline(timeout);
        WaitingThreadExecutor executor = new WaitingThreadExecutor();
        return awaitAll(List.of(call.apply(executor)), future -> executor.runUntilDone(future, deadline), deadline, timeout, store, what).getFirst();
    }

    /** Waits for every one of {@code futures} (started together, see {@link PendingReads}), all within {@code timeout}. */
    public static <T> List<T> awaitAll(List<CompletableFuture<T>> futures, StoreUri store, String what, Duration timeout)
    {
        return awaitAll(futures, future -> true, deadline(timeout), timeout, store, what);
    }

    private static long deadline(Duration timeout)
    {
        if (timeout == null) {
            return NO_DEADLINE;
        }
        long now = System.nanoTime();
        long nanos = timeout.toNanos();
        return nanos > NO_DEADLINE - now ? NO_DEADLINE : now + nanos;
    }

    private interface Waiter
    {
        /** Helps {@code future} along until it is done or the deadline passes; false if it is not done. */
        boolean runUntilDone(CompletableFuture<?> future)
                throws InterruptedException;
    }

    private static <T> List<T> awaitAll(List<CompletableFuture<T>> futures, Waiter waiter, long deadline, Duration timeout, StoreUri store, String what)
    {
        try {
            List<T> results = new ArrayList<>(futures.size());
            for (CompletableFuture<T> future : futures) {
                if (!waiter.runUntilDone(future)) {
                    throw new TimeoutException();
                }
                results.add(deadline == NO_DEADLINE ? future.get() : future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS));
            }
            return results;
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            futures.forEach(future -> future.cancel(true));
            throw new OperationInterruptedException("interrupted while " + what + " on store " + store, e);
        }
        catch (TimeoutException e) {
            futures.forEach(future -> future.cancel(true));
            throw timedOut(store, what, timeout);
        }
        catch (ExecutionException | CompletionException e) {
            throw translate(e.getCause() == null ? e : e.getCause(), store, what);
        }
        catch (CancellationException e) {
            throw new OperationInterruptedException("cancelled while " + what + " on store " + store, e);
        }
    }

    /**
     * Whether SlateDB's {@link Error.Data} is its object store's NotFound: SlateDB 0.17 maps {@code object_store::Error::NotFound}
     * to a data error (slatedb/src/error.rs), whose message carries object_store's "Object at location ... not found".
     */
    static boolean isObjectNotFound(Error.Data data)
    {
        String message = data.getMessage();
        return message != null && message.contains("Object at location ") && message.contains(" not found");
    }

    static StoreUnavailableException timedOut(StoreUri store, String what, Duration timeout)
    {
        return new StoreUnavailableException("store " + store + " did not answer within " + timeout.toMillis() / 1000.0 + " s while " + what
                + " (" + StoreLocation.describe(store) + "). " + StoreLocation.whatToCheck(store) + "; a slow store needs a longer store timeout "
                + "(--store-timeout, the catalog property moraine.store-timeout, DuckDB's ATTACH option STORE_TIMEOUT, or Spark's catalog setting store-timeout).");
    }

    /** Runs a synchronous binding call that may throw SlateDB's {@link Error}. */
    public static <T> T call(ErrorProneCall<T> call, StoreUri store, String what)
    {
        try {
            return call.run();
        }
        catch (Error e) {
            throw translate(e, store, what);
        }
    }

    @FunctionalInterface
    public interface ErrorProneCall<T>
    {
        T run()
                throws Error;
    }

    public static MoraineException translate(Throwable failure, StoreUri store, String what)
    {
        if (failure instanceof MoraineException moraine) {
            return moraine;
        }
        String context = what + " on store " + store;
        Throwable cause = Secrets.scrub(failure);
        return switch (failure) {
            case Error.Closed closed when closed.reason() == CloseReason.FENCED -> new FencedException(store.toString(), cause);
            case Error.Closed closed -> new StoreException("the store handle is closed (" + closed.reason() + ": " + Secrets.redact(closed.message())
                    + ") while " + context + "; re-open the catalog", cause);
            case Error.Unavailable unavailable -> new StoreException("object store unavailable while " + context + " (" + StoreLocation.describe(store)
                    + "): " + Secrets.redact(unavailable.getMessage()) + ". " + StoreLocation.whatToCheck(store) + ", then retry.", cause);
            case Error.Invalid invalid -> new InvalidArgumentException("SlateDB refused " + context + ": " + Secrets.redact(invalid.getMessage()), cause);
            case Error.Data data when isObjectNotFound(data) -> new StoreObjectMissingException("a file the store's state names is gone from the "
                    + "object store while " + context + " (" + Secrets.redact(data.getMessage()) + "). The writer's garbage collector deletes the files a "
                    + "compaction replaced once they are older than its minimum age; a read-only catalog that keeps no checkpoint redoes such a read "
                    + "once on the store's current state. Run the query again; if it keeps failing, files were deleted from the store by something "
                    + "other than SlateDB: restore the store from a checkpoint or backup.", cause);
            case Error.Data data -> new CorruptionException("SlateDB found damaged data while " + context + ": " + Secrets.redact(data.getMessage())
                    + ". Restore the store from a checkpoint or backup.", cause);
            case Error.Transaction transaction -> new StoreException("SlateDB transaction failed while " + context + ": "
                    + Secrets.redact(transaction.getMessage()), cause);
            case Error other -> new InternalException("SlateDB failed while " + context + ": " + Secrets.redact(other.getMessage()), cause);
            default -> new InternalException("unexpected failure while " + context + ": " + Secrets.redact(failure.toString()), cause);
        };
    }
}
