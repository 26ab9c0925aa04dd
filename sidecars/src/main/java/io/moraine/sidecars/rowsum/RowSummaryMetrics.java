package io.moraine.sidecars.rowsum;

import java.util.concurrent.atomic.LongAdder;

/**
 * What the sidecar read path did, so a deployment can tell "none published yet" (misses) from "published and refused"
 * (rejections). Shared by every reader of a process; thread-safe.
 */
public final class RowSummaryMetrics
{
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder rejectedIdentity = new LongAdder();
    private final LongAdder rejectedVersion = new LongAdder();
    private final LongAdder rejectedCorrupt = new LongAdder();
    private final LongAdder readErrors = new LongAdder();
    private final LongAdder orderReads = new LongAdder();
    private final LongAdder bytesRead = new LongAdder();

    public record Snapshot(long hits, long misses, long rejectedIdentity, long rejectedVersion, long rejectedCorrupt,
            long readErrors, long orderReads, long bytesRead)
    {
        public long rejected()
        {
            return rejectedIdentity + rejectedVersion + rejectedCorrupt + readErrors;
        }
    }

    public Snapshot snapshot()
    {
        return new Snapshot(hits.sum(), misses.sum(), rejectedIdentity.sum(), rejectedVersion.sum(), rejectedCorrupt.sum(),
                readErrors.sum(), orderReads.sum(), bytesRead.sum());
    }

    void hit()
    {
        hits.increment();
    }

    void miss()
    {
        misses.increment();
    }

    void rejectedIdentity()
    {
        rejectedIdentity.increment();
    }

    void rejected(RowSummaryFormatException.Kind kind)
    {
        switch (kind) {
            case UNKNOWN_VERSION -> rejectedVersion.increment();
            case SHORT_READ, CORRUPT -> rejectedCorrupt.increment();
        }
    }

    void readError()
    {
        readErrors.increment();
    }

    void orderRead()
    {
        orderReads.increment();
    }

    void bytesRead(long bytes)
    {
        bytesRead.add(bytes);
    }
}
