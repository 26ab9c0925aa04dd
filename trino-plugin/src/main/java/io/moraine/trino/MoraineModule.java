package io.moraine.trino;

import com.google.inject.Binder;
import com.google.inject.Module;
import com.google.inject.Scopes;

import static io.airlift.configuration.ConfigBinder.configBinder;

/** Guice wiring of the moraine connector. */
public class MoraineModule
        implements Module
{
    @Override
    public void configure(Binder binder)
    {
        configBinder(binder).bindConfig(MoraineConfig.class);
        binder.bind(MoraineCatalogHolder.class).in(Scopes.SINGLETON);
        binder.bind(MoraineTypes.class).in(Scopes.SINGLETON);
        binder.bind(MoraineTableColumns.class).in(Scopes.SINGLETON);
        binder.bind(MoraineConnector.class).in(Scopes.SINGLETON);
        binder.bind(MoraineSplitManager.class).in(Scopes.SINGLETON);
        binder.bind(MorainePageSourceProvider.class).in(Scopes.SINGLETON);
        binder.bind(MoraineWritePageSinkProvider.class).in(Scopes.SINGLETON);
        binder.bind(ChangeFeedSplits.class).in(Scopes.SINGLETON);
        binder.bind(RowSummaries.class).in(Scopes.SINGLETON);
    }
}
