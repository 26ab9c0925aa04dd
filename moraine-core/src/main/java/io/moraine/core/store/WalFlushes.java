package io.moraine.core.store;

import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Flushes the write-ahead log on demand, one flush at a time, so that a flush covers every batch applied before it
 * started (group commit). A committer whose batch arrives while a flush is in flight waits for it and then, if its
 * batch was not covered, starts the next one; batches that queue up meanwhile share that next flush, instead of each
 * paying for a write-ahead-log object of its own. Without it a commit would wait for SlateDB's flush timer (100 ms).
 */
final class WalFlushes
{
    private final Runnable flush;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition flushFinished = lock.newCondition();
    private long applied;
    private long flushed;
    private boolean flushing;

    WalFlushes(Runnable flush)
    {
        this.flush = flush;
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

    /** Whether a finished flush covers batch {@code batchNumber}. */
    boolean isFlushed(long batchNumber)
    {
        lock.lock();
        try {
            return flushed >= batchNumber;
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
                    flushFinished.awaitUninterruptibly();
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
}
