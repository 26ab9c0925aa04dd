package io.moraine.core.store;

import io.moraine.core.error.OperationInterruptedException;

import java.time.Duration;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Flushes the write-ahead log on demand, one flush at a time, so that a flush covers every batch applied before it
 * started (group commit). A committer whose batch arrives while a flush is in flight waits for it and then, if its
 * batch was not covered, starts the next one; batches that queue up meanwhile share that next flush, instead of each
 * paying for a write-ahead-log object of its own. Without it a commit would wait for SlateDB's flush timer (100 ms).
 * <p>
 * A flush also waits, briefly, for committers that are about to apply a batch ({@link #committerArriving()}): they are
 * already queued on the commit lock, and one flush for all of them costs less than one each.
 */
final class WalFlushes
{
    private final Runnable flush;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition flushFinished = lock.newCondition();
    private final Condition committerLeft = lock.newCondition();
    private final long maxGroupWaitNanos;
    private int arrivingCommitters;
    private long applied;
    private long flushed;
    private boolean flushing;

    WalFlushes(Runnable flush, Duration maxGroupWait)
    {
        this.flush = flush;
        this.maxGroupWaitNanos = maxGroupWait.toNanos();
    }

    /**
     * Says a committer is about to apply a batch; closing the returned handle says it has applied it (or given up).
     * Flushes starting meanwhile wait for it, at most the group wait, so that its batch shares their flush.
     */
    Arrival committerArriving()
    {
        lock.lock();
        try {
            arrivingCommitters++;
        }
        finally {
            lock.unlock();
        }
        return () -> {
            lock.lock();
            try {
                arrivingCommitters--;
                committerLeft.signalAll();
            }
            finally {
                lock.unlock();
            }
        };
    }

    /** Numbers a batch that has just been applied; flushes started from now on cover it. */
    long applied()
    {
        lock.lock();
        try {
            return ++applied;
        }
        finally {
            lock.unlock();
        }
    }

    /** The number of the newest batch applied so far (0 before any). */
    long lastApplied()
    {
        lock.lock();
        try {
            return applied;
        }
        finally {
            lock.unlock();
        }
    }

    /** Returns once a flush that started after batch {@code batchNumber} was applied has finished. */
    void awaitFlushed(long batchNumber)
    {
        lock.lock();
        try {
            while (flushed < batchNumber) {
                if (flushing) {
                    try {
                        flushFinished.await();
                    }
                    catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new OperationInterruptedException("interrupted while waiting for a write-ahead log flush", e);
                    }
                    continue;
                }
                waitForArrivingCommitters();
                if (flushing || flushed >= batchNumber) {
                    continue;
                }
                flushing = true;
                long covered = applied;
                Throwable failure = null;
                lock.unlock();
                try {
                    flush.run();
                }
                catch (RuntimeException | Error e) {
                    failure = e;
                }
                finally {
                    lock.lock();
                    flushing = false;
                    if (failure == null) {
                        flushed = Math.max(flushed, covered);
                    }
                    flushFinished.signalAll();
                }
                if (failure instanceof RuntimeException runtime) {
                    throw runtime;
                }
                if (failure instanceof Error error) {
                    throw error;
                }
            }
        }
        finally {
            lock.unlock();
        }
    }

    /** A committer's announcement that it is about to apply a batch; close it once applied. */
    interface Arrival
            extends AutoCloseable
    {
        @Override
        void close();
    }

    /** Waits, holding the lock, until no committer is arriving, someone else starts a flush, or the group wait is over. */
    private void waitForArrivingCommitters()
    {
        long remaining = maxGroupWaitNanos;
        while (arrivingCommitters > 0 && remaining > 0 && !flushing) {
            try {
                remaining = committerLeft.awaitNanos(remaining);
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
