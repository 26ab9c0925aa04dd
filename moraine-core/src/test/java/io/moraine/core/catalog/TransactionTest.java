package io.moraine.core.catalog;

import io.moraine.core.error.CommitConflictException;
import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreOptions;
import io.moraine.core.store.StoreUri;
import io.moraine.core.tx.StagedTransaction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static io.moraine.core.catalog.CatalogTestSupport.changes;
import static io.moraine.core.catalog.CatalogTestSupport.dataFile;
import static io.moraine.core.catalog.CatalogTestSupport.memoryStore;
import static io.moraine.core.catalog.CatalogTestSupport.newCatalog;
import static io.moraine.core.catalog.CatalogTestSupport.nextSnapshot;
import static io.moraine.core.catalog.CatalogTestSupport.scan;
import static io.moraine.core.catalog.CatalogTestSupport.tableStats;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Staged-row commits: atomicity, head conflicts, rebasing of data-only commits, consistent readers. */
class TransactionTest
{
    @TempDir
    Path temp;

    @Test
    void aFailureAfterStagingAndBeforeTheBatchLeavesNoTrace()
    {
        StoreUri uri = memoryStore("atomic");
        try (MoraineCatalog catalog = newCatalog(uri)) {
            catalog.close();
        }
        try (MoraineCatalog catalog = MoraineCatalog.open(uri, OpenMode.READ_WRITE, StoreOptions.DEFAULTS, (snapshotId, writes) -> {
            throw new IllegalStateException("injected failure before the batch of snapshot " + snapshotId);
        })) {
            Map<TableKind, List<Row>> before = everything(catalog);
            Row s1 = nextSnapshot(CatalogTestSupport.head(catalog), 1, 1, 0);
            StagedTransaction transaction = catalog.begin(0).insert(s1).insert(changes(1, "created_table:\"main\".\"t\""))
                    .insert(CatalogTestSupport.table(1, 0, "t", 1));
            assertThatThrownBy(transaction::commit).hasMessageContaining("injected failure");
            assertThat(everything(catalog)).isEqualTo(before);
            assertThat(catalog.headSnapshotId()).hasValue(0);
            assertThatThrownBy(transaction::commit).isInstanceOf(InvalidArgumentException.class).hasMessageContaining("begin a new one");
        }
    }

    @Test
    void twoStructuralTransactionsFromOneSnapshotLandOneAndRefuseTheOther()
    {
        try (MoraineCatalog catalog = newCatalog(memoryStore("conflict"))) {
            Row s1 = nextSnapshot(CatalogTestSupport.head(catalog), 1, 1, 0);
            StagedTransaction first = catalog.begin(0).insert(s1).insert(changes(1, "created_table:\"main\".\"a\""))
                    .insert(CatalogTestSupport.table(1, 0, "a", 1));
            StagedTransaction second = catalog.begin(0).insert(s1).insert(changes(1, "created_table:\"main\".\"b\""))
                    .insert(CatalogTestSupport.table(1, 0, "b", 1));
            assertThat(first.commit()).isEqualTo(1);
            assertThatThrownBy(second::commit)
                    .isInstanceOf(CommitConflictException.class)
                    .hasMessageContaining("conflict")
                    .hasMessageContaining("snapshot 0");
            try (CatalogSnapshot snapshot = catalog.latest()) {
                assertThat(snapshot.tables()).extracting(row -> row.getString("table_name")).containsExactly("a");
            }
        }
    }

