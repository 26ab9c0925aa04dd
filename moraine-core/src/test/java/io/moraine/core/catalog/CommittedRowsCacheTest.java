package io.moraine.core.catalog;

import io.moraine.core.row.InsertionOrder;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.store.KeyValueCursor;
import io.moraine.core.store.KeyValueReader;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreUri;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static io.moraine.core.catalog.CatalogTestSupport.changes;
import static io.moraine.core.catalog.CatalogTestSupport.dataFile;
import static io.moraine.core.catalog.CatalogTestSupport.head;
import static io.moraine.core.catalog.CatalogTestSupport.memoryStore;
import static io.moraine.core.catalog.CatalogTestSupport.newCatalog;
import static io.moraine.core.catalog.CatalogTestSupport.nextSnapshot;
import static io.moraine.core.catalog.CatalogTestSupport.scan;
import static io.moraine.core.catalog.CatalogTestSupport.table;
import static io.moraine.core.catalog.CatalogTestSupport.tableStats;
import static io.moraine.core.store.CommittedRowsCache.VERSIONS_PER_KIND;
import static org.assertj.core.api.Assertions.assertThat;

/** {@link MoraineCatalog#everyRow}: kept rows equal a fresh scan (in insertion order) after every kind of change, and unchanged kinds cost no scan. */
class CommittedRowsCacheTest
{
    private static final List<TableKind> KINDS = List.of(TableKind.SNAPSHOT, TableKind.SNAPSHOT_CHANGES, TableKind.TABLE,
            TableKind.DATA_FILE, TableKind.TABLE_STATS, TableKind.METADATA);

    @TempDir
    Path temp;

    @Test
    void rowsFollowThisHandlesCommitsWithoutScanning()
    {
        try (MoraineCatalog catalog = newCatalog(memoryStore("rows-cache"))) {
            int comparisons = assertEveryKindEqualsAScan(catalog, catalog);
            Row previous = head(catalog);
            long[] files = {0};
            for (int i = 1; i <= 4; i++) {
                Row next = nextSnapshot(previous, i == 1 ? 1 : 0, i == 1 ? 1 : 0, 1);
                long snapshot = next.getLong("snapshot_id");
                var transaction = catalog.begin(previous.getLong("snapshot_id")).insert(next).insert(changes(snapshot, "inserted_into_table:1"))
                        .insert(dataFile(1, files[0]++, snapshot, 10L * i, 10));
                if (i == 1) {
                    transaction.insert(table(1, 0, "t", snapshot)).insert(tableStats(1, 10, 10, 100));
                }
                else {
                    transaction.update(TableKind.TABLE_STATS, Map.of("record_count", 10L * i), 1L);
                }
                if (i == 3) {
                    transaction.endRow(TableKind.DATA_FILE, snapshot, 1L, 0L); // a current row moves to history
                }
                if (i == 4) {
                    transaction.delete(TableKind.SNAPSHOT_CHANGES, 1L);
                }
                transaction.commit();
                previous = next;

                comparisons += assertKeptRowsEqualAScanWithoutScanning(catalog, i);
            }
            assertThat(comparisons).isEqualTo(KINDS.size() + 4 * (KINDS.size() - 1));
        }
    }

    /** Writes that land between kept rows, at both ends, and move rows to history, many to a commit. */
    @Test
    void rowsWrittenAnywhereInTheKeyOrderAreCarriedForwardInPlace()
    {
        try (MoraineCatalog catalog = newCatalog(memoryStore("rows-cache-splices"))) {
            Row previous = head(catalog);
            java.util.Random random = new java.util.Random(20261204);
            List<Long> liveFiles = new java.util.ArrayList<>();
            int comparisons = assertEveryKindEqualsAScan(catalog, catalog);
            for (int i = 1; i <= 30; i++) {
                Row next = nextSnapshot(previous, i == 1 ? 1 : 0, i == 1 ? 1 : 0, 3);
                long snapshot = next.getLong("snapshot_id");
                var transaction = catalog.begin(previous.getLong("snapshot_id")).insert(next).insert(changes(snapshot, "inserted_into_table:1"));
                if (i == 1) {
                    transaction.insert(table(1, 0, "t", snapshot)).insert(tableStats(1, 0, 0, 0));
                }
                for (int f = 0; f < 3; f++) {
                    // file ids spread over a wide range, so that most land between rows already kept
                    long fileId = random.nextLong(1_000_000);
                    if (!liveFiles.contains(fileId)) {
                        transaction.insert(dataFile(1, fileId, snapshot, fileId * 10, 10));
                        liveFiles.add(fileId);
                    }
                }
                for (int e = 0; e < 2 && liveFiles.size() > 4; e++) {
                    Long ended = liveFiles.remove(random.nextInt(liveFiles.size() - 3)); // not one this commit inserted
                    transaction.endRow(TableKind.DATA_FILE, snapshot, 1L, ended);
                }
                transaction.update(TableKind.TABLE_STATS, Map.of("record_count", 10L * i), 1L);
                transaction.commit();
                previous = next;

                comparisons += assertKeptRowsEqualAScanWithoutScanning(catalog, i);
            }
            assertThat(scan(catalog, TableKind.DATA_FILE, RowScope.ALL)).as("data files, current and ended").hasSizeGreaterThan(60);
            assertThat(comparisons).isEqualTo(KINDS.size() + 30 * (KINDS.size() - 1));
        }
    }

