package io.moraine.launchers.trino;

import io.moraine.core.store.StoreOptions;
import io.moraine.core.store.StoreUri;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Trino's own server ({@code io.trino.server.Server}) in a child JVM, configured by a generated {@code etc/} directory
 * ({@link TrinoEtc}) with one catalog {@code lake} (connector.name=moraine) on a store, loading the moraine plugin from
 * the build's plugin directory through Trino's plugin class loader, exactly as an installation does. Queries go over
 * HTTP with Trino's JDBC driver.
 */
public final class TrinoServerProcess
        implements AutoCloseable
{
    /**
     * How long the server may take to start: {@code -Dmoraine.trino.startup-timeout} (seconds), 300 by default (it
     * starts in 10-20 s on an idle laptop, minutes on a saturated build machine).
     */
    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(Long.getLong("moraine.trino.startup-timeout", 300));
    private static final Duration PROGRESS_INTERVAL = Duration.ofSeconds(30);
    private static final Pattern STARTED = Pattern.compile("\"starting\"\\s*:\\s*false");

    private final Process process;
    private final TrinoEtc etc;
    private final Duration startupTime;

    private TrinoServerProcess(Process process, TrinoEtc etc, Duration startupTime)
    {
        this.process = process;
        this.etc = etc;
        this.startupTime = startupTime;
    }

    /** A server on {@code port} (0: a free one) whose catalog waits at most the default store timeout. */
    public static TrinoServerProcess start(StoreUri store, int port)
            throws IOException, InterruptedException
    {
        return start(store, port, StoreOptions.DEFAULT_TIMEOUT);
    }

    public static TrinoServerProcess start(StoreUri store, int port, Duration storeTimeout)
            throws IOException, InterruptedException
    {
        return start(store, port, storeTimeout, TrinoEtc.Role.SINGLE_NODE);
    }

    /**
     * A cluster on this machine: a coordinator that schedules no task on itself, and {@code workers} worker processes
     * (each with the plugin directory installed as on the coordinator), returned once every worker is active.
     * The coordinator comes first in the list.
     */
    public static List<TrinoServerProcess> startCluster(StoreUri store, int workers)
            throws IOException, InterruptedException
    {
        return startCluster(store, NodeSettings.NONE, java.util.Collections.nCopies(workers, NodeSettings.NONE));
    }

    /**
     * {@link #startCluster(StoreUri, int)} with settings of each server's own: the coordinator's, then one entry per
     * worker. Every JVM starts at once (a worker announces itself to the coordinator until the coordinator answers).
     */
    public static List<TrinoServerProcess> startCluster(StoreUri store, NodeSettings coordinator, List<NodeSettings> workers)
            throws IOException, InterruptedException
    {
        int coordinatorPort = freePort();
        List<Launched> launched = new ArrayList<>();
        try {
            launched.add(launch(store, coordinatorPort, StoreOptions.DEFAULT_TIMEOUT, TrinoEtc.Role.CLUSTER_COORDINATOR, coordinator));
            for (NodeSettings worker : workers) {
                launched.add(launch(store, freePort(), StoreOptions.DEFAULT_TIMEOUT, TrinoEtc.Role.workerOf(coordinatorPort), worker));
            }
            List<TrinoServerProcess> servers = new ArrayList<>();
            for (Launched server : launched) {
                servers.add(server.awaitStarted());
            }
            servers.getFirst().awaitActiveWorkers(workers.size());
            return servers;
        }
        catch (IOException | InterruptedException | RuntimeException e) {
            launched.forEach(Launched::stop);
            throw e;
        }
    }

    /**
     * What one server is given besides its catalog's store: more properties of its catalog {@code lake} (its file
     * system's, say) and environment variables (its S3 client's, say), which override this process's.
     */
    public record NodeSettings(Map<String, String> catalogProperties, Map<String, String> environment)
    {
        public static final NodeSettings NONE = new NodeSettings(Map.of(), Map.of());
    }

    private static TrinoServerProcess start(StoreUri store, int port, Duration storeTimeout, TrinoEtc.Role role)
            throws IOException, InterruptedException
    {
        return launch(store, port == 0 ? freePort() : port, storeTimeout, role, NodeSettings.NONE).awaitStarted();
    }

    /** A server's JVM, started, not yet known to be serving. */
    private record Launched(Process process, TrinoEtc etc, long startedNanos)
    {
        TrinoServerProcess awaitStarted()
                throws InterruptedException
        {
            try {
                TrinoServerProcess.awaitStarted(process, etc);
            }
            catch (RuntimeException | InterruptedException e) {
                stop();
                throw e;
            }
            return new TrinoServerProcess(process, etc, Duration.ofNanos(System.nanoTime() - startedNanos));
        }

        void stop()
        {
            TrinoServerProcess.stop(process, etc);
        }
    }

    private static Launched launch(StoreUri store, int port, Duration storeTimeout, TrinoEtc.Role role, NodeSettings settings)
            throws IOException
    {
        Path home = Files.createTempDirectory("moraine-trino-");
        Map<String, String> catalog = new java.util.LinkedHashMap<>(Map.of(
                "connector.name", "moraine",
                "moraine.store-uri", store.toString(),
                "moraine.store-timeout", storeTimeout.toMillis() + "ms"));
        catalog.putAll(settings.catalogProperties());
        TrinoEtc etc = TrinoEtc.write(home, port, PluginDirectory.locate(), catalog, System.getProperty("moraine.trino.heap", "2G"), role);
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(etc.jvmOptions());
        etc.nodeProperties().forEach((key, value) -> command.add("-D" + key + "=" + value));
        command.add("-Dconfig=" + etc.configFile());
        command.add("-Dlog.levels-file=" + etc.logLevelsFile());
        command.add("-cp");
        command.add(ServerClassPath.build());
        command.add(TrinoServerMain.class.getName());
        long started = System.nanoTime();
        ProcessBuilder builder = new ProcessBuilder(command).directory(home.toFile());
        // Airlift colors its console log unless told not to; the log is a file here.
        builder.environment().put("NO_COLOR", "1");
        builder.environment().putAll(settings.environment());
        Process process = builder
                .redirectErrorStream(true)
                .redirectOutput(etc.serverLog().toFile())
                .start();
        return new Launched(process, etc, started);
    }

    /** Polls {@code /v1/info} until the server says {@code "starting": false}; fails with the log's tail if it dies or the deadline passes. */
    private static void awaitStarted(Process process, TrinoEtc etc)
            throws InterruptedException
    {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest info = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + etc.port() + "/v1/info")).timeout(Duration.ofSeconds(5)).build();
        long start = System.nanoTime();
        long deadline = start + STARTUP_TIMEOUT.toNanos();
        long nextProgress = start + PROGRESS_INTERVAL.toNanos();
        while (true) {
            if (!process.isAlive()) {
                throw new TrinoServerFailure("the Trino server exited with status " + process.exitValue() + " while starting; " + logTail(etc));
            }
            try {
                HttpResponse<String> response = client.send(info, HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200 && STARTED.matcher(response.body()).find()) {
                    return;
                }
            }
            catch (IOException notListeningYet) {
                // The HTTP server is not up yet.
            }
            if (System.nanoTime() > deadline) {
                throw new TrinoServerFailure("the Trino server did not start within " + STARTUP_TIMEOUT.toSeconds() + "s (-Dmoraine.trino.startup-timeout=<seconds> waits longer); " + logTail(etc));
            }
            if (System.nanoTime() > nextProgress) {
                System.err.printf("   still waiting for Trino's server to start (%d s of at most %d s; its log: %s)%n",
                        Duration.ofNanos(System.nanoTime() - start).toSeconds(), STARTUP_TIMEOUT.toSeconds(), etc.serverLog());
                nextProgress += PROGRESS_INTERVAL.toNanos();
            }
            Thread.sleep(250);
        }
    }

    /** Waits until the coordinator counts {@code workers} active workers (nodes that are not the coordinator). */
    private void awaitActiveWorkers(int workers)
            throws InterruptedException
    {
        long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
        String count = "SELECT count(*) FROM system.runtime.nodes WHERE NOT coordinator AND state = 'active'";
        while (true) {
            try {
                if (queryCsv(count).strip().endsWith("\n" + workers)) {
                    return;
                }
            }
            catch (SQLException notReadyYet) {
                // The coordinator answers queries once it has its catalogs.
            }
            if (System.nanoTime() > deadline) {
                throw new TrinoServerFailure("the coordinator did not see " + workers + " active worker(s) within " + STARTUP_TIMEOUT.toSeconds() + "s; "
                        + logTail(etc));
            }
            Thread.sleep(250);
        }
    }

    /** The server's log file (each server of a cluster has its own). */
    public Path serverLog()
    {
        return etc.serverLog();
    }

    private static String logTail(TrinoEtc etc)
    {
        try {
            List<String> lines = Files.readAllLines(etc.serverLog());
            return "the last lines of its log " + etc.serverLog() + ":\n" + String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        }
        catch (IOException e) {
            return "its log " + etc.serverLog() + " cannot be read: " + e.getMessage();
        }
    }

    public URI baseUri()
    {
        return URI.create("http://127.0.0.1:" + etc.port());
    }

    public String jdbcUrl()
    {
        return "jdbc:trino://127.0.0.1:" + etc.port() + "/lake";
    }

    /** From starting the JVM to {@code /v1/info} answering {@code starting=false}. */
    public Duration startupTime()
    {
        return startupTime;
    }

    /** A JDBC connection to catalog {@code lake}, schema {@code main}. */
    public Connection connect()
            throws SQLException
    {
        return DriverManager.getConnection(jdbcUrl() + "/main", "moraine", null);
    }

    /** Runs one statement that writes (CREATE TABLE AS, INSERT, MERGE, ...) and returns the rows it wrote. */
    public long executeUpdate(String sql)
            throws SQLException
    {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            return statement.executeLargeUpdate(sql);
        }
    }

    /** Runs one statement and returns its result as CSV with a header line. */
    public String queryCsv(String sql)
            throws SQLException
    {
        try (Connection connection = connect(); Statement statement = connection.createStatement(); ResultSet result = statement.executeQuery(sql)) {
            ResultSetMetaData metaData = result.getMetaData();
            List<String> header = new ArrayList<>();
            for (int i = 1; i <= metaData.getColumnCount(); i++) {
                header.add(metaData.getColumnLabel(i));
            }
            StringBuilder csv = new StringBuilder(String.join(",", header)).append('\n');
            while (result.next()) {
                List<String> fields = new ArrayList<>();
                for (int i = 1; i <= header.size(); i++) {
                    fields.add(csvField(result.getObject(i)));
                }
                csv.append(String.join(",", fields)).append('\n');
            }
            return csv.toString();
        }
    }

    private static String csvField(Object value)
    {
        if (value == null) {
            return "";
        }
        String text = value.toString();
        return text.isEmpty() || text.chars().anyMatch(c -> c == ',' || c == '"' || c == '\n') ? '"' + text.replace("\"", "\"\"") + '"' : text;
    }

    private static int freePort()
            throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** Stops the server (SIGTERM, then SIGKILL after 20 s) and removes its generated installation. */
    @Override
    public void close()
    {
        stop(process, etc);
    }

    private static void stop(Process process, TrinoEtc etc)
    {
        process.destroy();
        try {
            if (!process.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        }
        catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        deleteRecursively(etc.home());
    }

    private static void deleteRecursively(Path directory)
    {
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The server did not start; the message carries the end of its log. */
    public static final class TrinoServerFailure
            extends RuntimeException
    {
        TrinoServerFailure(String message)
        {
            super(message);
        }
    }
}
