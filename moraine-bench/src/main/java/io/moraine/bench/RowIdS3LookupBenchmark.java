package io.moraine.bench;

import io.moraine.bench.trial.FaultProxy;
import io.moraine.cli.CommandLine;
import io.moraine.core.io.LakeFileSystem;
import io.moraine.files.LakeFileSystems;
import io.moraine.sidecars.rowsum.DataFileIdentity;
import io.moraine.sidecars.rowsum.EmbeddedRowIds;
import io.moraine.sidecars.rowsum.RowSummaryMetrics;
import io.moraine.sidecars.rowsum.RowSummaryReader;
import io.moraine.sidecars.rowsum.RowSummaryWriter;
import io.moraine.testing.S3ProxyServer;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * {@code bin/moraine bench rowsum-s3}: one {@code $row_id} point lookup across many data files on S3 (a local
 * S3Proxy behind a request-counting proxy). Every file holds one row id in each run of {@code --spread} consecutive
 * ids, in hash order (as {@code bench rowsum}'s file), so every file spans the same id range and no footer statistic rules one out; an id is in
 * {@code files / spread} files, as a row id rewritten by several updates is (with {@code --spread} equal to
 * {@code --files} every id is in exactly one file). Which files hold the id is answered from each file's
 * {@code .rowsum} sidecar (header and set, one ranged read) against reading each file's row-id column. Both read the
 * files 8 at a time; requests, bytes, wall time and the asking threads' CPU time per lookup (S3Proxy's own threads
 * are not counted), median over the lookups, and the ratios.
 */
public final class RowIdS3LookupBenchmark
{
    private static final String ACCESS_KEY = "moraine-bench";
    private static final String SECRET_KEY = "moraine-bench-secret";
    private static final int CONCURRENCY = 8;

    private RowIdS3LookupBenchmark() {}

    /** One lookup: object-store requests, bytes handed the readers, wall time, and the CPU time of the threads asking the files. */
    private record Lookup(long requests, long bytes, double millis, double cpuMillis) {}

    private interface FileTest
    {
        boolean holds(LakeFileSystem files, DataFileIdentity file, long rowId)
                throws Exception;
    }

