package io.moraine.bench;

import io.moraine.cli.CommandLine;
import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.catalog.NewCatalog;
import io.moraine.core.inline.read.InlineBatch;
import io.moraine.core.inline.read.InlineReader;
import io.moraine.core.inline.read.InlineScan;
import io.moraine.core.inline.read.InlineSelection;
import io.moraine.core.row.Row;
import io.moraine.core.catalog.SnapshotRows;
import io.moraine.core.inline.InlineArrow;
import io.moraine.core.io.LakeFileSystem;
import io.moraine.core.keyspace.InlineKeys;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.store.StoreUri;
import io.moraine.core.tx.StagedTransaction;
import io.moraine.cli.CommandLine;
import io.moraine.importer.DuckDbConnections;
import io.moraine.files.LakeFileSystems;
import io.moraine.importer.DuckDbConnections;
import io.moraine.inline.flush.InlineFlusher;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * {@code bin/moraine bench inline}: (a) scanning N inlined rows ÷ scanning the same rows flushed to one Parquet file
 * (DuckDB's Parquet reader on one thread), (b) small inlined commits per second ÷ small commits that each write a
 * Parquet file (DuckDB's COPY) on the same store, (c) chunk decoding in rows per second on one core.
 */
public final class InlineBenchmark
{
    private static final Schema SCHEMA = new Schema(List.of(
            new Field("id", FieldType.nullable(new ArrowType.Int(64, true)), null),
            new Field("name", FieldType.nullable(ArrowType.Utf8.INSTANCE), null),
            new Field("amount", FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)), null)));

    private InlineBenchmark() {}

    public static void main(String[] args)
            throws Exception
    {
        CommandLine line = CommandLine.parse(args, Set.of("rows", "chunk-rows", "commits", "writers", "repetitions", "warmup-seconds", "s3proxy"));
        int rows = line.intOption("rows", 1_000_000);
        int chunkRows = line.intOption("chunk-rows", 1000);
        int commits = line.intOption("commits", 1000);
        int writers = line.intOption("writers", 8);
        int repetitions = line.intOption("repetitions", 5);
        Duration warmup = Duration.ofSeconds(line.intOption("warmup-seconds", 10));
        Path work = Files.createTempDirectory("moraine-bench-inline-");
        try (BufferAllocator allocator = new RootAllocator()) {
            scanVersusParquet(work, allocator, rows, chunkRows, repetitions, warmup);
            for (int concurrency : writers > 1 ? List.of(1, writers) : List.of(1)) {
                commitsVersusParquetFiles(work, allocator, commits, warmup, CommitTarget.local(work, concurrency));
                if (line.flag("s3proxy")) {
                    commitsVersusParquetFiles(work, allocator, commits, warmup, CommitTarget.s3Proxy(concurrency));
                }
            }
            decodeRate(allocator, chunkRows);
        }
        finally {
            if (line.flag("s3proxy")) {
                io.moraine.testing.S3ProxyServer.sharedUnchecked().close();
            }
        }
    }

    private static void scanVersusParquet(Path work, BufferAllocator allocator, int rows, int chunkRows, int repetitions, Duration warmup)
            throws Exception
    {
        StoreUri uri = StoreUri.parse(work.resolve("scan").toString());
        try (MoraineCatalog catalog = createTable(uri, work.resolve("scan-data"))) {
            StagedTransaction load = catalog.begin(1).insert(snapshot(2, 0)).insert(changes(2, "inlined_insert:1"));
            for (int start = 0; start < rows; start += chunkRows) {
                try (VectorSchemaRoot chunk = batch(allocator, start, Math.min(chunkRows, rows - start))) {
                    load.insertInlined(1, 1, 2, start, chunk);
                }
            }
            load.commit();
            double inline = median(warmup, repetitions, () -> inlineScanChecksum(catalog, allocator, Optional.empty()));
            io.moraine.core.inline.read.ChunkBodyCache cache = new io.moraine.core.inline.read.ChunkBodyCache(256L << 20);
            double cached = median(warmup, repetitions, () -> inlineScanChecksum(catalog, allocator, Optional.of(cache)));
            List<InlineFlusher.FlushedFile> flushed;
            try (LakeFileSystems files = LakeFileSystems.fromEnvironment(System.getenv())) {
                flushed = InlineFlusher.flush(catalog, Optional.empty(), files);
            }
            String parquet = flushed.getFirst().dataFile().toString();
            try (Connection duckdb = DuckDbConnections.open("", "ducklake"); Statement statement = duckdb.createStatement()) {
                statement.execute("SET threads = 1");
                double parquetMillis = median(warmup, repetitions, () -> {
                    try (ResultSet result = statement.executeQuery("SELECT sum(id) + sum(length(name)) + sum(amount)::BIGINT FROM read_parquet('" + parquet + "')")) {
                        result.next();
                        return result.getLong(1);
                    }
                });
                System.out.printf("== (a) scan %,d rows (id, name, amount) in %,d chunks: Parquet file via DuckDB (1 thread) %8.1f ms%n",
                        rows, (rows + chunkRows - 1) / chunkRows, parquetMillis);
                System.out.printf("       inline, bodies read from the store %8.1f ms   ratio inline/Parquet %.2fx (goal <= 1.5x)%n", inline, inline / parquetMillis);
                System.out.printf("       inline, bodies from a warm chunk cache %8.1f ms   ratio inline/Parquet %.2fx (goal <= 1.5x)%n", cached, cached / parquetMillis);
            }
        }
    }

    private static long inlineScanChecksum(MoraineCatalog catalog, BufferAllocator allocator, Optional<io.moraine.core.inline.read.ChunkBodyCache> cache)
    {
        long checksum = 0;
        try (CatalogSnapshot snapshot = catalog.latest();
                InlineScan scan = cache.isPresent()
                        ? InlineReader.scan(snapshot.reader(), 1, new InlineSelection.AtSnapshot(snapshot.id()), Optional.empty(), 65536, allocator, cache.get())
                        : InlineReader.scan(snapshot.reader(), 1, new InlineSelection.AtSnapshot(snapshot.id()), Optional.empty(), 65536, allocator)) {
            while (scan.hasNext()) {
                InlineBatch batch = scan.next();
                BigIntVector ids = (BigIntVector) batch.root().getVector("id");
                VarCharVector names = (VarCharVector) batch.root().getVector("name");
                Float8Vector amounts = (Float8Vector) batch.root().getVector("amount");
                double amount = 0;
                for (int i = 0; i < batch.root().getRowCount(); i++) {
                    checksum += ids.get(i) + names.getValueLength(i);
                    amount += amounts.get(i);
                }
                checksum += (long) amount;
            }
        }
        return checksum;
    }

    /** Where (b) commits: the store, and the table directory its Parquet-writing commits write their files into. */
    private record CommitTarget(String label, int writers, StoreUri store, String dataPath)
    {
        static CommitTarget local(Path work, int writers)
                throws java.io.IOException
        {
            Path data = work.resolve("commit-data-" + writers);
            Files.createDirectories(data.resolve("main/t"));
            return new CommitTarget("file://", writers, StoreUri.parse(work.resolve("commits-" + writers).toString()), data + "/");
        }

        /** Store and data files in a local S3Proxy (bin/moraine --s3proxy sets the environment SlateDB reads). */
        static CommitTarget s3Proxy(int writers)
        {
            String bucket = io.moraine.testing.S3ProxyServer.sharedUnchecked().createBucket("moraine-bench-" + writers);
            return new CommitTarget("s3:// (S3Proxy)", writers, StoreUri.parse("s3://" + bucket + "/catalog"), "s3://" + bucket + "/data/");
        }

        String tablePath()
        {
            return dataPath + "main/t/";
        }
    }

    /**
     * (b) Appends of 10 rows to one table, by {@code writers} threads at once, each commit durable before it returns:
     * inlined, then each writing a Parquet file into the lake first (DuckDB's COPY, one connection per writer, then the
     * file system of the lake's data path). Concurrent commits rebase onto each other as DuckLake's do, and share
     * write-ahead-log flushes (group commit).
     */
    private static void commitsVersusParquetFiles(Path work, BufferAllocator allocator, int commits, Duration warmup, CommitTarget target)
            throws Exception
    {
        int writers = target.writers();
        try (MoraineCatalog catalog = createTable(target.store(), target.dataPath()); LakeFileSystems lakeFiles = LakeFileSystems.fromEnvironment(System.getenv())) {
            Append inlined = duckdb -> appendInlined(catalog, allocator);
            Append parquetFile = duckdb -> appendParquetFile(catalog, duckdb, work, lakeFiles, target.tablePath());
            ConnectionFactory noConnection = () -> null;
            ConnectionFactory duckdbConnection = () -> DuckDbConnections.open("", "ducklake");
            // Warm both paths up first (JIT, DuckDB's first COPY), so neither pays for compilation in its figure.
            warmUp(warmup, writers, noConnection, inlined);
            warmUp(warmup, writers, duckdbConnection, parquetFile);
            CommitRate inline = commitRate(commits, writers, noConnection, inlined);
            CommitRate parquet = commitRate(commits, writers, duckdbConnection, parquetFile);
            System.out.printf("== (b) %d commits of 10 rows on %s, %d writer%s: inlined %8.1f commits/s (%.2f ms CPU each)   each writing a Parquet file "
                    + "%8.1f commits/s (%.2f ms CPU each)   ratio %.2fx (goal >= 5x)%n", commits, target.label(), writers, writers == 1 ? "" : "s",
                    inline.perSecond(), inline.cpuMillisEach(), parquet.perSecond(), parquet.cpuMillisEach(), inline.perSecond() / parquet.perSecond());
        }
    }

    private interface Append
    {
        void run(Connection duckdb)
                throws Exception;
    }

    private interface ConnectionFactory
    {
        Connection open()
                throws Exception;
    }

    private static void warmUp(Duration warmup, int writers, ConnectionFactory connections, Append append)
            throws Exception
    {
        long deadline = System.nanoTime() + warmup.toNanos();
        do {
            commitRate(200, writers, connections, append);
        }
        while (System.nanoTime() < deadline);
    }

    /** Commits per second, and the process's CPU time per commit (every thread, native ones included). */
    private record CommitRate(double perSecond, double cpuMillisEach) {}

    private static CommitRate commitRate(int commits, int writers, ConnectionFactory connections, Append append)
            throws Exception
    {
        com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        java.util.concurrent.atomic.AtomicInteger remaining = new java.util.concurrent.atomic.AtomicInteger(commits);
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(writers);
        try {
            long started = System.nanoTime();
            long cpuStarted = os.getProcessCpuTime();
            List<java.util.concurrent.Future<Void>> done = new java.util.ArrayList<>();
            for (int w = 0; w < writers; w++) {
                done.add(pool.submit(() -> {
                    try (Connection duckdb = connections.open()) {
                        while (remaining.getAndDecrement() > 0) {
                            append.run(duckdb);
                        }
                    }
                    return null;
                }));
            }
            for (java.util.concurrent.Future<Void> writer : done) {
                writer.get();
            }
            double seconds = (System.nanoTime() - started) / 1e9;
            return new CommitRate(commits / seconds, (os.getProcessCpuTime() - cpuStarted) / 1e6 / commits);
        }
        finally {
            pool.shutdownNow();
        }
    }

    private static void appendInlined(MoraineCatalog catalog, BufferAllocator allocator)
    {
        try (CatalogSnapshot read = catalog.latest()) {
            Row stats = read.tableStats(1).orElseThrow();
            long firstRowId = stats.getLong("next_row_id");
            long snapshot = read.id() + 1;
            try (VectorSchemaRoot rows = batch(allocator, firstRowId, 10)) {
                catalog.begin(read.id()).insert(snapshot(snapshot, read.nextFileId()))
                        .insert(changes(snapshot, "inlined_insert:1"))
                        .insertInlined(1, 1, snapshot, firstRowId, rows)
                        .update(stats, Map.of("record_count", stats.getLong("record_count") + 10, "next_row_id", firstRowId + 10))
                        .commit();
            }
        }
    }

    private static void appendParquetFile(MoraineCatalog catalog, Connection duckdb, Path work, LakeFileSystem lakeFiles, String tablePath)
            throws Exception
    {
        try (CatalogSnapshot read = catalog.latest(); Statement statement = duckdb.createStatement()) {
            Row stats = read.tableStats(1).orElseThrow();
            long firstRowId = stats.getLong("next_row_id");
            long snapshot = read.id() + 1;
            long fileId = read.nextFileId();
            String name = "ducklake-" + UUID.randomUUID() + ".parquet";
            Path written = work.resolve(name);
            statement.execute("COPY (SELECT i AS id, 'name-' || i AS name, i * 0.5 AS amount FROM range(" + firstRowId + ", " + (firstRowId + 10)
                    + ") t(i)) TO '" + written + "' (FORMAT parquet)");
            long size = Files.size(written);
            try (var out = lakeFiles.newOutputFile(tablePath + name).create(0)) {
                Files.copy(written, out);
            }
            Files.delete(written);
            catalog.begin(read.id()).insert(snapshot(snapshot, fileId + 1)).insert(changes(snapshot, "inserted_into_table:1"))
                    .insert(Row.of(TableKind.DATA_FILE, fileId, 1L, snapshot, null, null, name, true, "parquet", 10L, size, null,
                            firstRowId, null, null, null, null))
                    .update(stats, Map.of("record_count", stats.getLong("record_count") + 10, "next_row_id", firstRowId + 10))
                    .commit();
        }
    }

    private static void decodeRate(BufferAllocator allocator, int chunkRows)
    {
        byte[] body;
        try (VectorSchemaRoot rows = batch(allocator, 0, chunkRows)) {
            body = InlineArrow.encodeChunk(0, rows);
        }
        byte[] key = InlineKeys.insert(new io.moraine.core.inline.ChunkId(1, 1, 1, 0));
        long decoded = 0;
        long deadline = System.nanoTime() + 2_000_000_000L;
        long started = System.nanoTime();
        while (System.nanoTime() < deadline) {
            try (VectorSchemaRoot root = InlineArrow.decodeChunk(key, body, SCHEMA, allocator)) {
                decoded += root.getRowCount();
            }
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        System.out.printf("== (c) decode: %,.0f rows/s on one core (chunks of %,d rows, %,d bytes each)%n", decoded / seconds, chunkRows, body.length);
    }

    private static MoraineCatalog createTable(StoreUri uri, Path dataPath)
    {
        return createTable(uri, dataPath.toString());
    }

    private static MoraineCatalog createTable(StoreUri uri, String dataPath)
    {
        MoraineCatalog catalog = MoraineCatalog.create(uri, NewCatalog.bootstrapped(dataPath));
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        catalog.begin(0)
                .insert(Row.of(TableKind.SNAPSHOT, 1L, now, 1L, 2L, 0L))
                .insert(changes(1, "created_table:\"main\".\"t\""))
                .insert(Row.of(TableKind.TABLE, 1L, UUID.randomUUID(), 1L, null, 0L, "t", "t/", true))
                .insert(column(1, "id", "int64"))
                .insert(column(2, "name", "varchar"))
                .insert(column(3, "amount", "float64"))
                .insert(Row.of(TableKind.TABLE_STATS, 1L, 0L, 0L, 0L))
                .insert(Row.of(TableKind.SCHEMA_VERSIONS, 1L, 1L, 1L))
                .registerInlinedTable(1, 1, SCHEMA)
                .commit();
        return catalog;
    }

    private static Row column(long id, String name, String type)
    {
        return Row.of(TableKind.COLUMN, id, 1L, null, 1L, id, name, type, null, "NULL", true, null, "literal", "duckdb");
    }

    private static Row snapshot(long id, long nextFileId)
    {
        return Row.of(TableKind.SNAPSHOT, id, Instant.now().truncatedTo(ChronoUnit.MICROS), 1L, 2L, nextFileId);
    }

    private static Row changes(long id, String changes)
    {
        return SnapshotRows.changes(id, changes);
    }

    private static VectorSchemaRoot batch(BufferAllocator allocator, long firstId, int count)
    {
        VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
        root.allocateNew();
        BigIntVector ids = (BigIntVector) root.getVector("id");
        VarCharVector names = (VarCharVector) root.getVector("name");
        Float8Vector amounts = (Float8Vector) root.getVector("amount");
        for (int i = 0; i < count; i++) {
            ids.setSafe(i, firstId + i);
            names.setSafe(i, ("name-" + (firstId + i)).getBytes(StandardCharsets.UTF_8));
            amounts.setSafe(i, (firstId + i) * 0.5);
        }
        root.setRowCount(count);
        return root;
    }

    private static double median(Duration warmup, int repetitions, Timing.Measured measured)
            throws Exception
    {
        return Timing.medianMillisAfterWarmup(warmup, repetitions, measured);
    }
}