    @Test
    void twoDataOnlyAppendsFromOneSnapshotBothLandTheSecondRebased()
    {
        try (MoraineCatalog catalog = newCatalog(memoryStore("rebase"))) {
            Row s1 = nextSnapshot(CatalogTestSupport.head(catalog), 1, 2, 0);
            catalog.begin(0).insert(s1).insert(changes(1, "created_table:\"main\".\"a\",created_table:\"main\".\"b\""))
                    .insert(CatalogTestSupport.table(1, 0, "a", 1)).insert(CatalogTestSupport.table(2, 0, "b", 1))
                    .insert(tableStats(1, 0, 0, 0)).insert(tableStats(2, 0, 0, 0))
                    .commit();

            // Two appenders read snapshot 1 and each add one file of 10 rows to table 1 (file id 0, row ids 0..9).
            Row statsRead = tableStats(1, 0, 0, 0);
            Row s2 = nextSnapshot(s1, 0, 0, 1);
            StagedTransaction first = catalog.begin(1).insert(s2).insert(changes(2, "inserted_into_table:1"))
                    .insert(dataFile(1, 0, 2, 0, 10)).update(statsRead, Map.of("record_count", 10L, "next_row_id", 10L, "file_size_bytes", 1000L));
            StagedTransaction second = catalog.begin(1).insert(s2).insert(changes(2, "inserted_into_table:1"))
                    .insert(dataFile(1, 0, 2, 0, 10)).update(statsRead, Map.of("record_count", 10L, "next_row_id", 10L, "file_size_bytes", 1000L));
            assertThat(first.commit()).isEqualTo(2);
            assertThat(second.commit()).isEqualTo(3);

            try (CatalogSnapshot snapshot = catalog.latest()) {
                assertThat(snapshot.id()).isEqualTo(3);
                assertThat(snapshot.snapshotRow().getLong("next_file_id")).isEqualTo(2);
                assertThat(snapshot.snapshotRow().getLong("schema_version")).isEqualTo(s1.getLong("schema_version"));
                List<Row> files = snapshot.dataFiles(1).toList();
                assertThat(files).extracting(row -> row.getLong("data_file_id")).containsExactly(0L, 1L);
                assertThat(files).extracting(row -> row.getLong("begin_snapshot")).containsExactly(2L, 3L);
                assertThat(files).extracting(row -> row.getLong("row_id_start")).containsExactly(0L, 10L);
                assertThat(snapshot.tableStats(1)).hasValue(Row.of(TableKind.TABLE_STATS, 1L, 20L, 20L, 2000L));
            }
            try (CatalogSnapshot snapshot = catalog.at(2)) {
                assertThat(snapshot.dataFiles(1).toList()).hasSize(1);
            }
        }
    }

    @Test
    void aDataOnlyCommitIsRefusedWhenTheTableWasDroppedMeanwhile()
    {
        try (MoraineCatalog catalog = newCatalog(memoryStore("rebase-drop"))) {
            Row s1 = nextSnapshot(CatalogTestSupport.head(catalog), 1, 1, 0);
            catalog.begin(0).insert(s1).insert(changes(1, "created_table:\"main\".\"a\"")).insert(CatalogTestSupport.table(1, 0, "a", 1))
                    .insert(tableStats(1, 0, 0, 0)).commit();
            Row s2 = nextSnapshot(s1, 0, 0, 1);
            StagedTransaction append = catalog.begin(1).insert(s2).insert(changes(2, "inserted_into_table:1")).insert(dataFile(1, 0, 2, 0, 10))
                    .update(tableStats(1, 0, 0, 0), Map.of("record_count", 10L, "next_row_id", 10L));
            catalog.begin(1).insert(nextSnapshot(s1, 1, 0, 0)).insert(changes(2, "dropped_table:1")).endRow(TableKind.TABLE, 2, 1L, 1L).commit();
            assertThatThrownBy(append::commit).isInstanceOf(CommitConflictException.class).hasMessageContaining("conflict");
        }
    }

    @Test
    void readersRunningWhileAWriterCommitsNeverSeePartOfACommit()
            throws Exception
    {
        StoreUri uri = StoreUri.parse(temp.resolve("readers").toString());
        int commits = 30;
        int filesPerCommit = 5;
        try (MoraineCatalog writer = newCatalog(uri);
                MoraineCatalog reader = MoraineCatalog.open(uri, OpenMode.READ_ONLY, StoreOptions.DEFAULTS.withManifestPollInterval(java.time.Duration.ofMillis(10)))) {
            AtomicBoolean done = new AtomicBoolean();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            List<Long> observed = new ArrayList<>();
            Thread readerThread = Thread.ofPlatform().start(() -> {
                try {
                    while (!done.get()) {
                        try (CatalogSnapshot snapshot = reader.latest()) {
                            long files = snapshot.dataFiles(1).toList().size();
                            long records = snapshot.tableStats(1).map(row -> row.getLong("record_count")).orElse(0L);
                            // Each commit adds exactly filesPerCommit files and their record count, all or nothing.
                            if (files != snapshot.id() * filesPerCommit || records < files * 10) {
                                throw new AssertionError("snapshot " + snapshot.id() + " shows " + files + " files and " + records + " records");
                            }
                            observed.add(snapshot.id());
                        }
                        catch (io.moraine.core.error.NotFoundException ignored) {
                            // reader not caught up with the first commit yet
                        }
                    }
                }
                catch (Throwable t) {
                    failure.set(t);
                }
            });
            Row previous = CatalogTestSupport.head(writer);
            // Re-label: snapshot 0 is DuckLake's bootstrap; our table 1 appears in snapshot 0 for simplicity.
            writer.begin(0).insert(CatalogTestSupport.table(1, 0, "t", 0)).insert(tableStats(1, 0, 0, 0)).commit();
            for (int i = 0; i < commits; i++) {
                Row next = nextSnapshot(previous, 0, 0, filesPerCommit);
                StagedTransaction transaction = writer.begin(previous.getLong("snapshot_id")).insert(next)
                        .insert(changes(next.getLong("snapshot_id"), "inserted_into_table:1"));
                for (int f = 0; f < filesPerCommit; f++) {
                    long fileId = previous.getLong("next_file_id") + f;
                    transaction.insert(dataFile(1, fileId, next.getLong("snapshot_id"), fileId * 10, 10));
                }
                long records = (long) (i + 1) * filesPerCommit * 10;
                transaction.update(TableKind.TABLE_STATS, Map.of("record_count", records, "next_row_id", records), 1L);
                transaction.commit();
                previous = next;
            }
            Thread.sleep(200);
            done.set(true);
            readerThread.join();
            if (failure.get() != null) {
                throw new AssertionError("a reader saw part of a commit", failure.get());
            }
            assertThat(observed).isNotEmpty();
        }
    }