    public static void main(String[] args)
            throws Exception
    {
        CommandLine line = CommandLine.parse(args, Set.of("files", "rows-per-file", "ids", "spread", "lookups", "dir"));
        int fileCount = line.intOption("files", 300);
        if (line.option("ids").isPresent() && line.option("rows-per-file").isPresent()) {
            throw new IllegalArgumentException("--ids is the old name of --rows-per-file; give one of them");
        }
        int ids = line.option("ids").isPresent() ? line.intOption("ids", 20_000) : line.intOption("rows-per-file", 20_000);
        int spread = line.intOption("spread", 10);
        int lookups = line.intOption("lookups", 9);
        if (fileCount < 1 || ids < 1 || spread < 1 || lookups < 1) {
            throw new IllegalArgumentException("--files, --rows-per-file, --spread and --lookups must be positive");
        }
        IdLayout layout = new IdLayout(fileCount, ids, spread);
        Path work = line.option("dir").map(Path::of).orElse(Files.createTempDirectory("moraine-bench-rowsum-s3-")).toAbsolutePath();
        Path local = work.resolve("data");
        Files.createDirectories(local);
        long writeStart = System.nanoTime();
        writeDataFiles(local, layout);
        System.err.printf("wrote %,d data files of %,d rows in %.0f s%n", fileCount, ids, (System.nanoTime() - writeStart) / 1e9);
        try (S3ProxyServer s3 = S3ProxyServer.startPrivate(ACCESS_KEY, SECRET_KEY, work.resolve("s3"));
                FaultProxy counter = new FaultProxy(s3.endpoint().getPort(), 0, 0, Duration.ZERO, Duration.ZERO);
                LakeFileSystems lakeFiles = s3Files(counter.endpoint());
                // publishing (PUTs) goes to S3Proxy directly: only the lookups are counted
                LakeFileSystems publishing = s3Files(s3.endpoint().toString());
                ExecutorService pool = Executors.newFixedThreadPool(CONCURRENCY)) {
            String bucket = s3.createBucket("rowsum-s3");
            s3.upload(bucket, local, "data/");
            List<DataFileIdentity> files = new ArrayList<>();
            for (int k = 0; k < fileCount; k++) {
                Path file = local.resolve(fileName(k));
                files.add(new DataFileIdentity(1, k, "s3://" + bucket + "/data/" + fileName(k), Files.size(file)));
            }
            long sidecarBytes = 0;
            long publishStart = System.nanoTime();
            for (DataFileIdentity file : files) {
                sidecarBytes += RowSummaryWriter.write(publishing, file, EmbeddedRowIds.derive(publishing, file));
            }
            System.err.printf("uploaded and published in %.0f s%n", (System.nanoTime() - publishStart) / 1e9);

            Random random = new Random(42);
            long[] targets = new long[lookups];
            for (int i = 0; i < lookups; i++) {
                targets[i] = (long) random.nextInt(ids) * spread + random.nextInt(spread);
            }
            FileTest bySidecar = (files1, file, rowId) -> new RowSummaryReader(files1, new RowSummaryMetrics()).open(file).orElseThrow(
                    () -> new IllegalStateException("no usable sidecar for " + file.path())).set().contains(rowId);
            FileTest byColumn = (files1, file, rowId) -> Arrays.stream(EmbeddedRowIds.read(files1, file)).anyMatch(id -> id == rowId);
            // one warm-up lookup each: the JIT and the HTTP connection pool
            lookup(pool, counter, lakeFiles, files, targets[0], layout, bySidecar);
            lookup(pool, counter, lakeFiles, files, targets[0], layout, byColumn);
            List<Lookup> sidecar = new ArrayList<>();
            List<Lookup> column = new ArrayList<>();
            for (long target : targets) {
                sidecar.add(lookup(pool, counter, lakeFiles, files, target, layout, bySidecar));
                column.add(lookup(pool, counter, lakeFiles, files, target, layout, byColumn));
            }
            Lookup withSidecars = median(sidecar);
            Lookup withoutSidecars = median(column);
            long dataBytes = files.stream().mapToLong(DataFileIdentity::fileSize).sum();
            System.out.printf("%,d data files on S3Proxy (%,d bytes), each %,d sparse row ids over a %,d range, in hash order (an id in %,d files); %,d bytes of sidecars%n",
                    fileCount, dataBytes, ids, (long) ids * spread, layout.holdersPerId(), sidecarBytes);
            System.out.printf("one $row_id point lookup over every file, %d at a time; median of %d lookups (each checked: exactly the files holding the id)%n",
                    CONCURRENCY, lookups);
            System.out.printf("%-36s %12s %16s %12s %12s%n", "which files hold the id", "requests", "bytes read", "wall ms", "CPU ms");
            print("from the .rowsum sidecars", withSidecars);
            print("from the row-id columns", withoutSidecars);
            System.out.printf("sidecars: %.1fx fewer requests, %.1fx fewer bytes, %.1fx less time, %.1fx less CPU than reading the row-id columns%n",
                    (double) withoutSidecars.requests() / withSidecars.requests(), (double) withoutSidecars.bytes() / withSidecars.bytes(),
                    withoutSidecars.millis() / withSidecars.millis(), withoutSidecars.cpuMillis() / withSidecars.cpuMillis());
        }
        finally {
            if (Files.exists(work)) {
                DuckLakeCommitBenchmark.deleteTree(work);
            }
        }
    }

    private static LakeFileSystems s3Files(String endpoint)
    {
        return LakeFileSystems.fromEnvironment(Map.of("AWS_ENDPOINT", endpoint, "AWS_ALLOW_HTTP", "true", "AWS_REGION", "us-east-1",
                "AWS_ACCESS_KEY_ID", ACCESS_KEY, "AWS_SECRET_ACCESS_KEY", SECRET_KEY));
    }

