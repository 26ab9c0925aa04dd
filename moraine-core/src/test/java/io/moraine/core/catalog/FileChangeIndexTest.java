package io.moraine.core.catalog;

import io.moraine.core.changes.ChangeFeed;
import io.moraine.core.changes.ChangeTask;
import io.moraine.core.changes.DeletedRowsTask;
import io.moraine.core.changes.InsertedRowsTask;
import io.moraine.core.keyspace.FileChangeKeys;
import io.moraine.core.keyspace.Subspace;
import io.moraine.core.keyspace.SystemKeys;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.store.KeyValue;
import io.moraine.core.store.KeyValueCursor;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreOptions;
import io.moraine.core.store.StoreUri;
import io.moraine.core.tx.CommitListener;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static io.moraine.core.catalog.CatalogTestSupport.changes;
import static io.moraine.core.catalog.CatalogTestSupport.column;
import static io.moraine.core.catalog.CatalogTestSupport.dataFile;
import static io.moraine.core.catalog.CatalogTestSupport.head;
import static io.moraine.core.catalog.CatalogTestSupport.memoryStore;
import static io.moraine.core.catalog.CatalogTestSupport.newCatalog;
import static io.moraine.core.catalog.CatalogTestSupport.nextSnapshot;
import static io.moraine.core.catalog.CatalogTestSupport.scan;
import static io.moraine.core.catalog.CatalogTestSupport.table;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The file-change index (docs/format.md, {@code 0x06}): kept by every commit that inserts, ends, updates or deletes a
 * data or delete file row; built by the upgrade of an older store; and what lets a change feed plan from the files
 * with changes in its range only. Stores without it are planned by reading every file row.
 */
class FileChangeIndexTest
{
    private static final long TABLE = 1;

    @TempDir
    Path temp;

    @Test
    void commitsKeepTheIndexInStepWithTheFileRows()
    {
        try (MoraineCatalog catalog = newCatalog(memoryStore("commits"))) {
            createTable(catalog);                                                   // snapshot 1
            long s2 = commit(catalog, tx -> tx.insert(dataFile(TABLE, 10, 2, 0, 100)));
            long s3 = commit(catalog, tx -> tx.insert(dataFile(TABLE, 11, 3, 100, 100)));
            assertThat(entries(catalog)).containsOnlyKeys(event(s2, 10), event(s3, 11));

            long s4 = commit(catalog, tx -> tx.insert(deleteFile(20, 10, 4, null)));
            assertThat(entries(catalog)).containsOnlyKeys(event(s2, 10), event(s3, 11), deleteEvent(s4, 20), deleteFileOf(10, 20));
            assertThat(dataFileOfEntry(catalog, deleteEvent(s4, 20))).isEqualTo(10);

            long s5 = commit(catalog, tx -> tx.endRow(TableKind.DATA_FILE, head(catalog).getLong("snapshot_id") + 1, TABLE, 11L));
            assertThat(entries(catalog)).as("a retired data file has an event at its end too")
                    .containsOnlyKeys(event(s2, 10), event(s3, 11), event(s5, 11), deleteEvent(s4, 20), deleteFileOf(10, 20));

            // A flush: an output backdated to snapshot 2 holding rows through 5, and a delete file without partial_max
            // backdated to 3, written at 6, that records a snapshot per position.
            long s6 = commit(catalog, tx -> tx.insert(dataFile(TABLE, 12, 2, 200, 50).with("partial_max", 5L))
                    .insert(deleteFile(21, 12, 3, null)));
            Map<String, String> afterFlush = entries(catalog);
            assertThat(afterFlush).containsKeys(event(2, 12), span(5, 2, TableKind.DATA_FILE, 12), deleteEvent(3, 21),
                    span(s6, 3, TableKind.DELETE_FILE, 21), deleteFileOf(12, 21));
            assertThat(FileChangeKeys.recordedContentEnd(HexFormat.of().parseHex(afterFlush.get(deleteEvent(3, 21))))).hasValue(s6);

            // Ending the delete file later keeps the end its span recorded when it was written.
            long s7 = commit(catalog, tx -> tx.endRow(TableKind.DELETE_FILE, head(catalog).getLong("snapshot_id") + 1, TABLE, 21L));
            assertThat(entries(catalog)).containsKey(span(s6, 3, TableKind.DELETE_FILE, 21)).doesNotContainKey(span(s7, 3, TableKind.DELETE_FILE, 21));

            // Rewrite compaction moves a file's begin_snapshot; expiry deletes rows physically.
            commit(catalog, tx -> tx.update(TableKind.DATA_FILE, Map.of("begin_snapshot", 3L), TABLE, 10L));
            assertThat(entries(catalog)).containsKey(event(3, 10)).doesNotContainKey(event(s2, 10));
            commit(catalog, tx -> tx.delete(TableKind.DATA_FILE, TABLE, 12L).delete(TableKind.DELETE_FILE, TABLE, 21L));
            assertThat(entries(catalog)).isEqualTo(derivedFromRows(catalog));
        }
    }

