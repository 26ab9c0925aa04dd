package io.moraine.bench;

import io.moraine.bench.trial.WriterHandoffBench;
import io.moraine.cli.CommandLine;
import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.error.CommitConflictException;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreUri;
import io.moraine.core.types.TableColumn;
import io.moraine.core.write.InlinedArrowSchema;
import io.moraine.core.write.WriteTransaction;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code bin/moraine bench writes}: small inlined commits per second through the core's write API
 * ({@link WriteTransaction#insertInlined}, {@code --rows} rows a commit, one transaction per commit) on 1 and 8 threads
 * of one process, against the same inserts through {@code ducklake:moraine:} (DuckDB+DuckLake with the extension, 1 and
 * 8 connections of one instance, as {@code bench ducklake}) on the same kind of store — the baseline; rounds alternate
 * between the two, each rate is the median of the rounds and each ratio the median of the rounds' ratios. With
 * {@code --handoff}: the writer hand-off between two processes instead ({@link WriterHandoffBench}).
 */
public final class WritesBenchmark
{
    public static final String USAGE = "bench writes [--commits N] [--rounds N] [--rows N] [--skip-s3] | bench writes --handoff " + WriterHandoffBench.OPTIONS;
    private static final int THREADS = 8;

    private WritesBenchmark() {}

    public static void main(String[] args)
            throws Exception
    {
        if (Arrays.asList(args).contains("--handoff")) {
            WriterHandoffBench.main(Arrays.stream(args).filter(arg -> !arg.equals("--handoff")).toArray(String[]::new));
            return;
        }
        CommandLine line = CommandLine.parse(args, Set.of("commits", "rounds", "rows", "skip-s3"));
        int commits = line.intOption("commits", 40);
        int rounds = line.intOption("rounds", 3);
        int rows = line.intOption("rows", 1);
        if (commits < 1 || rounds < 1 || rows < 1 || rows > 10) {
            throw new IllegalArgumentException("--commits and --rounds must be at least 1 and --rows 1 to 10 (inlined: at most the lake's "
                    + "DATA_INLINING_ROW_LIMIT of 10); got " + commits + ", " + rounds + " and " + rows);
        }
        Path work = Files.createTempDirectory("moraine-bench-writes-");
        System.out.printf("small inlined commits (%d row%s each, one transaction a commit): the core's write API (WriteTransaction.insertInlined) vs the "
                + "same INSERTs through ducklake:moraine: (DuckDB 1.5.5 + DuckLake, threads=1), each on a store of its own; %d rounds of %d commits "
                + "per thread on 1 and %d threads, alternating; medians%n", rows, rows == 1 ? "" : "s", rounds, commits, THREADS);
        run("file://", work.resolve("file-core-store").toString(), work.resolve("file-duckdb-store").toString(), work.resolve("file"), commits, rounds, rows);
        if (!line.flag("skip-s3")) {
            String bucket = io.moraine.testing.S3ProxyServer.sharedUnchecked().createBucket("moraine-bench-writes");
            run("S3Proxy", "s3://" + bucket + "/core", "s3://" + bucket + "/duckdb", work.resolve("s3"), commits, rounds, rows);
        }
    }

    private static void run(String where, String coreStore, String duckDbStore, Path work, int commits, int rounds, int rows)
            throws Exception
    {
        String readWrite = duckDbStore.startsWith("s3://") ? ", READ_WRITE" : "";
        // The core's lake is made by DuckLake too (the same table), then written through the core only.
        try (BenchmarkLake lake = BenchmarkLake.attach("core lake setup", "ducklake:moraine:" + coreStore, null, ", DATA_INLINING_ROW_LIMIT 10" + readWrite,
                work.resolve("core"))) {
            lake.name();
        }
        try (BenchmarkLake duckDb = BenchmarkLake.attach("ducklake:moraine:", "ducklake:moraine:" + duckDbStore, null, ", DATA_INLINING_ROW_LIMIT 10" + readWrite,
                work.resolve("duckdb"));
                BufferAllocator allocator = new RootAllocator();
                MoraineCatalog catalog = MoraineCatalog.open(StoreUri.parse(coreStore), OpenMode.READ_WRITE)) {
            CoreWriter core = new CoreWriter(catalog, allocator, rows);
            // Warm-up: a new lake's first commits (and the JIT) take paths the steady state does not.
            duckDb.warmUp(1, commits);
            duckDb.warmUp(THREADS, commits / 2 + 1);
            core.commitsPerSecond(1, commits);
            core.commitsPerSecond(THREADS, commits / 2 + 1);
            List<Double> coreOne = new ArrayList<>();
            List<Double> coreMany = new ArrayList<>();
            for (int round = 0; round < rounds; round++) {
                boolean coreFirst = round % 2 == 0;
                if (!coreFirst) {
                    duckDb.measure(1, commits);
                }
                coreOne.add(core.commitsPerSecond(1, commits));
                if (coreFirst) {
                    duckDb.measure(1, commits);
                }
                if (!coreFirst) {
                    duckDb.measure(THREADS, commits);
                }
                coreMany.add(core.commitsPerSecond(THREADS, commits));
                if (coreFirst) {
                    duckDb.measure(THREADS, commits);
                }
            }
            core.checkRows();
            duckDb.checkRowCount();
            List<Double> duckOne = duckDb.oneConnectionRounds().stream().map(BenchmarkLake.CommitRate::perSecond).toList();
            List<Double> duckMany = duckDb.manyConnectionRounds().stream().map(BenchmarkLake.CommitRate::perSecond).toList();
            System.out.printf("%s, 1 thread:  core API %7.1f commits/s, ducklake:moraine: %7.1f commits/s (baseline), core/baseline %.2fx%n",
                    where, median(coreOne), median(duckOne), medianRatio(coreOne, duckOne));
            System.out.printf("%s, %d threads: core API %7.1f commits/s, ducklake:moraine: %7.1f commits/s (baseline), core/baseline %.2fx"
                            + " (core conflicts given up on: %d; DuckLake's: %d)%n",
                    where, THREADS, median(coreMany), median(duckMany), medianRatio(coreMany, duckMany), core.failures.get(), duckDb.failures());
        }
    }

    /** Inlined one-transaction-a-commit inserts into {@code main.t} through the core's write API, on any number of threads. */
    private static final class CoreWriter
    {
        private final MoraineCatalog catalog;
        private final BufferAllocator allocator;
        private final int rows;
        private final Schema schema;
        private final AtomicLong failures = new AtomicLong();
        private final AtomicLong committedRows = new AtomicLong();
        private final AtomicLong landed = new AtomicLong();

        CoreWriter(MoraineCatalog catalog, BufferAllocator allocator, int rows)
        {
            this.catalog = catalog;
            this.allocator = allocator;
            this.rows = rows;
            try (CatalogSnapshot snapshot = catalog.latest()) {
                List<TableColumn> columns = snapshot.model().columns(snapshot.model().table("main", "t").orElseThrow()).columns();
                this.schema = InlinedArrowSchema.of(columns);
            }
        }

        double commitsPerSecond(int threads, int commits)
                throws Exception
        {
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                long landedBefore = landed.get();
                long start = System.nanoTime();
                List<Future<?>> writers = new ArrayList<>();
                for (int i = 0; i < threads; i++) {
                    int writer = threads * 100 + i;
                    writers.add(pool.submit(() -> {
                        for (int n = 0; n < commits; n++) {
                            commit(writer, n);
                        }
                        return null;
                    }));
                }
                for (Future<?> writer : writers) {
                    writer.get();
                }
                // Commits that landed: a transaction given up on after the core's retries is not counted.
                return (landed.get() - landedBefore) / ((System.nanoTime() - start) / 1e9);
            }
            finally {
                pool.shutdown();
                pool.awaitTermination(1, TimeUnit.MINUTES);
            }
        }

        private void commit(int writer, int n)
        {
            try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
                IntVector writers = (IntVector) root.getVector("writer");
                IntVector ns = (IntVector) root.getVector("n");
                VarCharVector notes = (VarCharVector) root.getVector("note");
                for (int i = 0; i < rows; i++) {
                    writers.setSafe(i, writer);
                    ns.setSafe(i, n);
                    notes.setSafe(i, ("row " + n + " of writer " + writer).getBytes(StandardCharsets.UTF_8));
                }
                root.setRowCount(rows);
                try {
                    WriteTransaction.begin(catalog).insertInlined("main", "t", root).commit();
                    committedRows.addAndGet(rows);
                    landed.incrementAndGet();
                }
                catch (CommitConflictException e) {
                    failures.incrementAndGet();
                }
            }
        }

        /** Fails unless the table holds every row of every commit that landed. */
        void checkRows()
        {
            try (CatalogSnapshot snapshot = catalog.latest()) {
                long recordCount = snapshot.tableStats(snapshot.model().table("main", "t").orElseThrow().id()).orElseThrow().getLong("record_count");
                if (recordCount != committedRows.get()) {
                    throw new IllegalStateException("the core's lake holds " + recordCount + " rows after commits of " + committedRows.get());
                }
            }
        }
    }

    private static double median(List<Double> values)
    {
        List<Double> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }

    private static double medianRatio(List<Double> core, List<Double> baseline)
    {
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < core.size(); i++) {
            ratios.add(core.get(i) / baseline.get(i));
        }
        return median(ratios);
    }
}
