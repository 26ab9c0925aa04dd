package io.moraine.trino;

import com.google.inject.Inject;
import io.moraine.core.scan.RowIdMembership;
import io.moraine.files.TrinoLakeFileSystem;
import io.moraine.sidecars.rowsum.RowIdLookup;
import io.moraine.sidecars.rowsum.RowSummaryCache;
import io.moraine.sidecars.rowsum.RowSummaryMetrics;
import io.moraine.sidecars.rowsum.RowSummaryReader;
import io.trino.filesystem.TrinoFileSystemFactory;
import io.trino.spi.connector.ConnectorSession;

/**
 * The connector's published row summaries: one membership cache and one set of metrics per catalog, and for each
 * query's planning a lookup over that query's file system. Misses are not derived at planning (the coordinator would
 * read whole row-id columns); such files are kept and their split rules them out by footer, as without sidecars.
 */
public class RowSummaries
{
    private final TrinoFileSystemFactory fileSystemFactory;
    private final RowSummaryCache cache;
    private final RowSummaryMetrics metrics = new RowSummaryMetrics();
    private final boolean enabled;

    @Inject
    public RowSummaries(TrinoFileSystemFactory fileSystemFactory, MoraineConfig config)
    {
        this.fileSystemFactory = fileSystemFactory;
        long bytes = config.getRowSummaryCacheSize().toBytes();
        this.enabled = bytes > 0;
        this.cache = new RowSummaryCache(bytes, 0);
    }

    RowIdMembership membership(ConnectorSession session)
    {
        if (!enabled) {
            return RowIdMembership.unknown();
        }
        TrinoLakeFileSystem files = new TrinoLakeFileSystem(fileSystemFactory.create(session));
        return new RowIdLookup(files, new RowSummaryReader(files, metrics), cache, false);
    }

    public RowSummaryMetrics metrics()
    {
        return metrics;
    }
}