    @Test
    void aFeedReadsTheSameRecordsWhateverTheTableSize()
    {
        Planned small = planFixedChanges(100);
        Planned large = planFixedChanges(1000);
        assertThat(small.tasks()).containsExactly("delete 120 retired at " + small.to(), "delete 150 by ducklake-100001-delete.parquet", "insert 100000");
        assertThat(large.tasks()).isEqualTo(small.tasks());
        assertThat(large.reads()).as("store reads of the feed with 1,000 files in the table vs 100").isEqualTo(small.reads());
        assertThat(small.reads()).noneMatch(read -> read.startsWith("scan ") && read.contains("_file"));
        assertThat(large.fallbackTasks()).as("planned by reading every file row once the index is gone").isEqualTo(large.tasks());
        assertThat(large.fallbackReads()).contains("scan current/ducklake_data_file");
    }

    /** What a feed over a fixed set of changes plans, and the records it reads, on a table of {@code oldFiles + 1} files. */
    private record Planned(long to, List<String> tasks, List<String> reads, List<String> fallbackTasks, List<String> fallbackReads) {}

    private static Planned planFixedChanges(int oldFiles)
    {
        CountingReads reads = new CountingReads();
        StoreOptions options = StoreOptions.DEFAULTS.withReadListener(reads);
        try (MoraineCatalog catalog = MoraineCatalog.create(memoryStore("bounded"), NewCatalog.bootstrapped("/lake/data"), options, List.of(),
                CommitListener.NONE)) {
            createTable(catalog);
            commit(catalog, tx -> {
                for (long id = 100; id < 100 + oldFiles; id++) {
                    tx.insert(dataFile(TABLE, id, 2, id * 10, 10));
                }
                return tx;
            });
            long from = commit(catalog, tx -> tx.insert(dataFile(TABLE, 100_000, head(catalog).getLong("snapshot_id") + 1, 1_000_000, 10)));
            commit(catalog, tx -> tx.insert(deleteFile(100_001, 150, head(catalog).getLong("snapshot_id") + 1, null)));
            long to = commit(catalog, tx -> tx.endRow(TableKind.DATA_FILE, head(catalog).getLong("snapshot_id") + 1, TABLE, 120L));

            List<String> tasks = plan(catalog, reads, from, to);
            List<String> indexedReads = describe(reads);
            writeAsFormatTwo(catalog);
            List<String> fallbackTasks = plan(catalog, reads, from, to);
            return new Planned(to, tasks, indexedReads, fallbackTasks, describe(reads));
        }
    }

    private static List<String> plan(MoraineCatalog catalog, CountingReads reads, long from, long to)
    {
        try (CatalogSnapshot end = catalog.at(to)) {
            reads.clear();
            return describe(ChangeFeed.forTable(end, TABLE, from).planTasks());
        }
    }

    private static List<String> describe(CountingReads reads)
    {
        List<String> described = new ArrayList<>();
        reads.points().forEach(point -> described.add("get " + point));
        reads.scans().forEach(scan -> described.add("scan " + scan));
        return described;
    }

