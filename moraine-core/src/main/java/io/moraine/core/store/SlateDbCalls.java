package io.moraine.core.store;

import io.moraine.core.error.CorruptionException;
import io.moraine.core.error.FencedException;
import io.moraine.core.error.InternalException;
import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.error.MoraineException;
import io.moraine.core.error.OperationInterruptedException;
import io.moraine.core.error.StoreException;
import io.slatedb.uniffi.CloseReason;
import io.slatedb.uniffi.Error;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.function.Function;

/** Waits for SlateDB's asynchronous calls and turns its errors into typed moraine exceptions. */
final class SlateDbCalls
{
    private SlateDbCalls() {}

    /**
     * Starts an asynchronous binding call and waits for it; {@code what} says what was being done, for the error
     * message. The binding's completion steps run on this thread (see {@link WaitingThreadExecutor}).
     */
    public static <T> T await(Function<Executor, CompletableFuture<T>> call, StoreUri store, String what)
    {
        WaitingThreadExecutor executor = new WaitingThreadExecutor();
        return awaitAll(List.of(call.apply(executor)), executor::runUntilDone, store, what).getFirst();
    }

    /** Waits for every one of {@code futures} (started together, see {@link PendingReads}). */
    public static <T> List<T> awaitAll(List<CompletableFuture<T>> futures, StoreUri store, String what)
    {
        return awaitAll(futures, future -> {}, store, what);
    }

    private interface Waiter
    {
        void runUntilDone(CompletableFuture<?> future)
                throws InterruptedException;
    }

    private static <T> List<T> awaitAll(List<CompletableFuture<T>> futures, Waiter waiter, StoreUri store, String what)
    {
        try {
            List<T> results = new ArrayList<>(futures.size());
            for (CompletableFuture<T> future : futures) {
                waiter.runUntilDone(future);
                results.add(future.get());
            }
            return results;
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            futures.forEach(future -> future.cancel(true));
            throw new OperationInterruptedException("interrupted while " + what + " on store " + store, e);
        }
        catch (ExecutionException | CompletionException e) {
            throw translate(e.getCause() == null ? e : e.getCause(), store, what);
        }
        catch (CancellationException e) {
            throw new OperationInterruptedException("cancelled while " + what + " on store " + store, e);
        }
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
        String context = what + " on store " + store;
        return switch (failure) {
            case MoraineException moraine -> moraine;
            case Error.Closed closed when closed.reason() == CloseReason.FENCED -> new FencedException(store.toString(), closed);
            case Error.Closed closed -> new StoreException("the store handle is closed (" + closed.reason() + ": " + closed.message()
                    + ") while " + context + "; re-open the catalog", closed);
            case Error.Unavailable unavailable -> new StoreException("object store unavailable while " + context + ": "
                    + unavailable.getMessage() + ". Check that the store is reachable and its credentials, then retry.", unavailable);
            case Error.Invalid invalid -> new InvalidArgumentException("SlateDB refused " + context + ": " + invalid.getMessage(), invalid);
            case Error.Data data -> new CorruptionException("SlateDB found damaged data while " + context + ": " + data.getMessage()
                    + ". Restore the store from a checkpoint or backup.", data);
            case Error.Transaction transaction -> new StoreException("SlateDB transaction failed while " + context + ": "
                    + transaction.getMessage(), transaction);
            case Error other -> new InternalException("SlateDB failed while " + context + ": " + other.getMessage(), other);
            default -> new InternalException("unexpected failure while " + context + ": " + failure, failure);
        };
    }
}
