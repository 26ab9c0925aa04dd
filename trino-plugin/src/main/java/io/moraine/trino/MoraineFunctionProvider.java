package io.moraine.trino;

import com.google.inject.Inject;
import io.moraine.files.TrinoLakeFileSystem;
import io.trino.filesystem.TrinoFileSystemFactory;
import io.trino.parquet.ParquetReaderOptions;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.ConnectorTableCredentials;
import io.trino.spi.function.FunctionProvider;
import io.trino.spi.function.table.ConnectorTableFunctionHandle;
import io.trino.spi.function.table.TableFunctionProcessorProvider;
import io.trino.spi.function.table.TableFunctionProcessorProviderFactory;
import io.trino.spi.function.table.TableFunctionSplitProcessor;

import java.util.Optional;

/** Runs the connector's table functions on the workers: the change-feed functions, one {@link ChangeFeedProcessor} per split. */
public class MoraineFunctionProvider
        implements FunctionProvider
{
    private final MoraineCatalogHolder catalog;
    private final MoraineTableColumns tableColumns;
    private final TrinoFileSystemFactory fileSystemFactory;
    private final ParquetReaderOptions parquetOptions = ParquetReaderOptions.defaultOptions();

    @Inject
    public MoraineFunctionProvider(MoraineCatalogHolder catalog, MoraineTableColumns tableColumns, TrinoFileSystemFactory fileSystemFactory)
    {
        this.catalog = catalog;
        this.tableColumns = tableColumns;
        this.fileSystemFactory = fileSystemFactory;
    }

    @Override
    public TableFunctionProcessorProviderFactory getTableFunctionProcessorProviderFactory(ConnectorTableFunctionHandle functionHandle)
    {
        if (!(functionHandle instanceof ChangeFeedFunctionHandle)) {
            throw new UnsupportedOperationException("moraine has no table function with handle " + functionHandle);
        }
        return () -> new TableFunctionProcessorProvider()
        {
            @Override
            public TableFunctionSplitProcessor getSplitProcessor(ConnectorSession session, ConnectorTableFunctionHandle handle,
                    Optional<ConnectorTableCredentials> credentials, ConnectorSplit split)
            {
                ChangeFeedFunctionHandle feed = (ChangeFeedFunctionHandle) handle;
                ChangeRowSources sources = new ChangeRowSources(catalog, tableColumns, feed, new TrinoLakeFileSystem(fileSystemFactory.create(session)),
                        parquetOptions);
                return new ChangeFeedProcessor(feed, ((ChangeFeedSplit) split).group(), sources);
            }
        };
    }
}