    @Test
    void aStoreWithoutTheIndexIsPlannedByScanningAndUpgradedByItsNextWriter()
    {
        StoreUri uri = StoreUri.parse(temp.resolve("format-2").toString());
        Map<String, String> indexed;
        List<String> tasks;
        long head;
        try (MoraineCatalog catalog = newCatalog(uri)) {
            createTable(catalog);
            commit(catalog, tx -> tx.insert(dataFile(TABLE, 10, 2, 0, 100)));
            commit(catalog, tx -> tx.insert(dataFile(TABLE, 11, 3, 100, 100)).insert(deleteFile(20, 10, 3, null)));
            commit(catalog, tx -> tx.endRow(TableKind.DATA_FILE, 4, TABLE, 11L));
            // A flush as the last commit: an upgrade, which takes the head as the latest writer, records what it did.
            head = commit(catalog, tx -> tx.insert(dataFile(TABLE, 12, 2, 200, 50).with("partial_max", 4L)).insert(deleteFile(21, 12, 3, null)));
            indexed = entries(catalog);
            tasks = plan(catalog, 3, head);
            writeAsFormatTwo(catalog);
            assertThat(entries(catalog)).isEmpty();
        }
        assertThat(tasks).containsExactly("delete 10 by ducklake-20-delete.parquet", "insert 11", "delete 11 retired at 4", "insert 12",
                "delete 12 by ducklake-21-delete.parquet");

        CountingReads readerReads = new CountingReads();
        try (MoraineCatalog reader = MoraineCatalog.open(uri, OpenMode.READ_ONLY, StoreOptions.DEFAULTS.withReadListener(readerReads))) {
            try (CatalogSnapshot end = reader.at(head)) {
                assertThat(end.indexesFileChanges()).isFalse();
            }
            assertThat(plan(reader, 3, head)).isEqualTo(tasks);
            assertThat(readerReads.scans()).as("without the index, the file rows are read").contains("current/ducklake_data_file", "current/ducklake_delete_file");
            assertThat(SystemKeys.decodeFormatVersion(reader.store().latest().get(SystemKeys.FORMAT))).as("a READ_ONLY open does not upgrade").isEqualTo(2);
        }
        try (MoraineCatalog writer = MoraineCatalog.open(uri, OpenMode.READ_WRITE)) {
            assertThat(SystemKeys.decodeFormatVersion(writer.store().latest().get(SystemKeys.FORMAT))).isEqualTo(MoraineCatalog.FORMAT_VERSION);
            assertThat(entries(writer)).as("the upgrade writes what the commits wrote").isEqualTo(indexed);
            assertThat(plan(writer, 3, head)).isEqualTo(tasks);
            long next = commit(writer, tx -> tx.insert(dataFile(TABLE, 13, head + 1, 300, 10)));
            assertThat(plan(writer, next, next)).containsExactly("insert 13");
        }
    }

    private static List<String> plan(MoraineCatalog catalog, long from, long to)
    {
        try (CatalogSnapshot end = catalog.at(to)) {
            return describe(ChangeFeed.forTable(end, TABLE, from).planTasks());
        }
    }

    private static List<String> describe(List<ChangeTask> tasks)
    {
        List<String> described = new ArrayList<>();
        for (ChangeTask task : tasks) {
            switch (task) {
                case InsertedRowsTask insert -> described.add("insert " + insert.file().dataFileId());
                case DeletedRowsTask delete -> described.add("delete " + delete.file().dataFileId()
                        + delete.deleteFile().map(file -> " by " + file.path().substring(file.path().lastIndexOf('/') + 1)).orElse("")
                        + (delete.retiredAt().isPresent() ? " retired at " + delete.retiredAt().getAsLong() : ""));
                default -> described.add(task.toString());
            }
        }
        return described;
    }

    // --- helpers

    private interface Staging
    {
        io.moraine.core.tx.StagedTransaction stage(io.moraine.core.tx.StagedTransaction tx);
    }

    private static void createTable(MoraineCatalog catalog)
    {
        Row previous = head(catalog);
        Row next = nextSnapshot(previous, 1, 1, 0);
        catalog.begin(previous.getLong("snapshot_id")).insert(next).insert(changes(next.getLong("snapshot_id"), "created_table:\"main\".\"t\""))
                .insert(table(TABLE, 0, "t", next.getLong("snapshot_id"))).insert(column(TABLE, 1, "a", "int64", next.getLong("snapshot_id"))).commit();
    }

