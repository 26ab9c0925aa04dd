package io.moraine.bench;

import io.moraine.bench.trial.FaultProxy;
import io.moraine.cli.CommandLine;
import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.io.LakeFileSystem;
import io.moraine.core.scan.DataFileTask;
import io.moraine.core.scan.ScanBuilder;
import io.moraine.core.scan.ScanTask;
import io.moraine.core.scan.TaskStream;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreUri;
import io.moraine.core.tiny.TinyFilePublisher;
import io.moraine.cli.CommandLine;
import io.moraine.bench.trial.FaultProxy;
import io.moraine.importer.CatalogImporter;
import io.moraine.importer.DuckLakeSource;
import io.moraine.files.LakeFileSystems;
import io.moraine.importer.CatalogImporter;
import io.moraine.importer.DuckLakeSource;
import io.moraine.testing.DuckLakeOracle;
import io.moraine.testing.S3ProxyServer;
import io.moraine.testing.TinyFileLake;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.ParquetFileReader;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

/**
 * {@code bin/moraine bench tiny-files}: a count over a table of many single-row Parquet files written by DuckDB (inlining
 * off), its files on S3 (a local S3Proxy behind a request-counting proxy), read with the catalog's tiny-file copies
 * against reading the files: the core's scan planning, then every task's row groups read with parquet-java from
 * {@link DataFileTask#inputFile} (the copy or the file), 8 files at a time. Object-store requests and wall time per
 * count (median of the runs), the ratios, and how much the store grew when the copies were published. The store is on
 * local disk in both runs.
 */
public final class TinyFilesBenchmark
{
    private static final String ACCESS_KEY = "moraine-bench";
    private static final String SECRET_KEY = "moraine-bench-secret";
    private static final int CONCURRENCY = 8;

    private TinyFilesBenchmark() {}

    private record Count(long rows, long requests, double millis) {}

    public static void main(String[] args)
            throws Exception
    {
        CommandLine line = CommandLine.parse(args, Set.of("files", "runs", "dir"));
        int fileCount = line.intOption("files", 5_000);
        int runs = line.intOption("runs", 5);
        if (fileCount < 1 || runs < 1) {
            throw new IllegalArgumentException("--files and --runs must be positive");
        }
        Path work = line.option("dir").map(Path::of).orElse(Files.createTempDirectory("moraine-bench-tiny-files-")).toAbsolutePath();
        try (S3ProxyServer s3 = S3ProxyServer.startPrivate(ACCESS_KEY, SECRET_KEY);
                FaultProxy counter = new FaultProxy(s3.endpoint().getPort(), 0, 0, Duration.ZERO, Duration.ZERO);
                LakeFileSystems countedFiles = s3Files(counter.endpoint());
                LakeFileSystems publishing = s3Files(s3.endpoint().toString());
                ExecutorService pool = Executors.newFixedThreadPool(CONCURRENCY)) {
            long writeStart = System.nanoTime();
            String catalogCopy;
            Path data;
            try (DuckLakeOracle oracle = TinyFileLake.create(work.resolve("lake"), fileCount)) {
                catalogCopy = oracle.catalogCopy(work.resolve("catalog-copy.ducklake"));
                data = oracle.dataPath();
            }
            String bucket = s3.createBucket("tiny-files");
            s3.upload(bucket, data, "data/");
            StoreUri store = StoreUri.parse(work.resolve("store").toString());
            CatalogImporter.importCatalog(DuckLakeSource.parse(catalogCopy), store, Optional.of("s3://" + bucket + "/data/"), CatalogImporter.Progress.SILENT);
            double writeSeconds = (System.nanoTime() - writeStart) / 1e9;
            long storeBefore = directoryBytes(work.resolve("store"));
            TinyFilePublisher.Result published;
            long publishStart = System.nanoTime();
            try (MoraineCatalog catalog = MoraineCatalog.open(store, OpenMode.READ_WRITE)) {
                published = TinyFilePublisher.publish(catalog, publishing);
            }
            double publishSeconds = (System.nanoTime() - publishStart) / 1e9;
            long storeAfter = directoryBytes(work.resolve("store"));

            List<Count> withCopies = new ArrayList<>();
            List<Count> withoutCopies = new ArrayList<>();
            try (MoraineCatalog catalog = MoraineCatalog.open(store, OpenMode.READ_ONLY)) {
                // one warm-up each: the JIT and the HTTP connection pool
                count(catalog, true, counter, countedFiles, pool, fileCount);
                count(catalog, false, counter, countedFiles, pool, fileCount);
                for (int run = 0; run < runs; run++) {
                    withCopies.add(count(catalog, true, counter, countedFiles, pool, fileCount));
                    withoutCopies.add(count(catalog, false, counter, countedFiles, pool, fileCount));
                }
            }
            Count copies = median(withCopies);
            Count files = median(withoutCopies);
            System.out.printf("%,d single-row Parquet files written by DuckDB (inlining off) on S3Proxy; lake written and imported in %.1f s%n",
                    fileCount, writeSeconds);
            System.out.printf("published %,d copies (%,d bytes) in %.1f s; skipped %,d; the store grew from %,d to %,d bytes on disk (+%,d)%n",
                    published.published(), published.bytesWritten(), publishSeconds, published.skipped(), storeBefore, storeAfter, storeAfter - storeBefore);
            System.out.printf("count of table t (plan + read every file's row groups, %d files at a time); median of %d runs, each checked: %,d rows%n",
                    CONCURRENCY, runs, fileCount);
            System.out.printf("%-36s %14s %12s%n", "read", "S3 requests", "wall ms");
            print("from the catalog's copies", copies);
            print("from the files (copies off)", files);
            System.out.printf("copies: %s S3 requests instead of %,d, %.1fx less time than reading the files%n",
                    copies.requests() == 0 ? "no" : String.format("%,d", copies.requests()), files.requests(), files.millis() / copies.millis());
        }
        finally {
            if (line.option("dir").isEmpty() && Files.exists(work)) {
                DuckLakeCommitBenchmark.deleteTree(work);
            }
        }
    }

