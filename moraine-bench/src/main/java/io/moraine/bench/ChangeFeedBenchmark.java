package io.moraine.bench;

import io.moraine.cli.CommandLine;
import io.moraine.cli.cat.ChangeFeedReader;
import io.moraine.cli.cat.DecodedFiles;
import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.changes.ChangeFeed;
import io.moraine.core.changes.ChangeKind;
import io.moraine.core.io.LocalFileSystem;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreOptions;
import io.moraine.core.store.StoreReadListener;
import io.moraine.core.store.StoreUri;
import io.moraine.cli.CommandLine;
import io.moraine.cli.cat.ChangeFeedReader;
import io.moraine.cli.cat.DecodedFiles;
import io.moraine.importer.CatalogImporter;
import io.moraine.importer.DuckLakeSource;
import io.moraine.testing.DuckLakeOracle;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code bin/moraine bench changes}: the cost of a change feed over a fixed set of changes (inserts, deletes and updates
 * over a few snapshots) with the table at 1x and 10x its size in Parquet files, written by DuckDB + DuckLake and
 * imported. Times planning plus reading every change row (warm-up, then the median), with the file-change index
 * (format 3) and, as the baseline in the same run, the same store without it (format 2: planning reads every file row
 * of the table). Prints the 10x/1x ratios and the store reads of one planning.
 */
public final class ChangeFeedBenchmark
{

    private ChangeFeedBenchmark() {}

    public static void main(String[] args)
            throws Exception
    {
        CommandLine line = CommandLine.parse(args, Set.of("files", "scale", "rows-per-file", "repetitions", "planning-files"));
        int planningFiles = line.intOption("planning-files", 10_000);
        int files = line.intOption("files", 200);
        int scale = line.intOption("scale", 10);
        int rowsPerFile = Math.max(40, line.intOption("rows-per-file", 50));
        int repetitions = line.intOption("repetitions", 31);
        Path work = Files.createTempDirectory("moraine-bench-changes-");

        System.out.printf("== change feed over a fixed set of changes (3 inserts, 3 deletes, 3 updates, in 9 snapshots) on a table of N Parquet files"
                + " of %d rows; planning + reading every change row; the four stores measured in turn, %d rounds after warm-up, medians%n",
                rowsPerFile, repetitions);
        int[] sizes = {files, files * scale};
        List<Store> stores = new ArrayList<>();
        for (int size : sizes) {
            Lake lake = Lake.write(work.resolve("lake-" + size), size, rowsPerFile);
            stores.add(new Store(lake, size, true, lake.indexedStore()));
            stores.add(new Store(lake, size, false, lake.storeWithoutIndex()));
        }
        Map<Store, Measured> measured = measure(stores, repetitions);
        for (Store store : stores) {
            Measured result = measured.get(store);
            if (result.changeRows() != store.lake().duckdbChangeRows()) {
                throw new IllegalStateException("the feed read " + result.changeRows() + " change rows but DuckDB's ducklake_table_changes has "
                        + store.lake().duckdbChangeRows());
            }
            System.out.printf("N = %5d files  %-27s plan + read %8.2f ms   plan %7.2f ms   store reads of a planning: %3d gets %3d scans   %d change rows%n",
                    store.files(), store.indexed() ? "format 3 (file-change index)" : "format 2 (every file row)", result.millis(), result.planMillis(),
                    result.gets(), result.scans(), result.changeRows());
        }
        Measured indexed1 = measured.get(stores.get(0));
        Measured scanned1 = measured.get(stores.get(1));
        Measured indexed10 = measured.get(stores.get(2));
        Measured scanned10 = measured.get(stores.get(3));
        System.out.printf("ratio %dx/1x: with the index %.2fx (planning alone %.2fx)   without it (format 2, the baseline) %.2fx (planning alone %.2fx)%n",
                scale, indexed10.millis() / indexed1.millis(), indexed10.planMillis() / indexed1.planMillis(),
                scanned10.millis() / scanned1.millis(), scanned10.planMillis() / scanned1.planMillis());
        if (planningFiles > 0) {
            PlanningOnly.run(work.resolve("planning"), planningFiles, scale, repetitions);
        }
    }

    private record Store(Lake lake, int files, boolean indexed, StoreUri uri) {}

    private record Measured(double millis, double planMillis, long gets, long scans, long changeRows) {}

    /**
     * Round robin over the stores, so that the machine's load drifts over all of them alike: each round times one feed
     * read and one planning per store. Warm-up first: the JIT compiles the reader and the SlateDB binding's paths.
     */
    private static Map<Store, Measured> measure(List<Store> stores, int repetitions)
            throws Exception
    {
        Map<Store, Reads> reads = new HashMap<>();
        Map<Store, MoraineCatalog> catalogs = new HashMap<>();
        try {
            for (Store store : stores) {
                Reads counter = new Reads();
                reads.put(store, counter);
                catalogs.put(store, MoraineCatalog.open(store.uri(), OpenMode.READ_ONLY, StoreOptions.DEFAULTS.withReadListener(counter)));
            }
            Map<Store, Long> rows = new HashMap<>();
            for (int warmup = 0; warmup < Math.max(3, repetitions / 3); warmup++) {
                for (Store store : stores) {
                    rows.put(store, readFeed(catalogs.get(store), store.lake()));
                    for (int i = 0; i < 10; i++) {
                        plan(catalogs.get(store), store.lake());
                    }
                }
            }
            Map<Store, long[]> readNanos = new HashMap<>();
            Map<Store, long[]> planNanos = new HashMap<>();
            stores.forEach(store -> {
                readNanos.put(store, new long[repetitions]);
                planNanos.put(store, new long[repetitions]);
            });
            for (int round = 0; round < repetitions; round++) {
                // Each round starts at the next store, so no store always runs first (or after the same one).
                for (int turn = 0; turn < stores.size(); turn++) {
                    Store store = stores.get((round + turn) % stores.size());
                    long started = System.nanoTime();
                    readFeed(catalogs.get(store), store.lake());
                    readNanos.get(store)[round] = System.nanoTime() - started;
                    started = System.nanoTime();
                    plan(catalogs.get(store), store.lake());
                    planNanos.get(store)[round] = System.nanoTime() - started;
                }
            }
            Map<Store, Measured> measured = new HashMap<>();
            for (Store store : stores) {
                Reads counter = reads.get(store);
                counter.clear();
                plan(catalogs.get(store), store.lake());
                measured.put(store, new Measured(medianMillis(readNanos.get(store)), medianMillis(planNanos.get(store)), counter.gets.get(), counter.scans.get(),
                        rows.get(store)));
            }
            return measured;
        }
        finally {
            catalogs.values().forEach(MoraineCatalog::close);
        }
    }

