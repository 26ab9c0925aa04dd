package io.moraine.examples.bench;

import io.moraine.examples.CommandLine;
import io.moraine.examples.MoraineDuckDb;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code bin/moraine bench ducklake}: DuckLake driving four catalogs in one run — moraine on {@code file://}, moraine
 * on S3Proxy, a DuckDB-file catalog and PostgreSQL (a throwaway loopback server from build-support/postgres.sh):
 * (a) one-row inlined INSERT commits per second with 1 and 8 connections of one DuckDB instance (the median of
 * {@code --rounds} runs of each, with the machine's CPU time per commit), (b) the time an
 * autocommit {@code EXPLAIN} of a scan takes on a table of N data files (bind and plan in a new DuckLake transaction:
 * catalog reads only, no data file is opened), without and with a filter DuckLake prunes files by.
 */
public final class DuckLakeCommitBenchmark
{
    public static final String USAGE = "bench ducklake [--commits N] [--rounds N] [--warmup-seconds N] [--files N] [--repetitions N] [--skip-s3] [--skip-postgres]";

    private static final int CONNECTIONS = 8;

    private DuckLakeCommitBenchmark() {}

    /** A catalog DuckLake attaches: its ATTACH target and the extensions it needs loaded. */
    private record Target(String name, String attachTarget, String scanner, String options) {}

    private record Result(CommitRate oneConnection, CommitRate eightConnections, long failures, double planMillis, double filteredPlanMillis) {}

    /** The median commits per second of the rounds, and the machine's CPU time per commit in that round (NaN: unknown). */
    private record CommitRate(double perSecond, double cpuMillisPerCommit)
    {
        String describe()
        {
            return String.format("%7.1f commits/s (%s)", perSecond,
                    Double.isNaN(cpuMillisPerCommit) ? "CPU unknown" : String.format("%5.1f ms CPU a commit", cpuMillisPerCommit));
        }
    }

    public static void main(String[] args)
            throws Exception
    {
        CommandLine line = CommandLine.parse(args, Set.of("commits", "rounds", "warmup-seconds", "files", "repetitions", "skip-s3", "skip-postgres"));
        int commits = line.intOption("commits", 40);
        int rounds = line.intOption("rounds", 3);
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
        Map<String, Result> results = new LinkedHashMap<>();
        try {
            List<Target> targets = new ArrayList<>();
            targets.add(new Target("DuckDB-file catalog", "ducklake:" + work.resolve("duckdb-file.ducklake"), null, ""));
            if (postgres != null) {
                targets.add(new Target("PostgreSQL 127.0.0.1", "ducklake:postgres:" + postgres.conninfo(), "postgres_scanner", ""));
            }
            targets.add(new Target("moraine file://", "ducklake:moraine:" + work.resolve("moraine-store"), null, ""));
            if (!line.flag("skip-s3")) {
                String bucket = io.moraine.testing.S3ProxyServer.sharedUnchecked().createBucket("moraine-bench-ducklake");
                targets.add(new Target("moraine S3Proxy", "ducklake:moraine:s3://" + bucket + "/catalog", null, ", READ_WRITE"));
            }
            System.out.printf("DuckLake 1.5.5 (DuckDB 1.5.5, threads=1), one-row inlined INSERT autocommits after %d s of them on %d connections "
                    + "(warm-up), %d per connection, median of %d rounds (CPU: the whole machine's, database servers included); "
                    + "EXPLAIN SELECT count(*) / SELECT * WHERE id = 2 on %,d data files, median of %d%n",
                    warmupSeconds, CONNECTIONS, commits, rounds, files, repetitions);
            for (Target target : targets) {
                Result result = run(target, work.resolve(target.name().replaceAll("[^A-Za-z0-9]", "-")), parquetDirectory, commits, rounds,
                        Duration.ofSeconds(warmupSeconds), repetitions);
                results.put(target.name(), result);
                System.out.printf("  %-22s 1 connection %s   %d connections %s (%d gave up after DuckLake's retries)   "
                        + "EXPLAIN %7.2f ms, with a filter %7.2f ms%n", target.name(), result.oneConnection().describe(), CONNECTIONS,
                        result.eightConnections().describe(), result.failures(), result.planMillis(), result.filteredPlanMillis());
            }
        }
        finally {
            if (postgres != null) {
                postgres.stop();
            }
            if (!line.flag("skip-s3")) {
                io.moraine.testing.S3ProxyServer.sharedUnchecked().close();
            }
            deleteTree(work);
        }
        printRatios(results);
    }

    private static void printRatios(Map<String, Result> results)
    {
        for (String moraine : results.keySet()) {
            if (!moraine.startsWith("moraine")) {
                continue;
            }
            Result m = results.get(moraine);
            for (String baseline : results.keySet()) {
                if (baseline.startsWith("moraine")) {
                    continue;
                }
                Result b = results.get(baseline);
                double goal = baseline.startsWith("PostgreSQL") ? 2 : 1;
                double eight = m.eightConnections().perSecond() / b.eightConnections().perSecond();
                System.out.printf("  %s / %s: commits/s 1 connection %.2fx, %d connections %.2fx (goal >= %.0fx: %s); EXPLAIN time %.2fx, with a filter %.2fx%n",
                        moraine, baseline, m.oneConnection().perSecond() / b.oneConnection().perSecond(), CONNECTIONS, eight, goal,
                        eight >= goal ? "met" : "NOT met",
                        m.planMillis() / b.planMillis(), m.filteredPlanMillis() / b.filteredPlanMillis());
            }
        }
    }

    private static Result run(Target target, Path directory, Path parquetDirectory, int commits, int rounds, Duration warmup,
            int repetitions)
            throws Exception
    {
        Files.createDirectories(directory.resolve("data"));
        try (Connection first = MoraineDuckDb.openWithDuckLake(); Statement statement = first.createStatement()) {
            statement.execute("SET threads = 1"); // as DuckLakeWritesTest: DuckLake's catalog cache race after writes (RFC 0006)
            statement.execute("SET ducklake_max_retry_count = 100");
            if (target.scanner() != null) {
                statement.execute("LOAD " + target.scanner());
            }
            statement.execute("ATTACH " + MoraineDuckDb.quote(target.attachTarget()) + " AS lake (DATA_PATH "
                    + MoraineDuckDb.quote(directory.resolve("data") + "/") + target.options() + ")");
            statement.execute("CREATE TABLE lake.t (writer INTEGER, n INTEGER, note VARCHAR)");
            AtomicLong failures = new AtomicLong();
            // Warm-up: the JIT (moraine's bridge runs in this JVM), DuckLake's caches; eight connections, so that the
            // rebasing of commits that lost a race is compiled too. At least one round.
            long warmupCommits = 0;
            long warmupEnds = System.nanoTime() + warmup.toNanos();
            do {
                commitsPerSecond(first, CONNECTIONS, commits, failures);
                warmupCommits += (long) CONNECTIONS * commits;
            }
            while (System.nanoTime() < warmupEnds);
            CommitRate one = medianRate(first, 1, commits, rounds, failures);
            CommitRate eight = medianRate(first, CONNECTIONS, commits, rounds, failures);
            long expected = warmupCommits + (long) commits * (1 + CONNECTIONS) * rounds - failures.get();
            check(statement, "SELECT count(*) FROM lake.t", expected);

            statement.execute("CREATE TABLE lake.f (id BIGINT, note VARCHAR)");
            statement.execute("CALL ducklake_add_data_files('lake', 'f', " + MoraineDuckDb.quote(parquetDirectory + "/*.parquet") + ")");
            long files;
            try (ResultSet result = statement.executeQuery("SELECT count(*) FROM ducklake_list_files('lake', 'f')")) {
                result.next();
                files = result.getLong(1);
            }
            if (files == 0) {
                throw new IllegalStateException(target.name() + ": ducklake_add_data_files added no file");
            }
            double plan = explainMillis(statement, "SELECT count(*) FROM lake.f", repetitions);
            double filtered = explainMillis(statement, "SELECT * FROM lake.f WHERE id = 2", repetitions);
            return new Result(one, eight, failures.get(), plan, filtered);
        }
    }

    /** One autocommit EXPLAIN per run, so each run is a new DuckLake transaction that reads the catalog. */
    private static double explainMillis(Statement statement, String query, int repetitions)
            throws Exception
    {
        return Timing.medianMillis(2, repetitions, () -> {
            try (ResultSet result = statement.executeQuery("EXPLAIN " + query)) {
                long rows = 0;
                while (result.next()) {
                    rows++;
                }
                return rows;
            }
        });
    }

    /** {@code rounds} runs of {@link #commitsPerSecond}, one after the other; the median by commits per second. */
    private static CommitRate medianRate(Connection first, int connections, int commits, int rounds, AtomicLong failures)
            throws Exception
    {
        List<CommitRate> runs = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            runs.add(commitsPerSecond(first, connections, commits, failures));
        }
        runs.sort(java.util.Comparator.comparingDouble(CommitRate::perSecond));
        return runs.get(rounds / 2);
    }

    private static CommitRate commitsPerSecond(Connection first, int connections, int commits, AtomicLong failures)
            throws Exception
    {
        ExecutorService pool = Executors.newFixedThreadPool(connections);
        try {
            List<Connection> opened = new ArrayList<>();
            for (int i = 0; i < connections; i++) {
                opened.add(((org.duckdb.DuckDBConnection) first).duplicate());
            }
            OptionalLong cpuStart = MachineCpu.busyNanos();
            long start = System.nanoTime();
            List<Future<?>> writers = new ArrayList<>();
            for (int i = 0; i < connections; i++) {
                int writer = connections * 100 + i;
                Connection connection = opened.get(i);
                writers.add(pool.submit(() -> {
                    try (connection; Statement statement = connection.createStatement()) {
                        insert(statement, writer, commits, failures);
                    }
                    return null;
                }));
            }
            for (Future<?> writer : writers) {
                writer.get();
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            OptionalLong cpuEnd = MachineCpu.busyNanos();
            double total = connections * (double) commits;
            double cpuMillis = cpuStart.isPresent() && cpuEnd.isPresent() ? (cpuEnd.getAsLong() - cpuStart.getAsLong()) / 1e6 / total : Double.NaN;
            return new CommitRate(total / seconds, cpuMillis);
        }
        finally {
            pool.shutdown();
            pool.awaitTermination(1, TimeUnit.MINUTES);
        }
    }

    /** {@code commits} one-row autocommits; a commit DuckLake gave up on (after its retries) is counted, not repeated. */
    private static void insert(Statement statement, int writer, int commits, AtomicLong failures)
            throws SQLException
    {
        for (int n = 0; n < commits; n++) {
            try {
                statement.execute("INSERT INTO lake.t VALUES (" + writer + ", " + n + ", 'row " + n + " of writer " + writer + "')");
            }
            catch (SQLException e) {
                String message = String.valueOf(e.getMessage()).toLowerCase();
                if (!message.contains("conflict")) {
                    throw e;
                }
                failures.incrementAndGet();
            }
        }
    }

    private static void check(Statement statement, String query, long expected)
            throws SQLException
    {
        try (ResultSet result = statement.executeQuery(query)) {
            result.next();
            if (result.getLong(1) != expected) {
                throw new IllegalStateException(query + " returned " + result.getLong(1) + ", expected " + expected);
            }
        }
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