    @Test
    void aCommitInsertingTheSameNewSnapshotTwiceIsRefusedAndWritesNothing()
    {
        try (MoraineCatalog catalog = newCatalog(memoryStore("duplicate-snapshot"))) {
            Row s1 = nextSnapshot(CatalogTestSupport.head(catalog), 0, 0, 0);
            StagedTransaction transaction = catalog.begin(0).insert(s1).insert(changes(1, "inserted_into_table:1")).insert(s1);
            assertThatThrownBy(transaction::commit)
                    .isInstanceOf(io.moraine.core.error.ConstraintException.class)
                    .hasMessageContaining("exists already");
            assertThat(catalog.headSnapshotId()).hasValue(0);
        }
    }

    @Test
    void rowsForASnapshotTheCommitDoesNotCreateAreRefusedAndWriteNothing()
    {
        try (MoraineCatalog catalog = newCatalog(memoryStore("future-snapshot"));
                org.apache.arrow.memory.BufferAllocator allocator = new org.apache.arrow.memory.RootAllocator();
                org.apache.arrow.vector.VectorSchemaRoot rows = io.moraine.core.inline.InlineTestData.rows(allocator, 0, 3, "a")) {
            assertThatThrownBy(() -> catalog.begin(0).insert(changes(5, "inserted_into_table:1")).commit())
                    .isInstanceOf(InvalidArgumentException.class)
                    .hasMessageContaining("for snapshot 5")
                    .hasMessageContaining("creates no snapshot");
            catalog.begin(0).registerInlinedTable(1, 1, io.moraine.core.inline.InlineTestData.SCHEMA).commit();
            Row s1 = nextSnapshot(CatalogTestSupport.head(catalog), 0, 0, 0);
            assertThatThrownBy(() -> catalog.begin(0).insert(s1).insertInlined(1, 1, 2, 0, rows).commit())
                    .isInstanceOf(InvalidArgumentException.class)
                    .hasMessageContaining("for snapshot 2")
                    .hasMessageContaining("creates snapshots up to 1");
            assertThat(catalog.headSnapshotId()).hasValue(0);
            assertThat(scan(catalog, TableKind.SNAPSHOT_CHANGES, RowScope.ALL)).noneMatch(row -> row.getLong("snapshot_id") == 5);

            // The snapshot's own commit may write them, and a second chunk of the same snapshot gets the next sequence.
            catalog.begin(0).insert(s1).insert(changes(1, "inlined_insert:1")).insertInlined(1, 1, 1, 0, rows).insertInlined(1, 1, 1, 3, rows).commit();
            try (io.moraine.core.store.KeyValueCursor chunks = catalog.store().latest().scan(new byte[] {0}, new byte[] {(byte) 0xff}, 64)) {
                long chunkKeys = java.util.stream.StreamSupport.stream(java.util.Spliterators.spliteratorUnknownSize(chunks, 0), false)
                        .filter(entry -> io.moraine.core.keyspace.KeyNames.describe(entry.key()).startsWith("inline/insert"))
                        .count();
                assertThat(chunkKeys).isEqualTo(2);
            }
        }
    }