    private static double medianMillis(long[] nanos)
    {
        long[] sorted = nanos.clone();
        java.util.Arrays.sort(sorted);
        return sorted[sorted.length / 2] / 1e6;
    }

    private static long plan(MoraineCatalog catalog, Lake lake)
    {
        try (CatalogSnapshot end = catalog.at(lake.end())) {
            return ChangeFeed.forTable(end, lake.tableId(catalog), lake.start()).planTasks().size();
        }
    }

    /** Plans the feed and reads every change row (insertions and deletions; table_changes pairs them without I/O). */
    private static long readFeed(MoraineCatalog catalog, Lake lake)
    {
        try (CatalogSnapshot end = catalog.at(lake.end())) {
            ChangeFeed feed = ChangeFeed.forTable(end, lake.tableId(catalog), lake.start());
            long[] rows = new long[2];
            new ChangeFeedReader(end, feed, LocalFileSystem.INSTANCE, DecodedFiles.none())
                    .read((kind, snapshotId, rowId, row) -> rows[kind == ChangeKind.INSERTION ? 0 : 1]++);
            return rows[0] + rows[1];
        }
    }

    /** A DuckLake table of N files, then the fixed changes; imported twice: as is, and stripped to format 2. */
    private record Lake(Path directory, long start, long end, long duckdbChangeRows)
    {
        static Lake write(Path directory, int files, int rowsPerFile)
                throws Exception
        {
            try (DuckLakeOracle oracle = DuckLakeOracle.create(directory.resolve("lake"), DuckLakeOracle.CatalogDatabase.DUCKDB)) {
                oracle.execute("CREATE TABLE lake.main.t (id BIGINT, v VARCHAR)");
                for (int file = 0; file < files; file++) {
                    oracle.execute("INSERT INTO lake.main.t SELECT " + file + " * " + rowsPerFile + " + i, 'v' || i FROM range(" + rowsPerFile + ") r(i)");
                }
                long start = head(oracle) + 1;
                long base = (long) files * rowsPerFile;
                for (int change = 0; change < 3; change++) {
                    long first = base + change * rowsPerFile;
                    oracle.execute("INSERT INTO lake.main.t SELECT " + first + " + i, 'new' FROM range(" + rowsPerFile + ") r(i)");
                    // Deletes and updates in files spread over the table: the first, a middle and the last old file.
                    long target = (long) (files - 1) * change / 2 * rowsPerFile;
                    // More rows than DuckLake inlines (10 by default), so that they are written as delete files and Parquet.
                    oracle.execute("DELETE FROM lake.main.t WHERE id BETWEEN " + target + " AND " + (target + 19));
                    oracle.execute("UPDATE lake.main.t SET v = 'updated' WHERE id BETWEEN " + (target + 25) + " AND " + (target + 39));
                }
                long end = head(oracle);
                long changeRows = Long.parseLong(oracle.query("SELECT count(*) FROM ducklake_table_changes('lake', 'main', 't', " + start + ", " + end + ")")
                        .getFirst().getFirst());
                String copy = oracle.catalogCopy(directory.resolve("catalog-copy.ducklake"));
                for (String name : List.of("store-indexed", "store-format-2")) {
                    CatalogImporter.importCatalog(DuckLakeSource.parse(copy), StoreUri.parse(directory.resolve(name).toString()), Optional.empty(),
                            CatalogImporter.Progress.SILENT);
                }
                Lake lake = new Lake(directory, start, end, changeRows);
                PlanningOnly.stripIndex(lake.storeWithoutIndex());
                return lake;
            }
        }

        StoreUri indexedStore()
        {
            return StoreUri.parse(directory.resolve("store-indexed").toString());
        }

        StoreUri storeWithoutIndex()
        {
            return StoreUri.parse(directory.resolve("store-format-2").toString());
        }

        long tableId(MoraineCatalog catalog)
        {
            try (CatalogSnapshot snapshot = catalog.at(end)) {
                return snapshot.model().table("main", "t").orElseThrow().id();
            }
        }

        private static long head(DuckLakeOracle oracle)
                throws Exception
        {
            return Long.parseLong(oracle.query("SELECT max(snapshot_id) FROM ducklake_snapshots('lake')").getFirst().getFirst());
        }
    }

    /** Counts the store reads of a planning: point reads and range scans. */
    private static final class Reads
            implements StoreReadListener
    {
        final AtomicLong gets = new AtomicLong();
        final AtomicLong scans = new AtomicLong();

        @Override
        public void pointRead(byte[] key)
        {
            gets.incrementAndGet();
        }

        @Override
        public void rangeScan(byte[] start, byte[] end)
        {
            scans.incrementAndGet();
        }

        void clear()
        {
            gets.set(0);
            scans.set(0);
        }
    }
}
