package io.moraine.bench;

import io.moraine.cli.CommandLine;
import io.moraine.cli.MoraineDuckDb;

import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code bin/moraine bench ducklake}: DuckLake driving four catalogs in one run — moraine on {@code file://}, moraine
 * on S3Proxy, a DuckDB-file catalog and PostgreSQL (a throwaway loopback server from build-support/postgres.sh):
 * (a) one-row inlined INSERT commits per second with 1 and 8 connections of one DuckDB instance, the catalogs taking
 * turns round by round so that a slow moment of a shared machine falls on all of them (each rate the median of
 * {@code --rounds} rounds, with the machine's CPU time per commit; each ratio the median of the rounds' ratios),
 * (b) the time an autocommit {@code EXPLAIN} of a scan takes on a table of N data files (bind and plan in a new
 * DuckLake transaction: catalog reads only, no data file is opened), without and with a filter DuckLake prunes files by.
 */
public final class DuckLakeCommitBenchmark
{

    private static final int CONNECTIONS = 8;
    // moraine's bridge runs in this JVM, and on two cores the JIT compiler takes about a minute of commits to finish it:
    // a catalog serving a lake is a long-running process, so it is measured compiled (see warmUpJit).
    private static final Duration JIT_WARMUP_MINIMUM = Duration.ofSeconds(20);
    private static final Duration JIT_WARMUP_MAXIMUM = Duration.ofMinutes(3);
    private static final Duration JIT_WINDOW = Duration.ofSeconds(5);
    private static final double JIT_BUSY_SHARE = 0.02;

    private DuckLakeCommitBenchmark() {}

    /**
     * A catalog DuckLake attaches: its ATTACH target and the extensions it needs loaded; for moraine, also the ATTACH
     * target of a scratch lake of the same kind that warms the JIT compiler up (null for the others).
     */
    private record Target(String name, String attachTarget, String scanner, String options, String jitWarmupTarget) {}

    private record PlanTimes(double planMillis, double filteredPlanMillis) {}

    public static void main(String[] args)
            throws Exception
    {
        CommandLine line = CommandLine.parse(args, Set.of("commits", "rounds", "warmup-seconds", "files", "repetitions", "skip-s3", "skip-postgres"));
        int commits = line.intOption("commits", 40);
        int rounds = line.intOption("rounds", 5);
        int warmupSeconds = line.intOption("warmup-seconds", 10);
        if (commits < 1 || rounds < 1 || warmupSeconds < 0) {
            throw new IllegalArgumentException("--commits and --rounds must be at least 1 and --warmup-seconds at least 0 (got "
                    + commits + ", " + rounds + " and " + warmupSeconds + ")");
        }
        int files = line.intOption("files", 10_000);
        int repetitions = line.intOption("repetitions", 9);
        Path work = Files.createTempDirectory("moraine-bench-ducklake-");
        Path parquetDirectory = parquetCopies(work, files);
        Postgres postgres = line.flag("skip-postgres") ? null : Postgres.start();
        List<BenchmarkLake> lakes = new ArrayList<>();
        try {
            List<Target> targets = new ArrayList<>();
            targets.add(new Target("DuckDB-file catalog", "ducklake:" + work.resolve("duckdb-file.ducklake"), null, "", null));
            if (postgres != null) {
                targets.add(new Target("PostgreSQL 127.0.0.1", "ducklake:postgres:" + postgres.conninfo(), "postgres_scanner", "", null));
            }
            targets.add(new Target("moraine file://", "ducklake:moraine:" + work.resolve("moraine-store"), null, "",
                    "ducklake:moraine:" + work.resolve("jit-warmup-store")));
            if (!line.flag("skip-s3")) {
                String bucket = io.moraine.testing.S3ProxyServer.sharedUnchecked().createBucket("moraine-bench-ducklake");
                targets.add(new Target("moraine S3Proxy", "ducklake:moraine:s3://" + bucket + "/catalog", null, ", READ_WRITE",
                        "ducklake:moraine:s3://" + bucket + "/jit-warmup"));
            }
            System.out.printf("DuckLake 1.5.5 (DuckDB 1.5.5, threads=1), one-row inlined INSERT autocommits; the catalogs take turns: a warm-up "
                    + "of at least %d s of %d per connection on %d connections, the JIT's on scratch lakes, then %d rounds of %d "
                    + "commits on 1 connection and %d per connection on %d; medians (CPU: the whole machine's, database servers included); "
                    + "EXPLAIN SELECT count(*) / SELECT * WHERE id = 2 on %,d data files, median of %d%n",
                    warmupSeconds, commits, CONNECTIONS, rounds, commits, commits, CONNECTIONS, files, repetitions);
            for (Target target : targets) {
                lakes.add(BenchmarkLake.attach(target.name(), target.attachTarget(), target.scanner(), target.options(),
                        work.resolve(target.name().replaceAll("[^A-Za-z0-9]", "-"))));
            }
            // Before the JIT warm-up: a new lake's first commits take paths the steady state does not (creating the inlined
            // table, losing that race), and the code compiled without them is recompiled once they run.
            warmUp(lakes, commits, Duration.ofSeconds(warmupSeconds), CONNECTIONS);
            System.out.println("  " + warmUpJit(targets, work.resolve("jit-warmup"), commits));
            long snapshotsBefore = lakes.getFirst().snapshots();
            CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
            long compileMillisBefore = jit.getTotalCompilationTime();
            long roundsStart = System.nanoTime();
            for (int round = 0; round < rounds; round++) {
                // each round starts with another catalog, so that none always follows the same one
                for (BenchmarkLake lake : rotated(lakes, round)) {
                    lake.measure(1, commits);
                }
                for (BenchmarkLake lake : rotated(lakes, round)) {
                    lake.measure(CONNECTIONS, commits);
                }
            }
            System.out.printf("  measured rounds: %.0f s, the JIT compiler's share %.1f%%; %,d snapshots in the first lake before them, %,d after%n",
                    (System.nanoTime() - roundsStart) / 1e9, 100 * (jit.getTotalCompilationTime() - compileMillisBefore) / ((System.nanoTime() - roundsStart) / 1e6),
                    snapshotsBefore, lakes.getFirst().snapshots());
            Map<String, PlanTimes> plans = new LinkedHashMap<>();
            for (BenchmarkLake lake : lakes) {
                lake.checkRowCount();
                if (lake.addDataFiles(parquetDirectory) == 0) {
                    throw new IllegalStateException(lake.name() + ": ducklake_add_data_files added no file");
                }
                plans.put(lake.name(), new PlanTimes(lake.explainMillis("SELECT count(*) FROM lake.f", repetitions),
                        lake.explainMillis("SELECT * FROM lake.f WHERE id = 2", repetitions)));
            }
            for (BenchmarkLake lake : lakes) {
                PlanTimes plan = plans.get(lake.name());
                System.out.printf("  %-22s 1 connection %s   %d connections %s (%d gave up after DuckLake's retries)   "
                        + "EXPLAIN %7.2f ms, with a filter %7.2f ms%n", lake.name(), BenchmarkLake.median(lake.oneConnectionRounds()).describe(),
                        CONNECTIONS, BenchmarkLake.median(lake.manyConnectionRounds()).describe(), lake.failures(), plan.planMillis(),
                        plan.filteredPlanMillis());
            }
            printRatios(lakes, plans);
        }
        finally {
            closeAll(lakes);
            if (postgres != null) {
                postgres.stop();
            }
            if (!line.flag("skip-s3")) {
                io.moraine.testing.S3ProxyServer.sharedUnchecked().close();
            }
            deleteTree(work);
        }
    }

    /**
     * Commits on a scratch lake of each moraine target, on 1 and on {@link #CONNECTIONS} connections, until the JIT
     * compiler is done with moraine's bridge and S3Proxy (both run in this JVM): at least {@link #JIT_WARMUP_MINIMUM},
     * then until the compiler took at most {@link #JIT_BUSY_SHARE} of a {@link #JIT_WINDOW}, up to
     * {@link #JIT_WARMUP_MAXIMUM}. The measured lakes are not written to, so none of them carries the longer history
     * this builds. Returns what it found, for the report.
     */
    private static String warmUpJit(List<Target> targets, Path directory, int commits)
            throws Exception
    {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        List<BenchmarkLake> scratch = new ArrayList<>();
        try {
            for (Target target : targets) {
                if (target.jitWarmupTarget() != null) {
                    scratch.add(BenchmarkLake.attach("JIT warm-up, " + target.name(), target.jitWarmupTarget(), null, target.options(),
                            directory.resolve(target.name().replaceAll("[^A-Za-z0-9]", "-"))));
                }
            }
            long start = System.nanoTime();
            double share;
            long elapsed;
            do {
                long windowStart = System.nanoTime();
                long compileMillisBefore = jit.getTotalCompilationTime();
                warmUp(scratch, commits, JIT_WINDOW, 1, CONNECTIONS);
                share = (jit.getTotalCompilationTime() - compileMillisBefore) / ((System.nanoTime() - windowStart) / 1e6);
                elapsed = System.nanoTime() - start;
            }
            while (elapsed < JIT_WARMUP_MINIMUM.toNanos() || (share > JIT_BUSY_SHARE && elapsed < JIT_WARMUP_MAXIMUM.toNanos()));
            return String.format("JIT warm-up on scratch moraine lakes: %.0f s, the compiler's share of its last %d s %.1f%%", elapsed / 1e9,
                    JIT_WINDOW.toSeconds(), 100 * share);
        }
        finally {
            closeAll(scratch);
        }
    }

    /**
     * Unmeasured rounds of {@code commits} per connection on each of {@code connectionCounts} connections, the lakes
     * taking turns, for at least {@code minimum} (one turn at least).
     */
    private static void warmUp(List<BenchmarkLake> lakes, int commits, Duration minimum, int... connectionCounts)
            throws Exception
    {
        long ends = System.nanoTime() + minimum.toNanos();
        do {
            for (BenchmarkLake lake : lakes) {
                for (int connections : connectionCounts) {
                    lake.warmUp(connections, commits);
                }
            }
        }
        while (System.nanoTime() < ends);
    }

    /** Closes every lake, reporting (not throwing) a failure to close one, so that the run's own cleanup still happens. */
    private static void closeAll(List<BenchmarkLake> lakes)
    {
        for (BenchmarkLake lake : lakes) {
            try {
                lake.close();
            }
            catch (SQLException | RuntimeException e) {
                System.err.println("closing " + lake.name() + " failed: " + e.getMessage());
            }
        }
    }

    /** {@code lakes} starting at index {@code round} modulo their count. */
    private static List<BenchmarkLake> rotated(List<BenchmarkLake> lakes, int round)
    {
        List<BenchmarkLake> rotated = new ArrayList<>(lakes);
        java.util.Collections.rotate(rotated, -(round % lakes.size()));
        return rotated;
    }

    /** Each moraine lake against each baseline: the median of the rounds' ratios (the rounds ran side by side). */
    private static void printRatios(List<BenchmarkLake> lakes, Map<String, PlanTimes> plans)
    {
        for (BenchmarkLake moraine : lakes) {
            if (!moraine.name().startsWith("moraine")) {
                continue;
            }
            for (BenchmarkLake baseline : lakes) {
                if (baseline.name().startsWith("moraine")) {
                    continue;
                }
                double goal = baseline.name().startsWith("PostgreSQL") ? 2 : 1;
                List<Double> eight = roundRatios(moraine.manyConnectionRounds(), baseline.manyConnectionRounds());
                double eightMedian = median(eight);
                long met = eight.stream().filter(ratio -> ratio >= goal).count();
                System.out.printf("  %s / %s: commits/s 1 connection %.2fx, %d connections %.2fx (goal >= %.0fx: %s; rounds %s, met in %d of %d); "
                        + "EXPLAIN time %.2fx, with a filter %.2fx%n",
                        moraine.name(), baseline.name(), median(roundRatios(moraine.oneConnectionRounds(), baseline.oneConnectionRounds())),
                        CONNECTIONS, eightMedian, goal, eightMedian >= goal ? "met" : "NOT met",
                        eight.stream().map(ratio -> String.format("%.2f", ratio)).collect(java.util.stream.Collectors.joining(" ")), met, eight.size(),
                        plans.get(moraine.name()).planMillis() / plans.get(baseline.name()).planMillis(),
                        plans.get(moraine.name()).filteredPlanMillis() / plans.get(baseline.name()).filteredPlanMillis());
            }
        }
    }

    private static List<Double> roundRatios(List<BenchmarkLake.CommitRate> rates, List<BenchmarkLake.CommitRate> baselineRates)
    {
        List<Double> ratios = new ArrayList<>();
        for (int round = 0; round < rates.size(); round++) {
            ratios.add(rates.get(round).perSecond() / baselineRates.get(round).perSecond());
        }
        return ratios;
    }

    private static double median(List<Double> values)
    {
        List<Double> sorted = new ArrayList<>(values);
        java.util.Collections.sort(sorted);
        int size = sorted.size();
        return size % 2 == 1 ? sorted.get(size / 2) : (sorted.get(size / 2 - 1) + sorted.get(size / 2)) / 2;
    }

    /** One tiny Parquet file written by DuckDB, hard-linked {@code files} times: ducklake_add_data_files reads each footer. */
    private static Path parquetCopies(Path work, int files)
            throws SQLException, IOException
    {
        Path directory = work.resolve("parquet");
        Files.createDirectories(directory);
        Path original = work.resolve("one.parquet");
        try (Connection connection = MoraineDuckDb.open(); Statement statement = connection.createStatement()) {
            statement.execute("COPY (SELECT 1::BIGINT AS id, 'x' AS note) TO " + MoraineDuckDb.quote(original.toString()) + " (FORMAT parquet)");
        }
        for (int i = 0; i < files; i++) {
            Files.createLink(directory.resolve(String.format("f%06d.parquet", i)), original);
        }
        return directory;
    }

    /** Deletes {@code root} and everything below it. */
    static void deleteTree(Path root)
            throws IOException
    {
        try (var paths = Files.walk(root)) {
            for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }

    /** A throwaway PostgreSQL cluster on loopback, started and stopped by build-support/postgres.sh. */
    private record Postgres(Path script, String directory, int port)
    {
        static Postgres start()
                throws IOException, InterruptedException
        {
            Path script = Path.of(System.getProperty("moraine.root", ".")).resolve("build-support/postgres.sh");
            Process process = new ProcessBuilder("bash", script.toString(), "start")
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (process.waitFor() != 0) {
                throw new IllegalStateException(script + " start failed (exit " + process.exitValue() + "); run with --skip-postgres to leave it out");
            }
            Map<String, String> values = new LinkedHashMap<>();
            for (String entry : output.split("\n")) {
                int equals = entry.indexOf('=');
                if (equals > 0) {
                    values.put(entry.substring(0, equals), entry.substring(equals + 1).strip());
                }
            }
            return new Postgres(script, values.get("dir"), Integer.parseInt(values.get("port")));
        }

        String conninfo()
        {
            return "dbname=postgres host=127.0.0.1 port=" + port + " user=postgres";
        }

        void stop()
                throws IOException, InterruptedException
        {
            new ProcessBuilder("bash", script.toString(), "stop", directory).inheritIO().start().waitFor();
        }
    }
}
