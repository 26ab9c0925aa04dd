package io.moraine.trino;

import com.google.inject.Inject;
import io.trino.filesystem.TrinoFileSystemFactory;
import io.trino.spi.NodeVersion;
import io.trino.spi.connector.ConnectorInsertTableHandle;
import io.trino.spi.connector.ConnectorOutputTableHandle;
import io.trino.spi.connector.ConnectorPageSink;
import io.trino.spi.connector.ConnectorPageSinkId;
import io.trino.spi.connector.ConnectorPageSinkProvider;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTableCredentials;
import io.trino.spi.connector.ConnectorTransactionHandle;

import java.util.Optional;

/** Page sinks of INSERT and CREATE TABLE AS: {@link MoraineWritePageSink}s on the workers. */
public class MoraineWritePageSinkProvider
        implements ConnectorPageSinkProvider
{
    private final TrinoFileSystemFactory fileSystemFactory;
    private final MoraineCatalogHolder catalog;
    private final String trinoVersion;

    @Inject
    public MoraineWritePageSinkProvider(TrinoFileSystemFactory fileSystemFactory, MoraineCatalogHolder catalog, NodeVersion nodeVersion)
    {
        this.fileSystemFactory = fileSystemFactory;
        this.catalog = catalog;
        this.trinoVersion = nodeVersion.toString();
    }

    @Override
    public ConnectorPageSink createPageSink(ConnectorTransactionHandle transactionHandle, ConnectorSession session, ConnectorOutputTableHandle outputTableHandle,
            Optional<ConnectorTableCredentials> tableCredentials, ConnectorPageSinkId pageSinkId)
    {
        return sink(session, (MoraineWritableTableHandle) outputTableHandle);
    }

    @Override
    public ConnectorPageSink createPageSink(ConnectorTransactionHandle transactionHandle, ConnectorSession session, ConnectorInsertTableHandle insertTableHandle,
            Optional<ConnectorTableCredentials> tableCredentials, ConnectorPageSinkId pageSinkId)
    {
        return sink(session, (MoraineWritableTableHandle) insertTableHandle);
    }

    @Override
    public io.trino.spi.connector.ConnectorMergeSink createMergeSink(ConnectorTransactionHandle transactionHandle, ConnectorSession session,
            io.trino.spi.connector.ConnectorMergeTableHandle mergeHandle, Optional<ConnectorTableCredentials> tableCredentials, ConnectorPageSinkId pageSinkId)
    {
        MoraineWritableTableHandle table = ((MoraineMergeTableHandle) mergeHandle).write();
        return new MoraineMergeSink(table.columnIds().size(), sink(session, table),
                new MoraineWritePageSink(table, fileSystemFactory.create(session), catalog.newAllocator("update " + table.name()), trinoVersion, true));
    }

    private MoraineWritePageSink sink(ConnectorSession session, MoraineWritableTableHandle table)
    {
        return new MoraineWritePageSink(table, fileSystemFactory.create(session), catalog.newAllocator("write " + table.name()), trinoVersion);
    }
}
