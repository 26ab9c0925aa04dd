package io.moraine.bench.trial;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.catalog.SnapshotRows;
import io.moraine.core.row.Row;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreOptions;
import io.moraine.core.store.StoreUri;
import io.moraine.core.store.WriterMode;
import io.moraine.core.tx.StagedTransaction;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code bin/moraine bench writes --handoff}: the writer hand-off (docs/writes.md, "The writer hand-off") between this
 * process and a child JVM on one store, on {@code file://} and on S3 (S3Proxy, requests counted by a {@link FaultProxy}
 * injecting nothing): the time of a small inlined commit that must take the writer back, and the object-store requests
 * of both processes meanwhile; the rate of two processes committing alternately; and, for choosing DuckDB's default,
 * one process committing alone with writer mode HANDOFF and EXCLUSIVE.
 */
public final class WriterHandoffBench
{
    public static final String OPTIONS = "[--handoffs N] [--solo-commits N] [--work <dir>]";

    private WriterHandoffBench() {}

    public static void main(String[] args)
            throws Exception
    {
        if (args.length > 0 && args[0].equals("child")) {
            child(StoreUri.parse(args[1]), args[2]);
            return;
        }
        io.moraine.cli.CommandLine line = io.moraine.cli.CommandLine.parse(args, java.util.Set.of("handoffs", "solo-commits", "work"));
        int handoffs = line.intOption("handoffs", 20);
        int solo = line.intOption("solo-commits", 50);
        Path work = line.option("work").map(Path::of).orElse(Files.createTempDirectory("moraine-writer-handoff-"));
        System.out.printf("writer hand-off: %d hand-offs between two JVMs (small inlined commits to one table), %d solo commits per writer mode%n", handoffs, solo);
        try (TrialStore store = TrialStore.local(Files.createDirectories(work.resolve("file")))) {
            run("file://", store, null, handoffs, solo, work.resolve("file"));
        }
        try (TrialStore store = TrialStore.s3(Files.createDirectories(work.resolve("s3")));
                FaultProxy counter = new FaultProxy(store.port(), 0, 0, Duration.ZERO, Duration.ZERO)) {
            run("S3Proxy", store, counter, handoffs, solo, work.resolve("s3"));
        }
    }

