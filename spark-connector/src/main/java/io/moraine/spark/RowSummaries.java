package io.moraine.spark;

import io.moraine.core.scan.RowIdMembership;
import io.moraine.sidecars.rowsum.RowSummaryLookups;
import io.moraine.sidecars.rowsum.RowSummaryMetrics;
import org.apache.hadoop.conf.Configuration;

/**
 * The driver's published row summaries ({@link RowSummaryLookups}): one membership cache for every scan of this JVM,
 * read through the scan's Hadoop configuration. Data files are immutable, so the cache needs no invalidation.
 */
final class RowSummaries
{
    private static final RowSummaryLookups LOOKUPS = new RowSummaryLookups(RowSummaryLookups.DEFAULT_CACHE_BYTES);

    private RowSummaries() {}

    static RowIdMembership membership(Configuration hadoop)
    {
        return LOOKUPS.membership(new HadoopLakeFileSystem(hadoop));
    }

    static RowSummaryMetrics metrics()
    {
        return LOOKUPS.metrics();
    }
}
