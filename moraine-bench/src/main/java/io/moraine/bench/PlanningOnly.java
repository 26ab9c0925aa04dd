package io.moraine.bench;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.catalog.NewCatalog;
import io.moraine.core.catalog.SnapshotRows;
import io.moraine.core.changes.ChangeFeed;
import io.moraine.core.keyspace.Subspace;
import io.moraine.core.keyspace.SystemKeys;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.store.KeyValueCursor;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreUri;
import io.moraine.core.tx.StagedTransaction;
import io.moraine.testing.SyntheticCatalog;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The second part of {@code bench changes}: planning alone, on catalogs far larger than DuckDB writes in a benchmark's
 * time — one table of N and of scale × N data files (catalog rows only, ten per snapshot), then the same three
 * changes (a new file, a delete file on an old one, an old one retired). Planning opens no file, so none exists.
 */
final class PlanningOnly
{
    private static final long TABLE = 1;

    private PlanningOnly() {}

    static void run(Path work, int files, int scale, int repetitions)
            throws Exception
    {
        System.out.printf("== planning alone: the same 3 changes (1 insert, 1 delete file, 1 retired file) on a table of N data files (catalog rows only),"
                + " median of %d rounds%n", repetitions);
        int[] sizes = {files, files * scale};
        double[][] millis = new double[2][2];
        for (int i = 0; i < sizes.length; i++) {
            StoreUri indexed = StoreUri.parse(work.resolve(sizes[i] + "-indexed").toString());
            StoreUri older = StoreUri.parse(work.resolve(sizes[i] + "-format-2").toString());
            long[] range = write(indexed, sizes[i]);
            write(older, sizes[i]);
            stripIndex(older);
            try (MoraineCatalog withIndex = MoraineCatalog.open(indexed, OpenMode.READ_ONLY);
                    MoraineCatalog withoutIndex = MoraineCatalog.open(older, OpenMode.READ_ONLY)) {
                int tasks = plan(withIndex, range);
                if (tasks != plan(withoutIndex, range) || tasks != 3) {
                    throw new IllegalStateException("expected 3 tasks from both stores, got " + tasks + " and " + plan(withoutIndex, range));
                }
                long[][] nanos = new long[2][repetitions];
                for (int warmup = 0; warmup < Math.max(3, repetitions / 3); warmup++) {
                    plan(withIndex, range);
                    plan(withoutIndex, range);
                }
                for (int round = 0; round < repetitions; round++) {
                    for (int turn = 0; turn < 2; turn++) {
                        int which = (round + turn) % 2;
                        long started = System.nanoTime();
                        plan(which == 0 ? withIndex : withoutIndex, range);
                        nanos[which][round] = System.nanoTime() - started;
                    }
                }
                millis[i][0] = median(nanos[0]);
                millis[i][1] = median(nanos[1]);
            }
            System.out.printf("N = %7d files  format 3 (file-change index) %8.2f ms   format 2 (every file row) %8.2f ms%n", sizes[i], millis[i][0], millis[i][1]);
        }
        System.out.printf("ratio %dx/1x: with the index %.2fx   without it (format 2, the baseline) %.2fx%n", scale, millis[1][0] / millis[0][0],
                millis[1][1] / millis[0][1]);
    }

    private static int plan(MoraineCatalog catalog, long[] range)
    {
        try (CatalogSnapshot end = catalog.at(range[1])) {
            return ChangeFeed.forTable(end, TABLE, range[0]).planTasks().size();
        }
    }

    /** Writes the table and the three changes; returns the changes' range. */
    private static long[] write(StoreUri uri, int files)
    {
        int perSnapshot = 10;
        SyntheticCatalog rows = new SyntheticCatalog(files / perSnapshot + 1, perSnapshot, 1);
        try (MoraineCatalog catalog = MoraineCatalog.create(uri, new NewCatalog("/bench/planning/", false, false, NewCatalog.CREATED_BY))) {
            StagedTransaction load = catalog.begin(-1);
            rows.all().forEach(load::insert);
            load.insert(Row.of(TableKind.COLUMN, 1L, 1L, null, TABLE, 1L, "a", "int64", null, "NULL", true, null, "literal", "duckdb"));
            load.commit();
            long from = commit(catalog, (tx, snapshot, fileId) -> tx.insert(SyntheticCatalog.dataFile(fileId, TABLE, snapshot)));
            commit(catalog, (tx, snapshot, fileId) -> tx.insert(Row.of(TableKind.DELETE_FILE, fileId, TABLE, snapshot, null, (long) files / 2,
                    "ducklake-" + fileId + "-delete.parquet", true, "parquet", 1L, 500L, 100L, null, null)));
            long to = commit(catalog, (tx, snapshot, fileId) -> tx.endRow(TableKind.DATA_FILE, snapshot, TABLE, (long) files / 3));
            return new long[] {from, to};
        }
    }

    private interface Change
    {
        void stage(StagedTransaction tx, long snapshot, long nextFileId);
    }

    private static long commit(MoraineCatalog catalog, Change change)
    {
        Row next;
        long previous;
        long nextFileId;
        try (CatalogSnapshot head = catalog.latest()) {
            next = SnapshotRows.next(head.snapshotRow(), 0, 0, 1);
            previous = head.id();
            nextFileId = head.nextFileId();
        }
        long snapshot = previous + 1;
        StagedTransaction tx = catalog.begin(previous).insert(next).insert(SnapshotRows.changes(snapshot, "inserted_into_table:1"));
        change.stage(tx, snapshot, nextFileId);
        tx.commit();
        return snapshot;
    }

    /** Makes the store what a binary before the file-change index wrote: format version 2, no 0x06 entries. */
    static void stripIndex(StoreUri store)
    {
        try (MoraineCatalog catalog = MoraineCatalog.open(store, OpenMode.READ_WRITE)) {
            Map<ByteBuffer, byte[]> writes = new HashMap<>();
            try (KeyValueCursor entries = catalog.store().latest().scan(Subspace.FILE_CHANGES.start(), Subspace.FILE_CHANGES.end(), 1024)) {
                entries.forEachRemaining(entry -> writes.put(ByteBuffer.wrap(entry.key()), null));
            }
            writes.put(ByteBuffer.wrap(SystemKeys.FORMAT), SystemKeys.encodeFormat(2, "moraine-jvm " + MoraineCatalog.VERSION));
            catalog.store().write(writes);
        }
    }

    private static double median(long[] nanos)
    {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2] / 1e6;
    }
}
