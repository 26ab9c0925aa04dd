package io.moraine.core.store;

import io.moraine.core.store.StoreProbe.StoreVersion;
import io.slatedb.uniffi.DbReader;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Supplier;

import static io.moraine.core.store.SlateDbCalls.await;

/**
 * The SlateDB reader of a {@link ReaderFreshness.Mode#ON_DEMAND} handle, replaced by a new one when a read that begins
 * something finds the store changed (SlateDB 0.17's reader cannot refresh on demand). Each reader generation polls
 * nothing: between checks the handle makes no object-store request at all.
 * <p>
 * A generation is retired, not closed, when replaced: views and reads still on it finish there. It is closed once
 * nobody holds it and {@link #RETIRED_GRACE} has passed (a scan through {@link SlateStore#latest()} holds nothing).
 */
final class ReaderGenerations
        implements AutoCloseable
{
    // Generations poll nothing; SlateDB's reader still needs an interval, so it gets one that never comes (its first
    // tick is at open).
    static final Duration NO_POLL = Duration.ofDays(7);
    // How long a retired generation stays open for scans begun on it; past it, a scan that long through
    // SlateStore#latest() may fail. (A read that finds a file collected by SlateDB's garbage collector is redone on a new
    // generation: see MissingObjectRetry.)
    static final Duration RETIRED_GRACE = Duration.ofMinutes(2);

    /** One SlateDB reader and the store version it was opened at or after. */
    static final class Generation
    {
        private final DbReader reader;
        private final StoreVersion version;
        private int users;
        private long retiredAtNanos = -1;

        private Generation(DbReader reader, StoreVersion version)
        {
            this.reader = reader;
            this.version = version;
        }

        DbReader reader()
        {
            return reader;
        }
    }

    private final StoreUri uri;
    private final StoreProbe probe;
    // The generations' block cache, closed with them.
    private final AutoCloseable sharedCache;
    private final Supplier<DbReader> opener;
    private final Duration maxStaleness;
    private final Duration timeout;
    private final List<Generation> retired = new ArrayList<>();
    private final Object checkLock = new Object();
    private Generation current;
    // When the last check that made current up to date began (System.nanoTime); guarded by this.
    private long checkedAtNanos;
    private long generationsOpened;
    private long checks;
    private boolean closed;

    ReaderGenerations(StoreUri uri, StoreProbe probe, Supplier<DbReader> opener, AutoCloseable sharedCache, Duration maxStaleness, Duration timeout)
    {
        this.sharedCache = sharedCache;
        this.uri = uri;
        this.probe = probe;
        this.opener = opener;
        this.maxStaleness = maxStaleness;
        this.timeout = timeout;
        long started = System.nanoTime();
        // Probed before the reader opens: the reader sees at least this version, so a later probe that finds the same
        // version proves the reader current.
        StoreVersion version = probe.read();
        this.current = new Generation(opener.get(), version);
        this.checkedAtNanos = started;
        this.generationsOpened = 1;
    }

    /** The current generation, without checking the store. */
    synchronized Generation current()
    {
        return current;
    }

    /** The current generation, held until {@link #release}. */
    synchronized Generation acquire()
    {
        current.users++;
        return current;
    }

    synchronized void release(Generation generation)
    {
        generation.users--;
        closeUnused(false);
    }

    /**
     * Makes the current generation see every commit acknowledged before this call began, unless the last check began
     * less than the maximum staleness ago: checks the store and opens a new generation when it changed.
     */
    void catchUp()
    {
        catchUp(false);
    }

    /** {@link #catchUp()} whatever the maximum staleness (a snapshot id from elsewhere proves the store moved on). */
    void catchUpNow()
    {
        catchUp(true);
    }

    /**
     * After a read on a generation found a file gone: makes the current generation one that a check begun now found
     * up to date. The compaction that replaced the file wrote a newer manifest before the garbage collector deleted
     * it, so a generation that read a missing file is never found up to date by such a check.
     */
    void catchUpAfterMissingObject()
    {
        catchUp(true, System.nanoTime());
    }

    private void catchUp(boolean whateverStaleness)
    {
        catchUp(whateverStaleness, System.nanoTime());
    }

    private void catchUp(boolean whateverStaleness, long started)
    {
        // One check at a time; reads meanwhile go on on the current generation (this object's lock is not held).
        synchronized (checkLock) {
            StoreVersion known;
            synchronized (this) {
                if (closed) {
                    return;
                }
                // A check that began after this call did serves it too: concurrent queries share one.
                if (checkedAtNanos - started >= 0) {
                    return;
                }
                if (!whateverStaleness && started - checkedAtNanos < maxStaleness.toNanos()) {
                    return;
                }
                checks++;
                known = current.version;
            }
            long checking = System.nanoTime();
            StoreVersion now = probe.readAfter(known);
            Generation fresh = now.equals(known) ? null : new Generation(opener.get(), now);
            synchronized (this) {
                if (fresh != null) {
                    if (closed) {
                        shutdown(fresh.reader);
                        return;
                    }
                    generationsOpened++;
                    current.retiredAtNanos = System.nanoTime();
                    retired.add(current);
                    current = fresh;
                }
                checkedAtNanos = checking;
                closeUnused(false);
            }
        }
    }

    /** The generation a snapshot view reads, held until closed; {@link #moveOn()} replaces it with the current one. */
    final class Lease
            implements AutoCloseable
    {
        private Generation generation = acquire();
        private boolean closed;

        synchronized DbReader reader()
        {
            return generation.reader();
        }

        /** After a read found a file gone: holds a generation a check begun now found up to date instead. */
        void moveOn()
        {
            catchUpAfterMissingObject();
            Generation fresh = acquire();
            Generation old;
            synchronized (this) {
                if (closed) {
                    old = fresh;
                }
                else {
                    old = generation;
                    generation = fresh;
                }
            }
            release(old);
        }

        @Override
        public void close()
        {
            Generation held;
            synchronized (this) {
                if (closed) {
                    return;
                }
                closed = true;
                held = generation;
            }
            release(held);
        }
    }

    Lease lease()
    {
        return new Lease();
    }

    /** How many readers were opened and how many checks made (tests and tallies). */
    synchronized long generationsOpened()
    {
        return generationsOpened;
    }

    synchronized long checks()
    {
        return checks;
    }

    private void closeUnused(boolean all)
    {
        long now = System.nanoTime();
        for (Iterator<Generation> iterator = retired.iterator(); iterator.hasNext(); ) {
            Generation generation = iterator.next();
            if (all || generation.users <= 0 && now - generation.retiredAtNanos >= RETIRED_GRACE.toNanos()) {
                iterator.remove();
                shutdown(generation.reader);
            }
        }
    }

    private void shutdown(DbReader reader)
    {
        try (reader) {
            await(reader::shutdown, uri, "closing a replaced reader", timeout);
        }
        catch (RuntimeException e) {
            // It served its reads; nothing is lost with it.
        }
    }

    @Override
    public void close()
    {
        // After any check in flight: it uses the probe.
        synchronized (checkLock) {
            synchronized (this) {
                if (closed) {
                    return;
                }
                closed = true;
                closeUnused(true);
                try (probe) {
                    try (DbReader reader = current.reader) {
                        await(reader::shutdown, uri, "closing the store", timeout);
                    }
                }
                finally {
                    try {
                        sharedCache.close();
                    }
                    catch (Exception e) {
                        // Only native memory is held.
                    }
                }
            }
        }
    }
}
