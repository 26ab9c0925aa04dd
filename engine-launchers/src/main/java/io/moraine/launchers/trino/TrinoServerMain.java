package io.moraine.launchers.trino;

import io.trino.server.Server;

/**
 * The main class of the child JVM {@link TrinoServerProcess} starts: Trino's own server, as Trino's launcher runs it
 * ({@code trino-server-main}'s {@code TrinoServer} is not published to Maven Central, so this is its one-line equivalent).
 * It reads {@code -Dconfig} and the {@code node.*} system properties, and loads plugins from {@code plugin.dir} only.
 */
public final class TrinoServerMain
{
    private TrinoServerMain() {}

    public static void main(String[] args)
    {
        String version = Server.class.getPackage().getImplementationVersion();
        new Server().start(version == null ? "unknown" : version);
    }
}