    private static Count count(MoraineCatalog catalog, boolean catalogCopies, FaultProxy counter, LakeFileSystem files, ExecutorService pool, int expected)
            throws Exception
    {
        counter.resetCounts();
        long start = System.nanoTime();
        List<Future<Long>> counts = new ArrayList<>();
        try (CatalogSnapshot snapshot = catalog.latest()) {
            long tableId = snapshot.model().table("main", "t").orElseThrow().id();
            try (TaskStream tasks = ScanBuilder.forTable(snapshot, tableId).withCatalogCopies(catalogCopies).build().planTasks()) {
                while (tasks.hasNext()) {
                    ScanTask task = tasks.next();
                    if (task instanceof DataFileTask file) {
                        counts.add(pool.submit(() -> rows(file, files)));
                    }
                }
            }
            long rows = 0;
            for (Future<Long> count : counts) {
                rows += count.get();
            }
            double millis = (System.nanoTime() - start) / 1e6;
            if (rows != expected) {
                throw new IllegalStateException("counted " + rows + " rows, the table holds " + expected);
            }
            long requests = counter.requestCounts().values().stream().mapToLong(Long::longValue).sum();
            return new Count(rows, requests, millis);
        }
    }

    /** The rows of the file's row groups, each read (column chunks and all). */
    private static long rows(DataFileTask file, LakeFileSystem files)
            throws Exception
    {
        long rows = 0;
        try (ParquetFileReader reader = io.moraine.core.io.ParquetReaders.open(file.inputFile(files))) {
            for (PageReadStore group = reader.readNextRowGroup(); group != null; group = reader.readNextRowGroup()) {
                rows += group.getRowCount();
            }
        }
        return rows;
    }

    private static Count median(List<Count> counts)
    {
        long[] requests = counts.stream().mapToLong(Count::requests).sorted().toArray();
        double[] millis = counts.stream().mapToDouble(Count::millis).sorted().toArray();
        int middle = counts.size() / 2;
        return new Count(counts.getFirst().rows(), requests[middle], millis[middle]);
    }

    private static void print(String source, Count count)
    {
        System.out.printf("%-36s %,14d %12.1f%n", source, count.requests(), count.millis());
    }

    private static long directoryBytes(Path directory)
            throws Exception
    {
        try (Stream<Path> paths = Files.walk(directory)) {
            return paths.filter(Files::isRegularFile).mapToLong(path -> {
                try {
                    return Files.size(path);
                }
                catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).sum();
        }
    }

    private static LakeFileSystems s3Files(String endpoint)
    {
        return LakeFileSystems.fromEnvironment(Map.of("AWS_ENDPOINT", endpoint, "AWS_ALLOW_HTTP", "true", "AWS_REGION", "us-east-1",
                "AWS_ACCESS_KEY_ID", ACCESS_KEY, "AWS_SECRET_ACCESS_KEY", SECRET_KEY));
    }
}