    private static Lookup lookup(ExecutorService pool, FaultProxy counter, LakeFileSystem lakeFiles, List<DataFileIdentity> files, long rowId,
            IdLayout layout, FileTest test)
            throws Exception
    {
        CountingFileSystem counted = new CountingFileSystem(lakeFiles);
        counter.resetCounts();
        long start = System.nanoTime();
        List<Future<Boolean>> answers = new ArrayList<>();
        java.util.concurrent.atomic.LongAdder cpuNanos = new java.util.concurrent.atomic.LongAdder();
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        for (DataFileIdentity file : files) {
            answers.add(pool.submit(() -> {
                long cpuStart = threads.getCurrentThreadCpuTime();
                try {
                    return test.holds(counted, file, rowId);
                }
                finally {
                    cpuNanos.add(threads.getCurrentThreadCpuTime() - cpuStart);
                }
            }));
        }
        List<Long> holding = new ArrayList<>();
        for (int k = 0; k < answers.size(); k++) {
            if (answers.get(k).get()) {
                holding.add(files.get(k).dataFileId());
            }
        }
        double millis = (System.nanoTime() - start) / 1e6;
        if (!holding.equals(layout.filesHolding(rowId))) {
            throw new IllegalStateException("row id " + rowId + " is in files " + layout.filesHolding(rowId) + ", the lookup found " + holding);
        }
        long requests = counter.requestCounts().values().stream().mapToLong(Long::longValue).sum();
        return new Lookup(requests, counted.bytesRead(), millis, cpuNanos.sum() / 1e6);
    }

    private static Lookup median(List<Lookup> lookups)
    {
        long[] requests = lookups.stream().mapToLong(Lookup::requests).sorted().toArray();
        long[] bytes = lookups.stream().mapToLong(Lookup::bytes).sorted().toArray();
        double[] millis = lookups.stream().mapToDouble(Lookup::millis).sorted().toArray();
        double[] cpu = lookups.stream().mapToDouble(Lookup::cpuMillis).sorted().toArray();
        int middle = lookups.size() / 2;
        return new Lookup(requests[middle], bytes[middle], millis[middle], cpu[middle]);
    }

    private static void print(String source, Lookup lookup)
    {
        System.out.printf("%-36s %,12d %,16d %12.1f %12.1f%n", source, lookup.requests(), lookup.bytes(), lookup.millis(), lookup.cpuMillis());
    }

    private static String fileName(int k)
    {
        return "rewrite-" + k + ".parquet";
    }

    /**
     * File k holds, in each run b of {@code spread} consecutive ids, the id at offset {@code (7b + k) mod spread}: one id
     * in every {@code spread}, a different one in each file of a run of {@code spread} files.
     */
    private record IdLayout(int files, int rowsPerFile, int spread)
    {
        /** The DuckDB expression of file k's id for the row i in {@code range(rowsPerFile)}. */
        String idExpression(int k)
        {
            return "(i * " + spread + " + (i * 7 + " + k + ") % " + spread + ")::BIGINT";
        }

        List<Long> filesHolding(long rowId)
        {
            long run = rowId / spread;
            long offset = rowId % spread;
            List<Long> holders = new ArrayList<>();
            for (int k = 0; k < files; k++) {
                if ((run * 7 + k) % spread == offset) {
                    holders.add((long) k);
                }
            }
            return holders;
        }

        int holdersPerId()
        {
            return filesHolding(0).size();
        }
    }

    /** Each file's ids in hash order (an update rewrite's shape, as {@code bench rowsum}'s file) beside two user columns. */
    private static void writeDataFiles(Path directory, IdLayout layout)
            throws Exception
    {
        try (Connection duckdb = DriverManager.getConnection("jdbc:duckdb:"); Statement statement = duckdb.createStatement()) {
            for (int k = 0; k < layout.files(); k++) {
                statement.execute("COPY (SELECT " + layout.idExpression(k) + " AS _ducklake_internal_row_id, i AS c1, "
                        + "'value ' || i AS c2 FROM range(" + layout.rowsPerFile() + ") t(i) ORDER BY hash(i + " + k + ")) TO '"
                        + directory.resolve(fileName(k)).toString().replace("'", "''") + "' (FORMAT parquet, FIELD_IDS "
                        + "{_ducklake_internal_row_id: 2147483540, c1: 1, c2: 2})");
            }
        }
    }
}
