package io.moraine.trino;

import com.google.inject.Inject;
import io.moraine.core.scan.RowIdMembership;
import io.moraine.files.TrinoLakeFileSystem;
import io.moraine.sidecars.rowsum.RowSummaryLookups;
import io.moraine.sidecars.rowsum.RowSummaryMetrics;
import io.trino.filesystem.TrinoFileSystemFactory;
import io.trino.spi.connector.ConnectorSession;

/** The catalog's published row summaries ({@link RowSummaryLookups}), each query's planning reading through its own file system. */
public class RowSummaries
{
    private final TrinoFileSystemFactory fileSystemFactory;
    private final RowSummaryLookups lookups;

    @Inject
    public RowSummaries(TrinoFileSystemFactory fileSystemFactory, MoraineConfig config)
    {
        this.fileSystemFactory = fileSystemFactory;
        this.lookups = new RowSummaryLookups(config.getRowSummaryCacheSize().toBytes());
    }

    RowIdMembership membership(ConnectorSession session)
    {
        return lookups.membership(new TrinoLakeFileSystem(fileSystemFactory.create(session)));
    }

    public RowSummaryMetrics metrics()
    {
        return lookups.metrics();
    }
}
