package io.moraine.core.store;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Runs the SlateDB binding's completion steps (poll again, lift the result) on the thread that waits for the call,
 * instead of the common pool. A call whose Rust future is ready at once then completes with no thread hand-off at all,
 * and one that has to wait costs a single wake-up of the waiting thread, where the common pool cost two hand-offs and
 * a wake-up per call.
 * <p>
 * Steps are always queued, never run inside {@link #execute}: a step can arrive from a Rust thread that is delivering
 * a wake-up, and polling the future again from there would re-enter it.
 */
final class WaitingThreadExecutor
        implements Executor
{
    // A bound on how long a wait goes without re-checking its futures, should one complete without a queued step.
    private static final long RECHECK_MILLIS = 50;

    private final BlockingQueue<Runnable> steps = new LinkedBlockingQueue<>();

    @Override
    public void execute(Runnable step)
    {
        steps.add(step);
    }

    /**
     * Runs queued steps on the calling thread until {@code future} is done or {@code System.nanoTime()} passes
     * {@code deadlineNanos}; returns whether it is done. Steps still queued after a deadline are never run.
     */
    boolean runUntilDone(Future<?> future, long deadlineNanos)
            throws InterruptedException
    {
        while (!future.isDone()) {
            long remaining = deadlineNanos - System.nanoTime();
            if (remaining <= 0) {
                return false;
            }
            Runnable step = steps.poll(Math.min(remaining, TimeUnit.MILLISECONDS.toNanos(RECHECK_MILLIS)), TimeUnit.NANOSECONDS);
            if (step != null) {
                step.run();
            }
        }
        return true;
    }
}
