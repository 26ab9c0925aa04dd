package io.moraine.core.catalog;

import io.moraine.core.error.StoreObjectMissingException;
import io.moraine.core.row.TableKind;
import io.moraine.core.row.Row;
import io.moraine.core.store.CollectedSsts;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreOptions;
import io.moraine.core.store.StoreUri;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;

import static io.moraine.core.catalog.CatalogTestSupport.changes;
import static io.moraine.core.catalog.CatalogTestSupport.head;
import static io.moraine.core.catalog.CatalogTestSupport.newCatalog;
import static io.moraine.core.catalog.CatalogTestSupport.nextSnapshot;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A read-only catalog's snapshot, taken on a reader generation that keeps no checkpoint, is read after the writer's
 * commits were compacted and the SSTs the generation read were deleted (as SlateDB's garbage collector does, see
 * {@link CollectedSsts}): its rows come back right, read again on a new generation (docs/freshness.md).
 */
class ReadOnlyCatalogAfterGarbageCollectionTest
{
    // Enough commits for several memtable flushes (one every 64 write-ahead-log objects) before the snapshot is taken.
    private static final int COMMITS_BEFORE = 200;

    @TempDir
    Path temp;

    @AfterEach
    void retryOn()
    {
        CollectedSsts.retryAfterMissingObject(true);
    }

    @Test
    void aSnapshotTakenBeforeACompactionReadsItsRowsAfterTheReplacedSstsAreCollected()
            throws Exception
    {
        StoreUri uri = StoreUri.parse(temp.resolve("store").toUri().toString());
        try (MoraineCatalog writer = newCatalog(uri); MoraineCatalog reader = MoraineCatalog.open(uri, OpenMode.READ_ONLY, StoreOptions.DEFAULTS);
                CollectedSsts collector = new CollectedSsts(uri)) {
            commit(writer, COMMITS_BEFORE);
            try (CatalogSnapshot snapshot = reader.latest()) {
                long id = snapshot.id();
                List<Row> expected = rows(writer, id);
                assertThat(expected).hasSizeGreaterThan(2 * COMMITS_BEFORE);
                Set<Path> read = collector.ssts();
                assertThat(read).isNotEmpty();
                compactAway(writer, collector, read);
                collector.collect(read);
                long readers = reader.store().freshnessTally().readersOpened();

                assertThat(rows(snapshot)).isEqualTo(expected);
                // The read moved to one new generation.
                assertThat(reader.store().freshnessTally().readersOpened()).isEqualTo(readers + 1);
            }
        }
    }

    @Test
    void withoutTheRetryTheSameReadFails()
            throws Exception
    {
        CollectedSsts.retryAfterMissingObject(false);
        StoreUri uri = StoreUri.parse(temp.resolve("no-retry").toUri().toString());
        try (MoraineCatalog writer = newCatalog(uri); MoraineCatalog reader = MoraineCatalog.open(uri, OpenMode.READ_ONLY, StoreOptions.DEFAULTS);
                CollectedSsts collector = new CollectedSsts(uri)) {
            commit(writer, COMMITS_BEFORE);
            try (CatalogSnapshot snapshot = reader.latest()) {
                Set<Path> read = collector.ssts();
                compactAway(writer, collector, read);
                collector.collect(read);

                assertThatThrownBy(() -> rows(snapshot)).isInstanceOf(StoreObjectMissingException.class);
            }
        }
    }

    /** Commits until a compaction replaced every one of {@code ssts}. */
    private static void compactAway(MoraineCatalog writer, CollectedSsts collector, Set<Path> ssts)
            throws Exception
    {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (!collector.unreferenced(ssts)) {
            assertThat(System.nanoTime()).as("%s compacted away within 90 s", ssts).isLessThan(deadline);
            commit(writer, 64);
        }
    }

    private static List<Row> rows(MoraineCatalog catalog, long id)
    {
        try (CatalogSnapshot snapshot = catalog.at(id)) {
            return rows(snapshot);
        }
    }

    /**
     * The snapshot's snapshot and change rows. These kinds are insert-only, so a view that moved to a newer reader (or
     * a polling reader's) also lists later snapshots' rows; the catalog keeps those up to the read snapshot, and so
     * does this.
     */
    private static List<Row> rows(CatalogSnapshot snapshot)
    {
        List<Row> rows = new java.util.ArrayList<>(snapshot.visible(TableKind.SNAPSHOT).toList());
        rows.addAll(snapshot.visible(TableKind.SNAPSHOT_CHANGES).toList());
        return rows.stream().filter(row -> row.getLong("snapshot_id") <= snapshot.id()).toList();
    }

    private static void commit(MoraineCatalog writer, int commits)
    {
        Row previous = head(writer);
        for (int i = 0; i < commits; i++) {
            Row next = nextSnapshot(previous, 0, 0, 0);
            long id = next.getLong("snapshot_id");
            writer.begin(previous.getLong("snapshot_id")).insert(next).insert(changes(id, "inserted_into_table:1")).commit();
            previous = next;
        }
    }
}
