package io.moraine.trino;

import com.google.inject.Injector;
import io.airlift.bootstrap.Bootstrap;
import io.airlift.json.JsonModule;
import io.trino.spi.connector.Connector;
import io.trino.spi.connector.ConnectorContext;
import io.trino.spi.connector.ConnectorFactory;
import io.trino.spi.type.TypeManager;

import java.util.Map;

/** Creates moraine connectors from catalog properties, wiring them with Guice as Trino's own connectors do. */
public class MoraineConnectorFactory
        implements ConnectorFactory
{
    @Override
    public String getName()
    {
        return "moraine";
    }

    @Override
    public Connector create(String catalogName, Map<String, String> config, ConnectorContext context)
    {
        Bootstrap app = new Bootstrap(
                "io.trino.bootstrap.catalog." + catalogName,
                new JsonModule(),
                new MoraineModule(),
                binder -> binder.bind(TypeManager.class).toInstance(context.getTypeManager()));
        Injector injector = app
                .doNotInitializeLogging()
                .disableSystemProperties()
                .setRequiredConfigurationProperties(config)
                .initialize();
        return injector.getInstance(MoraineConnector.class);
    }
}
