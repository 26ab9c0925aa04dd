package io.moraine.launchers.trino;

import io.moraine.cli.CommandLine;
import io.moraine.cli.HostedCommands;
import io.moraine.core.store.StoreUri;

import java.util.Set;

/** {@code bin/moraine trino} and {@code bin/moraine trino-query}. */
public final class TrinoCommands
{
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
            throw new IllegalArgumentException("give exactly one SQL statement, quoted: " + HostedCommands.TRINO_QUERY_USAGE);
        }
        try (TrinoServerProcess trino = TrinoServerProcess.start(StoreUri.parse(line.required("store")), 0, line.storeOptions().timeout())) {
            System.out.print(trino.queryCsv(line.positional().getFirst()));
        }
    }
}