    /** Commits one snapshot on the head with what {@code staging} adds; returns its id. */
    private static long commit(MoraineCatalog catalog, Staging staging)
    {
        Row previous = head(catalog);
        Row next = nextSnapshot(previous, 0, 0, 1);
        long id = next.getLong("snapshot_id");
        staging.stage(catalog.begin(previous.getLong("snapshot_id")).insert(next).insert(changes(id, "inserted_into_table:1"))).commit();
        return id;
    }

    static Row deleteFile(long deleteFileId, long dataFileId, long begin, Long partialMax)
    {
        return Row.of(TableKind.DELETE_FILE, deleteFileId, TABLE, begin, null, dataFileId, "ducklake-" + deleteFileId + "-delete.parquet", true, "parquet",
                1L, 500L, 100L, null, partialMax);
    }

    private static String event(long snapshot, long dataFileId)
    {
        return hex(FileChangeKeys.event(TABLE, snapshot, TableKind.DATA_FILE, dataFileId));
    }

    private static String deleteEvent(long snapshot, long deleteFileId)
    {
        return hex(FileChangeKeys.event(TABLE, snapshot, TableKind.DELETE_FILE, deleteFileId));
    }

    private static String span(long contentEnd, long begin, TableKind kind, long fileId)
    {
        return hex(FileChangeKeys.span(TABLE, contentEnd, begin, kind, fileId));
    }

    private static String deleteFileOf(long dataFileId, long deleteFileId)
    {
        return hex(FileChangeKeys.deleteFileOf(TABLE, dataFileId, deleteFileId));
    }

    private static long dataFileOfEntry(MoraineCatalog catalog, String key)
    {
        byte[] keyBytes = HexFormat.of().parseHex(key);
        return FileChangeKeys.dataFileIdOf(keyBytes, catalog.store().latest().get(keyBytes));
    }

    /** Every index entry, by hex key. */
    static Map<String, String> entries(MoraineCatalog catalog)
    {
        Map<String, String> entries = new TreeMap<>();
        try (KeyValueCursor cursor = catalog.store().latest().scan(Subspace.FILE_CHANGES.start(), Subspace.FILE_CHANGES.end(), 256)) {
            while (cursor.hasNext()) {
                KeyValue entry = cursor.next();
                entries.put(hex(entry.key()), hex(entry.value()));
            }
        }
        return entries;
    }

    /**
     * The entries each file row has, with the content end its begin entry records (a spanning delete file's is the
     * commit that wrote it, which the rows do not say).
     */
    private static Map<String, String> derivedFromRows(MoraineCatalog catalog)
    {
        Map<String, String> stored = entries(catalog);
        Map<String, String> derived = new TreeMap<>();
        for (TableKind kind : List.of(TableKind.DATA_FILE, TableKind.DELETE_FILE)) {
            for (Row row : scan(catalog, kind, RowScope.ALL)) {
                long contentEnd = FileChangeKeys.recordedContentEnd(parse(stored.get(hex(FileChangeKeys.beginEvent(row)))))
                        .orElseGet(() -> FileChangeKeys.contentEnd(row, Long.MIN_VALUE, false));
                FileChangeKeys.entries(row, contentEnd).forEach((key, value) -> derived.put(hex(toArray(key)), hex(value)));
            }
        }
        return derived;
    }

    /** Makes the store what a binary before the index wrote: no index entries, format version 2. */
    static void writeAsFormatTwo(MoraineCatalog catalog)
    {
        Map<ByteBuffer, byte[]> writes = new HashMap<>();
        entries(catalog).keySet().forEach(key -> writes.put(ByteBuffer.wrap(HexFormat.of().parseHex(key)), null));
        writes.put(ByteBuffer.wrap(SystemKeys.FORMAT), SystemKeys.encodeFormat(2, "moraine-jvm 0.1.0"));
        catalog.store().write(writes);
    }

    private static byte[] toArray(ByteBuffer buffer)
    {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }

    private static byte[] parse(String hex)
    {
        return hex == null ? null : HexFormat.of().parseHex(hex);
    }

    private static String hex(byte[] bytes)
    {
        return HexFormat.of().formatHex(bytes);
    }

}