    private static void run(String where, TrialStore store, FaultProxy counter, int handoffs, int solo, Path work)
            throws Exception
    {
        String endpoint = counter == null ? "none" : counter.endpoint();
        StoreOptions options = TrialStore.options(store.uri(), Duration.ofSeconds(60), endpoint);
        Path data = Files.createDirectories(work.resolve("data"));
        TrialTable.create(store.uri(), options.withCreateIfMissing(), data + "/");
        List<Double> handoffMillis = new ArrayList<>();
        List<Long> handoffRequests = new ArrayList<>();
        List<Double> plainMillis = new ArrayList<>();
        double alternatingPerSecond;
        try (BufferAllocator allocator = new RootAllocator();
                MoraineCatalog catalog = MoraineCatalog.open(store.uri(), OpenMode.READ_WRITE, options.withWriterMode(WriterMode.HANDOFF))) {
            for (int i = 0; i < 5; i++) {
                long start = System.nanoTime();
                commit(catalog, allocator);
                plainMillis.add((System.nanoTime() - start) / 1e6);
            }
            Process child = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"), "--enable-native-access=ALL-UNNAMED",
                    "--sun-misc-unsafe-memory-access=allow", "--add-opens=java.base/java.nio=ALL-UNNAMED", "-Xmx512m",
                    "-cp", System.getProperty("java.class.path"), WriterHandoffBench.class.getName(), "child", store.uri().toString(), endpoint)
                    .redirectError(work.resolve("child.stderr").toFile()).start();
            try {
                BufferedReader lines = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
                OutputStream commands = child.getOutputStream();
                expect(lines, "READY");
                long alternatingStart = System.nanoTime();
                int commits = 0;
                for (int i = 0; i < handoffs; i++) {
                    if (counter != null) {
                        counter.resetCounts();
                    }
                    if (i % 2 == 0) {
                        // The child takes the writer.
                        commands.write("COMMIT\n".getBytes(StandardCharsets.UTF_8));
                        commands.flush();
                        handoffMillis.add(Double.parseDouble(expect(lines, "DONE ").substring(5)));
                    }
                    else {
                        long start = System.nanoTime();
                        commit(catalog, allocator);
                        handoffMillis.add((System.nanoTime() - start) / 1e6);
                    }
                    commits++;
                    if (counter != null) {
                        handoffRequests.add(counter.requestCounts().values().stream().mapToLong(Long::longValue).sum());
                    }
                }
                alternatingPerSecond = commits / ((System.nanoTime() - alternatingStart) / 1e9);
                commands.write("QUIT\n".getBytes(StandardCharsets.UTF_8));
                commands.flush();
                expect(lines, "BYE");
            }
            finally {
                child.waitFor();
            }
            // Take the writer back from the child for good before the solo runs.
            commit(catalog, allocator);
        }
        // Alternated, each measured twice and the better kept: the first run after the hand-offs pays for compactions.
        double handoffSolo = 0;
        double exclusiveSolo = 0;
        for (int round = 0; round < 2; round++) {
            exclusiveSolo = Math.max(exclusiveSolo, solo(store.uri(), options.withWriterMode(WriterMode.EXCLUSIVE), solo));
            handoffSolo = Math.max(handoffSolo, solo(store.uri(), options.withWriterMode(WriterMode.HANDOFF), solo));
        }
        System.out.printf("%s: commit that takes the writer back: median %.1f ms (p90 %.1f ms; a commit holding the writer: median %.1f ms)%n", where,
                median(handoffMillis), percentile(handoffMillis, 0.9), median(plainMillis));
        if (!handoffRequests.isEmpty()) {
            System.out.printf("%s: object-store requests per hand-off (both processes, commit included): median %d, min %d, max %d%n", where,
                    handoffRequests.stream().sorted().toList().get(handoffRequests.size() / 2), handoffRequests.stream().mapToLong(Long::longValue).min().orElse(0),
                    handoffRequests.stream().mapToLong(Long::longValue).max().orElse(0));
        }
        System.out.printf("%s: two processes committing alternately: %.1f commits/s%n", where, alternatingPerSecond);
        System.out.printf("%s: one process alone, %d commits: HANDOFF %.1f commits/s, EXCLUSIVE %.1f commits/s%n", where, solo, handoffSolo, exclusiveSolo);
    }

    private static double solo(StoreUri uri, StoreOptions options, int commits)
    {
        try (BufferAllocator allocator = new RootAllocator(); MoraineCatalog catalog = MoraineCatalog.open(uri, OpenMode.READ_WRITE, options)) {
            commit(catalog, allocator);
            long start = System.nanoTime();
            for (int i = 0; i < commits; i++) {
                commit(catalog, allocator);
            }
            return commits / ((System.nanoTime() - start) / 1e9);
        }
    }

    /** The child: opens the store read-write (HANDOFF) and makes one commit per COMMIT line, answering with its time. */
    private static void child(StoreUri uri, String endpoint)
            throws Exception
    {
        StoreOptions options = TrialStore.options(uri, Duration.ofSeconds(60), endpoint).withWriterMode(WriterMode.HANDOFF);
        BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        try (BufferAllocator allocator = new RootAllocator(); MoraineCatalog catalog = MoraineCatalog.open(uri, OpenMode.READ_WRITE, options)) {
            // The open took the writer; the parent's first commit takes it back (that hand-off is not counted).
            System.out.println("READY");
            System.out.flush();
            String command;
            while ((command = commands.readLine()) != null && !command.equals("QUIT")) {
                long start = System.nanoTime();
                commit(catalog, allocator);
                System.out.printf("DONE %.3f%n", (System.nanoTime() - start) / 1e6);
                System.out.flush();
            }
        }
        System.out.println("BYE");
        System.out.flush();
    }

    /** One small inlined insert (10 rows) into the trial table, as a DuckDB INSERT of a few rows commits. */
    static long commit(MoraineCatalog catalog, BufferAllocator allocator)
    {
        try (CatalogSnapshot read = catalog.latest()) {
            Row next = SnapshotRows.next(read.snapshotRow(), 0, 0, 0);
            long snapshotId = next.getLong("snapshot_id");
            StagedTransaction transaction = catalog.begin(read.id()).insert(next)
                    .insert(SnapshotRows.changes(snapshotId, "inserted_into_table:" + TrialTable.TABLE_ID));
            Row stats = read.tableStats(TrialTable.TABLE_ID).orElseThrow();
            long firstRowId = stats.getLong("next_row_id");
            int rows = 10;
            try (VectorSchemaRoot root = TrialTable.rows(allocator, snapshotId, rows)) {
                transaction.insertInlined(TrialTable.TABLE_ID, 1, snapshotId, firstRowId, root);
            }
            transaction.update(stats, Map.of("record_count", stats.getLong("record_count") + rows, "next_row_id", firstRowId + rows));
            return transaction.commit();
        }
    }

    private static String expect(BufferedReader lines, String prefix)
            throws Exception
    {
        String line;
        while ((line = lines.readLine()) != null) {
            if (line.startsWith(prefix)) {
                return line;
            }
        }
        throw new IllegalStateException("the child process ended before printing " + prefix + " (see child.stderr in the work directory)");
    }

    private static double median(List<Double> values)
    {
        return percentile(values, 0.5);
    }

    private static double percentile(List<Double> values, double fraction)
    {
        List<Double> sorted = values.stream().sorted().toList();
        return sorted.get(Math.min(sorted.size() - 1, (int) (fraction * sorted.size())));
    }
}
