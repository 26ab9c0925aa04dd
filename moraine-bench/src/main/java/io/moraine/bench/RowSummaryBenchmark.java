package io.moraine.bench;

import io.moraine.cli.CommandLine;
import io.moraine.core.io.LocalFileSystem;
import io.moraine.sidecars.rowsum.DataFileIdentity;
import io.moraine.sidecars.rowsum.EmbeddedRowIds;
import io.moraine.sidecars.rowsum.RowSummary;
import io.moraine.sidecars.rowsum.RowSummaryMetrics;
import io.moraine.sidecars.rowsum.RowSummaryReader;
import io.moraine.sidecars.rowsum.RowSummaryWriter;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Set;

/**
 * {@code bin/moraine bench rowsum}: RFC 0023's measurement. A DuckDB-written data file of sparse row ids in shuffled
 * file order (an update rewrite's shape) beside six user columns; a row summary loaded from its {@code .rowsum}
 * sidecar against one derived from its row-id column, set only (a lookup) and whole (a located delete): bytes read
 * and thread CPU (median), with the ratios derivation/sidecar.
 */
public final class RowSummaryBenchmark
{
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private RowSummaryBenchmark() {}

    private record Cost(long bytes, double cpuMillis) {}

    public static void main(String[] args)
            throws Exception
    {
        CommandLine line = CommandLine.parse(args, Set.of("ids", "range", "runs", "warmups", "dir"));
        int ids = line.intOption("ids", 1_000_000);
        int range = line.intOption("range", 10_000_000);
        int runs = line.intOption("runs", 5);
        int warmups = line.intOption("warmups", 2);
        if (ids < 1 || range < ids) {
            throw new IllegalArgumentException("--ids must be positive and at most --range, got " + ids + " and " + range);
        }
        Path work = line.option("dir").map(Path::of).orElse(Files.createTempDirectory("moraine-bench-rowsum-")).toAbsolutePath();
        Files.createDirectories(work);
        Path data = work.resolve("rewrite.parquet");
        try {
            writeDataFile(data, ids, range / ids);
            DataFileIdentity file = new DataFileIdentity(1, 1, data.toString(), Files.size(data));

            long publishStart = THREADS.getCurrentThreadCpuTime();
            RowSummary derived = EmbeddedRowIds.derive(LocalFileSystem.INSTANCE, file);
            long sidecarBytes = RowSummaryWriter.write(LocalFileSystem.INSTANCE, file, derived);
            double publishMillis = (THREADS.getCurrentThreadCpuTime() - publishStart) / 1e6;

            Cost deriveSet = measure(warmups, runs, files -> RowSummary.setOfFileOrder(read(files, file)), derived.set());
            Cost loadSet = measure(warmups, runs, files -> new RowSummaryReader(files, new RowSummaryMetrics()).open(file).orElseThrow().set(), derived.set());
            Cost deriveAll = measure(warmups, runs, files -> RowSummary.fromFileOrder(read(files, file)), derived);
            Cost loadAll = measure(warmups, runs, files -> new RowSummaryReader(files, new RowSummaryMetrics()).open(file).orElseThrow()
                    .loadSummary().orElseThrow(), derived);

            System.out.printf("data file: %,d rows, %,d bytes; %,d sparse ids over 0..%,d in shuffled file order (%s set, %s order)%n",
                    derived.rowCount(), file.fileSize(), ids, range, derived.set().getClass().getSimpleName(), derived.order().getClass().getSimpleName());
            System.out.printf("sidecar: %,d bytes; publishing it (derive + encode + write, first run, cold JIT) took %.1f ms CPU%n", sidecarBytes, publishMillis);
            System.out.printf("median thread CPU of %d runs after %d warm-ups%n", runs, warmups);
            System.out.printf("%-44s %14s %12s%n", "summary source", "bytes read", "CPU ms");
            print("set only: derived from the row-id column", deriveSet);
            print("set only: sidecar (header + set)", loadSet);
            print("whole: derived from the row-id column", deriveAll);
            print("whole: sidecar (header + set + order)", loadAll);
            System.out.printf("set only: sidecar reads %.1fx fewer bytes and uses %.1fx less CPU than derivation%n",
                    (double) deriveSet.bytes() / loadSet.bytes(), deriveSet.cpuMillis() / loadSet.cpuMillis());
            System.out.printf("whole:    sidecar reads %.1fx fewer bytes and uses %.1fx less CPU than derivation%n",
                    (double) deriveAll.bytes() / loadAll.bytes(), deriveAll.cpuMillis() / loadAll.cpuMillis());
        }
        finally {
            Files.deleteIfExists(data);
            Files.deleteIfExists(Path.of(data + DataFileIdentity.SIDECAR_SUFFIX));
        }
    }

    private static long[] read(CountingFileSystem files, DataFileIdentity file)
    {
        try {
            return EmbeddedRowIds.read(files, file);
        }
        catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private interface Load
    {
        Object run(CountingFileSystem files);
    }

    /** Median thread CPU over {@code runs}; bytes from the last run (every run reads the same bytes). */
    private static Cost measure(int warmups, int runs, Load load, Object expected)
    {
        long[] nanos = new long[runs];
        long bytes = 0;
        for (int i = -warmups; i < runs; i++) {
            CountingFileSystem files = new CountingFileSystem(LocalFileSystem.INSTANCE);
            long start = THREADS.getCurrentThreadCpuTime();
            Object result = load.run(files);
            long spent = THREADS.getCurrentThreadCpuTime() - start;
            if (!result.equals(expected)) {
                throw new IllegalStateException("a summary source disagrees with the derivation: " + result + " vs " + expected);
            }
            if (i >= 0) {
                nanos[i] = spent;
                bytes = files.bytesRead();
            }
        }
        Arrays.sort(nanos);
        return new Cost(bytes, nanos[runs / 2] / 1e6);
    }

    private static void print(String source, Cost cost)
    {
        System.out.printf("%-44s %,14d %12.2f%n", source, cost.bytes(), cost.cpuMillis());
    }

    /** One id in each run of {@code spread} ids, in hash order, beside six user columns, as DuckDB's writer lays them out. */
    private static void writeDataFile(Path data, int ids, int spread)
            throws Exception
    {
        try (Connection duckdb = DriverManager.getConnection("jdbc:duckdb:"); Statement statement = duckdb.createStatement()) {
            statement.execute("COPY (SELECT (i * " + spread + " + hash(i) % " + spread + ")::BIGINT AS _ducklake_internal_row_id, "
                    + "i AS c1, (i * 7) % 1000 AS c2, 'value ' || i AS c3, (hash(i) % 100000)::INTEGER AS c4, i / 3.0 AS c5, "
                    + "DATE '2026-01-01' + (i % 365)::INTEGER AS c6 FROM range(" + ids + ") t(i) ORDER BY hash(i + 1)) TO '"
                    + data.toString().replace("'", "''") + "' (FORMAT parquet, FIELD_IDS {_ducklake_internal_row_id: 2147483540, "
                    + "c1: 1, c2: 2, c3: 3, c4: 4, c5: 5, c6: 6})");
        }
    }
}
