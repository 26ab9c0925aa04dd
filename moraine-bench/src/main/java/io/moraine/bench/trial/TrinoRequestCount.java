package io.moraine.bench.trial;

import io.moraine.cli.CommandLine;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreOptions;
import io.moraine.trino.MorainePlugin;
import io.trino.Session;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedResult;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.trino.testing.TestingSession.testSession;

/**
 * {@code bin/moraine trial trino-requests}: the object-store requests of a Trino {@code count(*)} on a catalog on S3
 * (S3Proxy, data files local), counted by a {@link FaultProxy} injecting nothing: Trino's start with the catalog, the
 * first query of the fresh process, a warm repeat, and an idle stretch (background requests, none with the default
 * on-demand freshness; docs/freshness.md).
 */
public final class TrinoRequestCount
{
    public static final String USAGE = "trial trino-requests [--commits N] [--reader-freshness on-demand|poll] [--max-staleness <duration>] "
            + "[--poll-interval <duration>] [--idle-seconds N] [--work <dir>]";
    private static final String QUERY = "SELECT count(*) FROM lake.main.t";

    private TrinoRequestCount() {}

    static void run(CommandLine line, PrintStream out)
            throws Exception
    {
        int commits = line.intOption("commits", 25);
        String pollInterval = line.option("poll-interval").orElse(StoreOptions.DEFAULTS.manifestPollInterval().toMillis() + "ms");
        io.moraine.core.store.StoreTimeouts.parse("--poll-interval", pollInterval);
        String freshness = line.option("reader-freshness").orElse("on-demand");
        String maxStaleness = line.option("max-staleness").orElse("0s");
        io.moraine.core.store.ReaderFreshness.parse(freshness, maxStaleness, "--reader-freshness", "--max-staleness");
        int idleSeconds = line.intOption("idle-seconds", 10);
        Path work = line.option("work").map(Path::of).orElse(Files.createTempDirectory("moraine-trino-requests-"));
        Files.createDirectories(work);
        try (TrialStore store = TrialStore.s3(work); FaultProxy counter = new FaultProxy(store.port(), 0, 0, Duration.ZERO, Duration.ZERO)) {
            Path data = Files.createDirectories(work.resolve("data"));
            Files.createDirectories(data.resolve("main/t"));
            StoreOptions options = TrialStore.options(store.uri(), Duration.ofSeconds(60), store.endpoint());
            TrialTable.create(store.uri(), options.withCreateIfMissing(), data + "/");
            try (MoraineCatalog catalog = MoraineCatalog.open(store.uri(), OpenMode.READ_WRITE, options)) {
                TrialChild.populate(catalog, data + "/", work.resolve("populate.log"), commits);
            }
            ProcessBuilder builder = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"),
                    "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow", "--add-opens=java.base/java.nio=ALL-UNNAMED",
                    "--add-modules=jdk.incubator.vector", "-Duser.timezone=UTC", "-Xmx2g", "-cp", System.getProperty("java.class.path"), TrinoRequestCount.class.getName(), store.uri().toString(), pollInterval, freshness, maxStaleness)
                    .redirectError(work.resolve("trino.stderr").toFile());
            builder.environment().putAll(Map.of("AWS_ENDPOINT", counter.endpoint(), "AWS_ALLOW_HTTP", "true", "AWS_REGION", "us-east-1",
                    "AWS_ACCESS_KEY_ID", TrialStore.ACCESS_KEY, "AWS_SECRET_ACCESS_KEY", TrialStore.SECRET_KEY, "AWS_VIRTUAL_HOSTED_STYLE_REQUEST", "false"));
            counter.resetCounts();
            Process trino = builder.start();
            try {
                BufferedReader lines = new BufferedReader(new InputStreamReader(trino.getInputStream(), StandardCharsets.UTF_8));
                OutputStream commands = trino.getOutputStream();
                expect(lines, "READY", work);
                Map<String, Long> startup = counter.requestCounts();
                Map<String, Long> startupAreas = counter.requestCountsByArea();
                counter.resetCounts();
                long coldStarted = System.nanoTime();
                String first = step(lines, commands, work);
                Map<String, Long> cold = counter.requestCounts();
                Map<String, Long> coldAreas = counter.requestCountsByArea();
                double coldSeconds = (System.nanoTime() - coldStarted) / 1e9;
                counter.resetCounts();
                long warmStarted = System.nanoTime();
                String second = step(lines, commands, work);
                Map<String, Long> warm = counter.requestCounts();
                Map<String, Long> warmAreas = counter.requestCountsByArea();
                double warmSeconds = (System.nanoTime() - warmStarted) / 1e9;
                counter.resetCounts();
                Thread.sleep(idleSeconds * 1000L);
                Map<String, Long> idle = counter.requestCounts();
                Map<String, Long> idleAreas = counter.requestCountsByArea();
                out.printf("Trino count(*) on a catalog on S3 (S3Proxy; %d Parquet files and %d inlined commits, %s rows; moraine.reader-freshness=%s, "
                        + "moraine.max-staleness=%s, moraine.store-poll-interval=%s): object-store requests by kind%n", commits, commits, first, freshness,
                        maxStaleness, pollInterval);
                out.println("  Trino start with the catalog: " + describe(startup) + "; by store area " + startupAreas);
                out.printf("  first count(*) (fresh process): %s in %.2f s%n", describe(cold), coldSeconds);
                out.println("      by store area " + coldAreas);
                out.printf("  warm repeat: %s in %.2f s (answer %s)%n", describe(warm), warmSeconds, second);
                out.println("      by store area " + warmAreas);
                long idleTotal = idle.values().stream().mapToLong(Long::longValue).sum();
                out.printf("  idle %d s after it: %s (%.1f requests/s, %,.0f an hour); by store area %s%n", idleSeconds, describe(idle),
                        idleTotal / (double) idleSeconds, idleTotal * 3600.0 / idleSeconds, idleAreas);
                out.printf("  first ÷ warm time: %.1fx%n", coldSeconds / warmSeconds);
                commands.write("quit\n".getBytes(StandardCharsets.UTF_8));
                commands.flush();
            }
            finally {
                trino.destroyForcibly();
                trino.waitFor();
            }
        }
    }

    private static String describe(Map<String, Long> counts)
    {
        long total = counts.values().stream().mapToLong(Long::longValue).sum();
        return total + " " + counts;
    }

    private static String step(BufferedReader lines, OutputStream commands, Path work)
            throws Exception
    {
        commands.write("go\n".getBytes(StandardCharsets.UTF_8));
        commands.flush();
        return expect(lines, "RESULT ", work).substring("RESULT ".length());
    }

    private static String expect(BufferedReader lines, String prefix, Path work)
            throws Exception
    {
        for (String line = lines.readLine(); line != null; line = lines.readLine()) {
            if (line.startsWith(prefix)) {
                return line;
            }
        }
        throw new IllegalStateException("the Trino process ended before printing " + prefix.trim() + "; see " + work.resolve("trino.stderr"));
    }

    /**
     * The Trino process: its store settings come from the AWS_* environment, pointed at the counting proxy. Args: the store
     * uri, the poll interval, the reader freshness, the maximum staleness.
     */
    public static void main(String[] args)
            throws Exception
    {
        PrintStream out = System.out;
        System.setOut(System.err);
        Session session = Session.builder(testSession()).setCatalog("lake").setSchema("main").build();
        try (DistributedQueryRunner trino = DistributedQueryRunner.builder(session).setWorkerCount(0).build()) {
            trino.installPlugin(new MorainePlugin());
            trino.createCatalog("lake", "moraine", Map.of("moraine.store-uri", args[0], "moraine.store-poll-interval", args[1],
                    "moraine.reader-freshness", args[2], "moraine.max-staleness", args[3]));
            out.println("READY");
            out.flush();
            BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String command = commands.readLine(); command != null && command.equals("go"); command = commands.readLine()) {
                MaterializedResult result = trino.execute(QUERY);
                out.println("RESULT " + result.getOnlyValue());
                out.flush();
            }
        }
    }
}
