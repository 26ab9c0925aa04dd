package io.moraine.sidecars.rowsum;

import io.moraine.core.io.LakeFileSystem;
import io.moraine.core.scan.RowIdMembership;

/**
 * What an engine hands its planner for {@code $row_id} / {@code _row_id} predicates: one membership cache and one set of
 * metrics per process (or catalog), and for each planning a lookup over that planning's file system. Misses are not
 * derived at planning (the planner would read whole row-id columns); such files are kept and ruled out by their
 * readers, as without sidecars. A cache of zero bytes turns the lookups off.
 */
public final class RowSummaryLookups
{
    /** The membership cache's default bound (the Trino connector's {@code moraine.row-summaries.cache-size} default too). */
    public static final long DEFAULT_CACHE_BYTES = 64L * 1024 * 1024;

    private final RowSummaryCache cache;
    private final RowSummaryMetrics metrics = new RowSummaryMetrics();
    private final boolean enabled;

    public RowSummaryLookups(long cacheBytes)
    {
        if (cacheBytes < 0) {
            throw new IllegalArgumentException("the row summary cache size must be zero (off) or positive, was " + cacheBytes);
        }
        this.enabled = cacheBytes > 0;
        this.cache = new RowSummaryCache(cacheBytes, 0);
    }

    /** The membership planning asks through {@code files}; {@link RowIdMembership#unknown()} when lookups are off. */
    public RowIdMembership membership(LakeFileSystem files)
    {
        if (!enabled) {
            return RowIdMembership.unknown();
        }
        return new RowIdLookup(files, new RowSummaryReader(files, metrics), cache, false);
    }

    public RowSummaryMetrics metrics()
    {
        return metrics;
    }
}