    @Test
    void aTransactionReadingAnOlderSnapshotNeitherRescansNorPushesTheNewestOut()
    {
        try (MoraineCatalog catalog = newCatalog(memoryStore("rows-cache-versions"))) {
            assertEveryKindEqualsAScan(catalog, catalog);
            Row previous = head(catalog);
            int comparisons = 0;
            for (int i = 1; i <= VERSIONS_PER_KIND + 2; i++) {
                // A transaction opened before this commit (as a concurrent DuckLake connection's) reads after it lands.
                try (CatalogSnapshot older = catalog.latest()) {
                    List<Row> olderRows = scan(catalog, TableKind.SNAPSHOT, RowScope.ALL);
                    Row next = nextSnapshot(previous, 0, 0, 0);
                    catalog.begin(previous.getLong("snapshot_id")).insert(next).insert(changes(next.getLong("snapshot_id"), "inserted_into_table:1")).commit();
                    previous = next;
                    CountingReader atOlder = new CountingReader(older.reader());
                    assertThat(catalog.everyRow(atOlder, TableKind.SNAPSHOT)).as("the older snapshot's rows after commit %d", i).isEqualTo(olderRows);
                    CountingReader atHead = new CountingReader(catalog.store().latest());
                    assertThat(catalog.everyRow(atHead, TableKind.SNAPSHOT)).as("the head's rows after commit %d", i).isEqualTo(served(catalog, TableKind.SNAPSHOT));
                    comparisons += 2;
                    assertThat(List.of(atOlder.scans, atHead.scans)).as("scans after commit %d (older, head)", i).containsExactly(0, 0);
                }
            }
            assertThat(comparisons).isEqualTo(2 * (VERSIONS_PER_KIND + 2));
        }
    }

    @Test
    void aReaderInAnotherProcessRescansWhatAnotherWriterChanged()
    {
        StoreUri uri = StoreUri.parse(temp.resolve("store").toUri().toString());
        try (MoraineCatalog writer = newCatalog(uri)) {
            try (MoraineCatalog reader = MoraineCatalog.open(uri, OpenMode.READ_ONLY)) {
                assertEveryKindEqualsAScan(reader, reader);
                Row previous = head(writer);
                Row next = nextSnapshot(previous, 1, 1, 0);
                writer.begin(previous.getLong("snapshot_id")).insert(next).insert(changes(1, "created_table:t"))
                        .insert(table(1, 0, "t", 1)).commit();
                try (MoraineCatalog fresh = MoraineCatalog.open(uri, OpenMode.READ_ONLY)) {
                    awaitHead(reader, 1);
                    CountingReader unchanged = new CountingReader(reader.store().latest());
                    assertThat(reader.everyRow(unchanged, TableKind.DATA_FILE)).isEqualTo(served(fresh, TableKind.DATA_FILE));
                    assertThat(unchanged.scans).as("a kind no commit changed is served kept").isZero();
                    CountingReader changed = new CountingReader(reader.store().latest());
                    assertThat(reader.everyRow(changed, TableKind.TABLE)).isEqualTo(served(fresh, TableKind.TABLE)).hasSize(1);
                    assertThat(changed.scans).as("a kind another writer changed is scanned again").isPositive();
                    assertThat(assertEveryKindEqualsAScan(reader, fresh)).isEqualTo(KINDS.size());
                }
            }
        }
    }

    /** After this handle's commit {@code commit}: every kept kind but ducklake_metadata equals a scan, served without one. */
    private static int assertKeptRowsEqualAScanWithoutScanning(MoraineCatalog catalog, int commit)
    {
        int comparisons = 0;
        CountingReader reader = new CountingReader(catalog.store().latest());
        for (TableKind kind : KINDS) {
            if (kind != TableKind.METADATA) {
                assertThat(catalog.everyRow(reader, kind)).as("%s after commit %d", kind, commit).isEqualTo(served(catalog, kind));
                comparisons++;
            }
        }
        assertThat(reader.scans).as("scans after this handle's commit %d", commit).isZero();
        return comparisons;
    }

    /** Compares {@code catalog.everyRow} with a scan through {@code truth} for every kind; returns the comparisons. */
    private static int assertEveryKindEqualsAScan(MoraineCatalog catalog, MoraineCatalog truth)
    {
        int comparisons = 0;
        for (TableKind kind : KINDS) {
            assertThat(catalog.everyRow(catalog.store().latest(), kind)).as(kind.tableName()).isEqualTo(served(truth, kind));
            comparisons++;
        }
        return comparisons;
    }

    /** What everyRow serves: the rows of a scan, in {@link InsertionOrder}. */
    private static List<Row> served(MoraineCatalog catalog, TableKind kind)
    {
        return InsertionOrder.sort(kind, scan(catalog, kind, RowScope.ALL));
    }

    private static void awaitHead(MoraineCatalog catalog, long snapshotId)
    {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (catalog.headSnapshotId().orElse(-1) < snapshotId) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the read-only handle did not see snapshot " + snapshotId + " within 30 s");
            }
            try {
                Thread.sleep(20);
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    /** A reader that counts the range scans made through it. */
    private static final class CountingReader
            implements KeyValueReader
    {
        private final KeyValueReader delegate;
        int scans;

        CountingReader(KeyValueReader delegate)
        {
            this.delegate = delegate;
        }

        @Override
        public byte[] get(byte[] key)
        {
            return delegate.get(key);
        }

        @Override
        public KeyValueCursor scan(byte[] start, byte[] end, int pageSize)
        {
            scans++;
            return delegate.scan(start, end, pageSize);
        }

        @Override
        public KeyValueCursor scanDescending(byte[] start, byte[] end, int pageSize)
        {
            scans++;
            return delegate.scanDescending(start, end, pageSize);
        }
    }
}
