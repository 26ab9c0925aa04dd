package io.moraine.examples.trino;

import io.moraine.core.store.StoreUri;
import io.moraine.examples.CommandLine;

import java.util.Set;

/** {@code bin/moraine trino} and {@code bin/moraine trino-query}. */
public final class TrinoCommands
{
    public static final String SERVE_USAGE = "trino --store <store-uri> [--store-timeout 30s] [--port 8080]";
    public static final String QUERY_USAGE = "trino-query --store <store-uri> [--store-timeout 30s] \"<sql>\"";

    private TrinoCommands() {}

    public static void serve(String[] args)
            throws Exception
    {
        CommandLine line = CommandLine.parse(args, Set.of("store", CommandLine.STORE_TIMEOUT, "port"));
        StoreUri store = StoreUri.parse(line.required("store"));
        System.out.println("Starting Trino's server with the plugin directory " + PluginDirectory.locate() + " ...");
        TrinoServerProcess trino = TrinoServerProcess.start(store, line.intOption("port", 8080), line.storeOptions().timeout());
        System.out.printf("Trino is serving catalog 'lake' on %s (started in %.1f s)%n", store, trino.startupTime().toMillis() / 1000.0);
        System.out.println("connect: " + trino.jdbcUrl() + "   (user: any name; Ctrl-C stops the server)");
        Runtime.getRuntime().addShutdownHook(new Thread(trino::close));
        Thread.currentThread().join();
    }

    public static void query(String[] args)
            throws Exception
    {
        CommandLine line = CommandLine.parse(args, Set.of("store", CommandLine.STORE_TIMEOUT));
        if (line.positional().size() != 1) {
            throw new IllegalArgumentException("give exactly one SQL statement, quoted: " + QUERY_USAGE);
        }
        try (TrinoServerProcess trino = TrinoServerProcess.start(StoreUri.parse(line.required("store")), 0, line.storeOptions().timeout())) {
            System.out.print(trino.queryCsv(line.positional().getFirst()));
        }
    }
}
