package io.moraine.launchers.trino;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A Trino installation's {@code etc/} and {@code plugin/} for one server (a single node, or a cluster's coordinator or
 * worker, all on loopback), as Trino's documentation lays
 * them out: {@code etc/config.properties}, {@code etc/node.properties}, {@code etc/jvm.config},
 * {@code etc/log.properties}, {@code etc/catalog/lake.properties}, and {@code plugin/moraine} linking to the build's
 * plugin directory.
 */
record TrinoEtc(Path home, int port, List<String> jvmOptions, Map<String, String> nodeProperties)
{
    /** Trino's own recommended JVM settings (its jvm.config), with a heap sized for a laptop. */
    static List<String> jvmConfig(String heap)
    {
        return List.of(
                "-Xmx" + heap,
                "-XX:+UseG1GC",
                "-XX:+ExitOnOutOfMemoryError",
                "-XX:+UnlockDiagnosticVMOptions",
                "-Djdk.attach.allowAttachSelf=true",
                "--add-modules=jdk.incubator.vector",
                "--enable-native-access=ALL-UNNAMED",
                "--sun-misc-unsafe-memory-access=allow",
                // Arrow (the plugin's inlined rows) reads direct buffers' addresses.
                "--add-opens=java.base/java.nio=ALL-UNNAMED",
                "-Duser.timezone=UTC",
                "-Dfile.encoding=UTF-8");
    }

    /**
     * How a server takes part: a single node (coordinator that also runs tasks), a cluster's coordinator (schedules
     * tasks on workers only), or a worker announcing itself to the coordinator on {@code coordinatorPort}.
     */
    record Role(boolean coordinator, boolean runsTasksOnCoordinator, int coordinatorPort)
    {
        static final Role SINGLE_NODE = new Role(true, true, -1);
        static final Role CLUSTER_COORDINATOR = new Role(true, false, -1);

        static Role workerOf(int coordinatorPort)
        {
            return new Role(false, false, coordinatorPort);
        }
    }

    static TrinoEtc write(Path home, int port, Path pluginDirectory, Map<String, String> catalog, String heap)
            throws IOException
    {
        return write(home, port, pluginDirectory, catalog, heap, Role.SINGLE_NODE);
    }

    static TrinoEtc write(Path home, int port, Path pluginDirectory, Map<String, String> catalog, String heap, Role role)
            throws IOException
    {
        Path etc = Files.createDirectories(home.resolve("etc"));
        Path plugins = Files.createDirectories(home.resolve("plugin"));
        Files.createSymbolicLink(plugins.resolve("moraine"), pluginDirectory);
        Map<String, String> node = new LinkedHashMap<>();
        node.put("node.environment", "moraine");
        node.put("node.data-dir", Files.createDirectories(home.resolve("data")).toString());
        // A single node on this machine: it announces itself on loopback, not on the host's network address.
        node.put("node.internal-address", "127.0.0.1");
        Map<String, String> config = new LinkedHashMap<>();
        config.put("coordinator", Boolean.toString(role.coordinator()));
        if (role.coordinator()) {
            config.put("node-scheduler.include-coordinator", Boolean.toString(role.runsTasksOnCoordinator()));
        }
        config.put("http-server.http.port", Integer.toString(port));
        config.put("discovery.uri", "http://127.0.0.1:" + (role.coordinator() ? port : role.coordinatorPort()));
        config.put("plugin.dir", plugins.toString());
        config.put("catalog.config-dir", Files.createDirectories(etc.resolve("catalog")).toString());
        List<String> jvm = jvmConfig(heap);
        write(etc.resolve("config.properties"), config);
        write(etc.resolve("node.properties"), node);
        write(etc.resolve("log.properties"), Map.of("io.trino", "INFO"));
        Files.write(etc.resolve("jvm.config"), jvm);
        write(etc.resolve("catalog/lake.properties"), catalog);
        return new TrinoEtc(home, port, jvm, node);
    }

    Path configFile()
    {
        return home.resolve("etc/config.properties");
    }

    Path logLevelsFile()
    {
        return home.resolve("etc/log.properties");
    }

    Path serverLog()
    {
        return home.resolve("server.log");
    }

    private static void write(Path file, Map<String, String> properties)
            throws IOException
    {
        Files.writeString(file, properties.entrySet().stream().map(entry -> entry.getKey() + "=" + entry.getValue().replace("\\", "\\\\")).collect(Collectors.joining("\n", "", "\n")));
    }
}
