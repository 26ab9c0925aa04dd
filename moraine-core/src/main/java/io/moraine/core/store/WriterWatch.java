package io.moraine.core.store;

import io.moraine.core.store.StoreProbe.StoreVersion;

import java.time.Duration;

/**
 * On-demand freshness for a HANDOFF writer: whether another process took the store's writer, or committed, since this
 * handle last looked. SlateDB tells a fenced writer only at its next write or its next manifest poll (up to a second),
 * so a query that began after another process's acknowledged commit could otherwise read the old state; a read that
 * begins something asks here first (one LIST of new manifests and a WAL tail probe, as an on-demand reader does).
 */
final class WriterWatch
        implements AutoCloseable
{
    private final StoreProbe probe;
    private final Duration maxStaleness;
    private StoreVersion known;
    private long ownEpoch;
    private long lastCheck;

    WriterWatch(StoreProbe probe, Duration maxStaleness)
    {
        this.probe = probe;
        this.maxStaleness = maxStaleness;
        tookWriter();
    }

    /** Notes that this handle has just opened the writer: the newest manifest's epoch is its own. */
    synchronized void tookWriter()
    {
        known = probe.read();
        ownEpoch = known.writerEpoch();
        lastCheck = System.nanoTime();
    }

    /**
     * Whether another process moved the store since the last look: it took the writer (a newer writer epoch than this
     * handle's) and has written since. False when nothing changed, when only this handle wrote, or when the last look
     * was less than the maximum staleness ago.
     */
    synchronized boolean anotherWriterMoved()
    {
        long now = System.nanoTime();
        if (!maxStaleness.isZero() && now - lastCheck < maxStaleness.toNanos()) {
            return false;
        }
        StoreVersion version = probe.readAfter(known);
        lastCheck = now;
        boolean changed = !version.equals(known);
        known = version;
        return changed && version.writerEpoch() > ownEpoch;
    }

    @Override
    public void close()
    {
        probe.close();
    }
}
