package io.moraine.bench;

import io.moraine.cli.MoraineDuckDb;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One catalog DuckLake drives in {@code bench ducklake}, attached as {@code lake} in a DuckDB instance of its own for
 * the whole run, so that the rounds of every catalog can take turns; it keeps the rates of the rounds measured on it.
 */
final class BenchmarkLake
        implements AutoCloseable
{
    /** Commits per second in one round, and the machine's CPU time per commit in it (NaN: unknown). */
    record CommitRate(double perSecond, double cpuMillisPerCommit)
    {
        String describe()
        {
            return String.format("%7.1f commits/s (%s)", perSecond,
                    Double.isNaN(cpuMillisPerCommit) ? "CPU unknown" : String.format("%5.1f ms CPU a commit", cpuMillisPerCommit));
        }
    }

    private final String name;
    private final Connection first;
    private final Statement statement;
    private final AtomicLong failures = new AtomicLong();
    private long commitsAsked;
    private final List<CommitRate> oneConnection = new ArrayList<>();
    private final List<CommitRate> manyConnections = new ArrayList<>();

    private BenchmarkLake(String name, Connection first, Statement statement)
    {
        this.name = name;
        this.first = first;
        this.statement = statement;
    }

    /** Attaches {@code attachTarget} as a new lake whose data files go below {@code directory}, with table {@code t}. */
    static BenchmarkLake attach(String name, String attachTarget, String scanner, String options, Path directory)
            throws Exception
    {
        Files.createDirectories(directory.resolve("data"));
        Connection first = MoraineDuckDb.openWithDuckLake();
        try {
            Statement statement = first.createStatement();
            statement.execute("SET threads = 1"); // as DuckLakeWritesTest: DuckLake's catalog cache race after writes (RFC 0006)
            statement.execute("SET ducklake_max_retry_count = 100");
            if (scanner != null) {
                statement.execute("LOAD " + scanner);
            }
            statement.execute("ATTACH " + MoraineDuckDb.quote(attachTarget) + " AS lake (DATA_PATH "
                    + MoraineDuckDb.quote(directory.resolve("data") + "/") + options + ")");
            statement.execute("CREATE TABLE lake.t (writer INTEGER, n INTEGER, note VARCHAR)");
            return new BenchmarkLake(name, first, statement);
        }
        catch (Exception e) {
            first.close();
            throw e;
        }
    }

    String name()
    {
        return name;
    }

    long failures()
    {
        return failures.get();
    }

    List<CommitRate> oneConnectionRounds()
    {
        return oneConnection;
    }

    List<CommitRate> manyConnectionRounds()
    {
        return manyConnections;
    }

    /** {@code commits} one-row autocommits on each of {@code connections} at once, not kept as a measured round. */
    void warmUp(int connections, int commits)
            throws Exception
    {
        commitsPerSecond(connections, commits);
    }

    /** A measured round: {@code commits} one-row autocommits on each of {@code connections} connections at once. */
    void measure(int connections, int commits)
            throws Exception
    {
        (connections == 1 ? oneConnection : manyConnections).add(commitsPerSecond(connections, commits));
    }

    private CommitRate commitsPerSecond(int connections, int commits)
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
                    try (connection; Statement writerStatement = connection.createStatement()) {
                        insert(writerStatement, writer, commits);
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
            commitsAsked += connections * (long) commits;
            double cpuMillis = cpuStart.isPresent() && cpuEnd.isPresent() ? (cpuEnd.getAsLong() - cpuStart.getAsLong()) / 1e6 / total : Double.NaN;
            return new CommitRate(total / seconds, cpuMillis);
        }
        finally {
            pool.shutdown();
            pool.awaitTermination(1, TimeUnit.MINUTES);
        }
    }

    /** {@code commits} one-row autocommits; a commit DuckLake gave up on (after its retries) is counted, not repeated. */
    private void insert(Statement writerStatement, int writer, int commits)
            throws SQLException
    {
        for (int n = 0; n < commits; n++) {
            try {
                writerStatement.execute("INSERT INTO lake.t VALUES (" + writer + ", " + n + ", 'row " + n + " of writer " + writer + "')");
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

    /** Fails unless lake.t holds a row for every commit asked for that DuckLake did not give up on. */
    void checkRowCount()
            throws SQLException
    {
        long expected = commitsAsked - failures.get();
        long actual = singleLong("SELECT count(*) FROM lake.t");
        if (actual != expected) {
            throw new IllegalStateException(name + ": lake.t holds " + actual + " rows after " + expected + " commits that landed");
        }
    }

    /** How many snapshots the lake holds: DuckLake's commits on some catalogs cost more as they grow. */
    long snapshots()
            throws SQLException
    {
        return singleLong("SELECT count(*) FROM ducklake_snapshots('lake')");
    }

    /** Adds every Parquet file of {@code parquetDirectory} to a new table lake.f; returns how many DuckLake lists. */
    long addDataFiles(Path parquetDirectory)
            throws SQLException
    {
        statement.execute("CREATE TABLE lake.f (id BIGINT, note VARCHAR)");
        statement.execute("CALL ducklake_add_data_files('lake', 'f', " + MoraineDuckDb.quote(parquetDirectory + "/*.parquet") + ")");
        return singleLong("SELECT count(*) FROM ducklake_list_files('lake', 'f')");
    }

    /** The median time of an autocommit EXPLAIN of {@code query}: each a new DuckLake transaction that reads the catalog. */
    double explainMillis(String query, int repetitions)
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

    private long singleLong(String query)
            throws SQLException
    {
        try (ResultSet result = statement.executeQuery(query)) {
            result.next();
            return result.getLong(1);
        }
    }

    /** The median of {@code rounds} by commits per second. */
    static CommitRate median(List<CommitRate> rounds)
    {
        List<CommitRate> sorted = new ArrayList<>(rounds);
        sorted.sort(Comparator.comparingDouble(CommitRate::perSecond));
        return sorted.get(sorted.size() / 2);
    }

    @Override
    public void close()
            throws SQLException
    {
        try (first) {
            statement.close();
        }
    }
}
