package io.moraine.trino;

import com.google.inject.Injector;
import io.airlift.bootstrap.Bootstrap;
import io.airlift.json.JsonModule;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Tracer;
import io.trino.filesystem.manager.FileSystemModule;
import io.trino.spi.NodeManager;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.Connector;
import io.trino.spi.connector.ConnectorContext;
import io.trino.spi.connector.ConnectorFactory;
import io.trino.spi.type.TypeManager;

import java.util.HashMap;
import java.util.Map;

import static io.trino.spi.StandardErrorCode.CONFIGURATION_INVALID;

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
                new FileSystemModule(catalogName, context, false),
                binder -> {
                    binder.bind(TypeManager.class).toInstance(context.getTypeManager());
                    binder.bind(io.trino.spi.NodeVersion.class).toInstance(new io.trino.spi.NodeVersion(context.getCurrentNode().getVersion()));
                    binder.bind(OpenTelemetry.class).toInstance(context.getOpenTelemetry());
                    binder.bind(Tracer.class).toInstance(context.getTracer());
                    binder.bind(NodeManager.class).toInstance(context.getNodeManager());
                });
        Injector injector = app
                .doNotInitializeLogging()
                .disableSystemProperties()
                .setRequiredConfigurationProperties(withFileSystemDefaults(config))
                .initialize();
        return injector.getInstance(MoraineConnector.class);
    }

    /**
     * DuckLake lakes usually live on local disk: Trino's local file system is on unless the catalog says otherwise, rooted
     * at {@code /} so the absolute paths DuckLake records resolve as they are.
     */
    static Map<String, String> withFileSystemDefaults(Map<String, String> config)
    {
        if ("true".equalsIgnoreCase(config.getOrDefault("fs.cache.enabled", "false").trim())) {
            // The plugin directory leaves out Trino's Alluxio cache and its 59 jars (see trino-plugin/pom.xml).
            throw new TrinoException(CONFIGURATION_INVALID, "fs.cache.enabled=true is not supported by the moraine connector: "
                    + "remove it from the catalog's properties (the plugin does not ship Trino's Alluxio file-system cache)");
        }
        Map<String, String> effective = new HashMap<>(config);
        effective.putIfAbsent("fs.local.enabled", "true");
        if ("true".equals(effective.get("fs.local.enabled"))) {
            effective.putIfAbsent("local.location", "/");
        }
        return effective;
    }
}