    @Test
    void beforeTheFirstSnapshotNoSnapshotsRowsCanBeWritten()
    {
        try (MoraineCatalog catalog = MoraineCatalog.create(memoryStore("no-head"), new NewCatalog("/d", false, false, NewCatalog.CREATED_BY))) {
            assertThat(catalog.headSnapshotId()).isEmpty();
            assertThatThrownBy(() -> catalog.begin(-1).insert(changes(2, "first")).commit())
                    .isInstanceOf(InvalidArgumentException.class)
                    .hasMessageContaining("for snapshot 2")
                    .hasMessageContaining("not set (no snapshot yet)");
            assertThat(scan(catalog, TableKind.SNAPSHOT_CHANGES, RowScope.ALL)).isEmpty();
        }
    }

    @Test
    void concurrentAppendersAllLandAndEachSeesItsCommitOnceAcknowledged()
            throws Exception
    {
        StoreUri uri = StoreUri.parse(temp.resolve("group-commit").toString());
        int writers = 6;
        int commitsPerWriter = 15;
        try (MoraineCatalog catalog = newCatalog(uri)) {
            catalog.begin(0).insert(CatalogTestSupport.table(1, 0, "t", 0)).insert(tableStats(1, 0, 0, 0)).commit();
            java.util.concurrent.ConcurrentLinkedQueue<Long> landed = new java.util.concurrent.ConcurrentLinkedQueue<>();
            List<Thread> threads = new ArrayList<>();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            for (int w = 0; w < writers; w++) {
                threads.add(Thread.ofPlatform().start(() -> {
                    try {
                        for (int i = 0; i < commitsPerWriter; i++) {
                            long snapshotId = appendOneFile(catalog);
                            landed.add(snapshotId);
                            // Acknowledged means durable and visible to every reader of this catalog.
                            try (CatalogSnapshot visible = catalog.latest()) {
                                assertThat(visible.id()).isGreaterThanOrEqualTo(snapshotId);
                            }
                        }
                    }
                    catch (Throwable t) {
                        failure.compareAndSet(null, t);
                    }
                }));
            }
            for (Thread thread : threads) {
                thread.join();
            }
            if (failure.get() != null) {
                throw new AssertionError("a concurrent appender failed", failure.get());
            }
            int total = writers * commitsPerWriter;
            assertThat(landed).containsExactlyInAnyOrderElementsOf(java.util.stream.LongStream.rangeClosed(1, total).boxed().toList());
            try (CatalogSnapshot head = catalog.latest()) {
                List<Row> files = head.dataFiles(1).toList();
                assertThat(files).extracting(row -> row.getLong("data_file_id"))
                        .containsExactlyInAnyOrderElementsOf(java.util.stream.LongStream.range(0, total).boxed().toList());
                assertThat(files).extracting(row -> row.getLong("row_id_start"))
                        .containsExactlyInAnyOrderElementsOf(java.util.stream.LongStream.range(0, total).map(i -> i * 10).boxed().toList());
                assertThat(head.tableStats(1).orElseThrow().getLong("record_count")).isEqualTo(total * 10L);
            }
        }
        // Everything acknowledged survives a reopen.
        try (MoraineCatalog reopened = MoraineCatalog.open(uri, OpenMode.READ_ONLY)) {
            assertThat(reopened.headSnapshotId()).hasValue(writers * commitsPerWriter);
        }
    }

    /** One appender's commit: it reads the head, adds a 10-row file and lets the committer rebase it if it lost the race. */
    private static long appendOneFile(MoraineCatalog catalog)
    {
        try (CatalogSnapshot read = catalog.latest()) {
            Row stats = read.tableStats(1).orElseThrow();
            Row next = nextSnapshot(read.snapshotRow(), 0, 0, 1);
            long fileId = read.snapshotRow().getLong("next_file_id");
            long rowIdStart = stats.getLong("next_row_id");
            return catalog.begin(read.id()).insert(next).insert(changes(next.getLong("snapshot_id"), "inserted_into_table:1"))
                    .insert(dataFile(1, fileId, next.getLong("snapshot_id"), rowIdStart, 10))
                    .update(stats, Map.of("record_count", stats.getLong("record_count") + 10, "next_row_id", rowIdStart + 10))
                    .commit();
        }
    }

    private static Map<TableKind, List<Row>> everything(MoraineCatalog catalog)
    {
        Map<TableKind, List<Row>> rows = new java.util.EnumMap<>(TableKind.class);
        for (TableKind kind : TableKind.values()) {
            rows.put(kind, scan(catalog, kind, RowScope.ALL));
        }
        return rows;
    }
}
