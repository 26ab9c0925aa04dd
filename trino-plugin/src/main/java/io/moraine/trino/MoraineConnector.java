package io.moraine.trino;

import com.google.inject.Inject;
import io.airlift.bootstrap.LifeCycleManager;
import io.trino.spi.connector.Connector;
import io.trino.spi.connector.ConnectorMetadata;
import io.trino.filesystem.TrinoFileSystemFactory;
import io.trino.spi.connector.ConnectorPageSinkProvider;
import io.trino.spi.connector.ConnectorPageSourceProvider;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplitManager;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.transaction.IsolationLevel;

import java.util.Optional;

/** A Trino connector over a moraine catalog: reads, and (unless moraine.read-only) DDL, INSERT and CREATE TABLE AS through the core's write API. */
public class MoraineConnector
        implements Connector
{
    private final MoraineCatalogHolder catalog;
    private final MoraineConfig config;
    private final MoraineSplitManager splitManager;
    private final MorainePageSourceProvider pageSourceProvider;
    private final MoraineTableColumns tableColumns;
    private final LifeCycleManager lifeCycleManager;
    private final MoraineTypes types;
    private final TrinoFileSystemFactory fileSystemFactory;
    private final MoraineWritePageSinkProvider pageSinkProvider;

    @Inject
    public MoraineConnector(LifeCycleManager lifeCycleManager, MoraineCatalogHolder catalog, MoraineConfig config,
            MoraineSplitManager splitManager, MorainePageSourceProvider pageSourceProvider, MoraineTableColumns tableColumns, MoraineTypes types,
            TrinoFileSystemFactory fileSystemFactory, MoraineWritePageSinkProvider pageSinkProvider)
    {
        this.types = types;
        this.fileSystemFactory = fileSystemFactory;
        this.pageSinkProvider = pageSinkProvider;
        this.lifeCycleManager = lifeCycleManager;
        this.tableColumns = tableColumns;
        this.catalog = catalog;
        this.config = config;
        this.splitManager = splitManager;
        this.pageSourceProvider = pageSourceProvider;
    }

    @Override
    public ConnectorTransactionHandle beginTransaction(IsolationLevel isolationLevel, boolean readOnly, boolean autoCommit)
    {
        return MoraineTransactionHandle.INSTANCE;
    }

    @Override
    public ConnectorMetadata getMetadata(ConnectorSession session, ConnectorTransactionHandle transaction)
    {
        return new MoraineMetadata(catalog.catalog(), tableColumns, config.getDefaultSnapshotId(), config.getDefaultSnapshotTimestamp(),
                Optional.of(new LakeWrites(catalog, types, fileSystemFactory)));
    }

    /** {@code CALL system.add_files(...)}. */
    @Override
    public java.util.Set<io.trino.spi.procedure.Procedure> getProcedures()
    {
        return java.util.Set.of(new AddFilesProcedure(catalog, fileSystemFactory).procedure());
    }

    /** {@code ALTER TABLE ... EXECUTE} flush_inlined_data, merge_adjacent_files, rewrite_data_files, expire_snapshots, cleanup_old_files, remove_orphan_files. */
    @Override
    public java.util.Set<io.trino.spi.connector.TableProcedureMetadata> getTableProcedures()
    {
        return TableProcedure.metadata();
    }

    @Override
    public ConnectorPageSinkProvider getPageSinkProvider()
    {
        return pageSinkProvider;
    }

    @Override
    public java.util.List<io.trino.spi.session.PropertyMetadata<?>> getTableProperties()
    {
        return MoraineTableProperties.properties();
    }

    /** The change-feed functions {@code system.table_changes}, {@code table_insertions} and {@code table_deletions}. */
    @Override
    public java.util.Set<io.trino.spi.function.table.ConnectorTableFunction> getTableFunctions()
    {
        java.util.Set<io.trino.spi.function.table.ConnectorTableFunction> functions = new java.util.LinkedHashSet<>();
        for (ChangeFeedOutput output : ChangeFeedOutput.values()) {
            functions.add(new ChangeFeedFunction(output, catalog::catalog, tableColumns,
                    session -> new MoraineMetadata(catalog.catalog(), tableColumns, config.getDefaultSnapshotId(), config.getDefaultSnapshotTimestamp())
                            .defaultSnapshot(session)));
        }
        return functions;
    }

    @Override
    public ConnectorSplitManager getSplitManager()
    {
        return splitManager;
    }

    @Override
    public java.util.List<io.trino.spi.session.PropertyMetadata<?>> getSessionProperties()
    {
        return MoraineSessionProperties.properties(config);
    }

    @Override
    public void shutdown()
    {
        // Stops every bound object: the split planning threads, then the catalog and its allocator.
        lifeCycleManager.stop();
    }

    @Override
    public ConnectorPageSourceProvider getPageSourceProvider()
    {
        return pageSourceProvider;
    }
}
