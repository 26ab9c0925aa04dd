package io.moraine.core.catalog;

import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.row.Row;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.ReaderFreshness;
import io.moraine.core.store.StoreOptions;
import io.moraine.core.store.StoreUri;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;

import static io.moraine.core.catalog.CatalogTestSupport.changes;
import static io.moraine.core.catalog.CatalogTestSupport.head;
import static io.moraine.core.catalog.CatalogTestSupport.newCatalog;
import static io.moraine.core.catalog.CatalogTestSupport.nextSnapshot;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A read-only handle checks the store when a read begins (docs/freshness.md): with the default it sees every commit
 * another handle acknowledged before, at once and without any timer; with a maximum staleness it sees it within that
 * bound; in between it checks nothing.
 */
class ReaderFreshnessTest
{
    @TempDir
    Path temp;

    @Test
    void theNextReadSeesACommitOfAnotherHandleWithoutWaiting()
    {
        StoreUri uri = StoreUri.parse(temp.resolve("store").toUri().toString());
        // A poll interval of an hour: were anything still polling, no commit would be seen in this test.
        StoreOptions options = StoreOptions.DEFAULTS.withManifestPollInterval(Duration.ofHours(1));
        try (MoraineCatalog writer = newCatalog(uri); MoraineCatalog reader = MoraineCatalog.open(uri, OpenMode.READ_ONLY, options)) {
            Row previous = head(writer);
            for (int i = 0; i < 5; i++) {
                long id = commitNext(writer, previous);
                try (CatalogSnapshot latest = reader.latest()) {
                    assertThat(latest.id()).as("commit %d seen by the next latest()", i).isEqualTo(id);
                }
                assertThat(reader.headSnapshotId()).hasValue(id);
                previous = head(writer);
            }
            // An id another process handed out is read at once, not after a wait.
            long id = commitNext(writer, previous);
            long started = System.nanoTime();
            try (CatalogSnapshot snapshot = reader.at(id)) {
                assertThat(snapshot.id()).isEqualTo(id);
            }
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
            // Reading a snapshot it has seen checks nothing: a snapshot never changes.
            long checks = reader.store().freshnessTally().checks();
            try (CatalogSnapshot snapshot = reader.at(id)) {
                assertThat(snapshot.id()).isEqualTo(id);
            }
            assertThat(reader.store().freshnessTally().checks()).isEqualTo(checks);
        }
    }

    @Test
    void concurrentReadsEachSeeWhatWasAcknowledgedBeforeThemWhileTheWriterCommits()
            throws Exception
    {
        StoreUri uri = StoreUri.parse(temp.resolve("concurrent").toUri().toString());
        try (MoraineCatalog writer = newCatalog(uri); MoraineCatalog reader = MoraineCatalog.open(uri, OpenMode.READ_ONLY, StoreOptions.DEFAULTS)) {
            java.util.concurrent.atomic.AtomicLong acknowledged = new java.util.concurrent.atomic.AtomicLong(head(writer).getLong("snapshot_id"));
            java.util.concurrent.atomic.AtomicBoolean writing = new java.util.concurrent.atomic.AtomicBoolean(true);
            Thread committer = Thread.ofPlatform().start(() -> {
                Row previous = head(writer);
                while (writing.get()) {
                    acknowledged.set(commitNext(writer, previous));
                    previous = head(writer);
                }
            });
            java.util.List<Throwable> failures = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
            java.util.List<Thread> readers = new java.util.ArrayList<>();
            for (int t = 0; t < 4; t++) {
                readers.add(Thread.ofPlatform().start(() -> {
                    try {
                        for (int i = 0; i < 15; i++) {
                            long before = acknowledged.get();
                            try (CatalogSnapshot latest = reader.latest()) {
                                assertThat(latest.id()).as("a read sees what was acknowledged before it began").isGreaterThanOrEqualTo(before);
                            }
                        }
                    }
                    catch (Throwable e) {
                        failures.add(e);
                    }
                }));
            }
            for (Thread thread : readers) {
                thread.join();
            }
            writing.set(false);
            committer.join();
            assertThat(failures).isEmpty();
            assertThat(reader.store().freshnessTally().readersOpened()).as("readers were replaced as commits landed").isGreaterThan(1);
        }
    }

    @Test
    void aStoreWithASeparateWalStoreIsCheckedWhereItsLogIs()
    {
        StoreUri uri = StoreUri.parse(temp.resolve("with-wal").toUri().toString());
        StoreOptions options = StoreOptions.DEFAULTS.withWalStore(StoreUri.parse(temp.resolve("wal").toUri().toString()))
                .withManifestPollInterval(Duration.ofHours(1));
        try (MoraineCatalog writer = MoraineCatalog.create(uri, NewCatalog.bootstrapped(temp.resolve("data").toString()), options, java.util.List.of(),
                io.moraine.core.tx.CommitListener.NONE);
                MoraineCatalog reader = MoraineCatalog.open(uri, OpenMode.READ_ONLY, options)) {
            for (int i = 0; i < 3; i++) {
                long id = commitNext(writer, head(writer));
                try (CatalogSnapshot latest = reader.latest()) {
                    assertThat(latest.id()).as("commit %d, its log in the WAL store", i).isEqualTo(id);
                }
            }
        }
    }

    @Test
    void nothingChangedMeansNoNewReader()
    {
        StoreUri uri = StoreUri.parse(temp.resolve("unchanged").toUri().toString());
        try (MoraineCatalog writer = newCatalog(uri); MoraineCatalog reader = MoraineCatalog.open(uri, OpenMode.READ_ONLY, StoreOptions.DEFAULTS)) {
            long head = head(writer).getLong("snapshot_id");
            long opened = reader.store().freshnessTally().readersOpened();
            for (int i = 0; i < 5; i++) {
                try (CatalogSnapshot latest = reader.latest()) {
                    assertThat(latest.id()).isEqualTo(head);
                }
            }
            assertThat(reader.store().freshnessTally().readersOpened()).as("no reader reopened while nothing was committed").isEqualTo(opened);
            assertThat(reader.store().freshnessTally().checks()).isEqualTo(5);
            commitNext(writer, head(writer));
            try (CatalogSnapshot latest = reader.latest()) {
                assertThat(latest.id()).isEqualTo(head + 1);
            }
            assertThat(reader.store().freshnessTally().readersOpened()).isEqualTo(opened + 1);
        }
    }

    /** Room for a loaded machine in the bound checks below. */
    private static final Duration SLACK = Duration.ofSeconds(2);

    @Test
    void withAMaximumStalenessACommitIsSeenWithinTheBound()
            throws Exception
    {
        Duration bound = Duration.ofSeconds(2);
        StoreUri uri = StoreUri.parse(temp.resolve("bounded").toUri().toString());
        StoreOptions options = StoreOptions.DEFAULTS.withFreshness(ReaderFreshness.onDemand(bound));
        try (MoraineCatalog writer = newCatalog(uri); MoraineCatalog reader = MoraineCatalog.open(uri, OpenMode.READ_ONLY, options)) {
            long before = head(writer).getLong("snapshot_id");
            long checked = System.nanoTime();
            try (CatalogSnapshot latest = reader.latest()) {
                assertThat(latest.id()).isEqualTo(before);
            }
            long id = commitNext(writer, head(writer));
            long committed = System.nanoTime();
            long seenAfter = -1;
            long checksBefore = reader.store().freshnessTally().checks();
            while (System.nanoTime() - committed < bound.plusSeconds(3).toNanos()) {
                try (CatalogSnapshot latest = reader.latest()) {
                    if (latest.id() == id) {
                        seenAfter = System.nanoTime();
                        break;
                    }
                    // Still within the bound of the last check: served from what was seen, without checking (the slack
                    // is for a loaded machine, not a figure).
                    assertThat(Duration.ofNanos(System.nanoTime() - checked)).isLessThan(bound.plus(SLACK));
                }
                Thread.sleep(50);
            }
            assertThat(seenAfter).as("the commit was seen").isPositive();
            assertThat(Duration.ofNanos(seenAfter - committed)).as("seen within the bound").isLessThanOrEqualTo(bound.plus(SLACK));
            // At most the one check once the bound passed: a reader just opened may still be taking in the store's
            // state from its open and see the commit without a check of its own.
            assertThat(reader.store().freshnessTally().checks()).as("checks while waiting for the commit").isBetween(checksBefore, checksBefore + 1);
        }
    }

    @Test
    void pollingStaysAvailable()
            throws Exception
    {
        StoreUri uri = StoreUri.parse(temp.resolve("polling").toUri().toString());
        StoreOptions options = StoreOptions.DEFAULTS.withFreshness(ReaderFreshness.polling()).withManifestPollInterval(Duration.ofMillis(200));
        try (MoraineCatalog writer = newCatalog(uri); MoraineCatalog reader = MoraineCatalog.open(uri, OpenMode.READ_ONLY, options)) {
            long id = commitNext(writer, head(writer));
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (reader.headSnapshotId().orElse(-1) < id && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(reader.headSnapshotId()).hasValue(id);
            assertThat(reader.store().freshnessTally().checks()).as("a polling reader checks nothing on demand").isZero();
        }
    }

    @Test
    void settingsAreParsedWithClearErrors()
    {
        assertThat(ReaderFreshness.parse("on-demand", "0", "m", "s")).isEqualTo(ReaderFreshness.DEFAULT);
        assertThat(ReaderFreshness.parse("ON_DEMAND", "500ms", "m", "s")).isEqualTo(ReaderFreshness.onDemand(Duration.ofMillis(500)));
        assertThat(ReaderFreshness.parse("poll", "0", "m", "s")).isEqualTo(ReaderFreshness.polling());
        assertThatThrownBy(() -> ReaderFreshness.parse("sometimes", "0", "moraine.reader-freshness", "moraine.max-staleness"))
                .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("moraine.reader-freshness must be on-demand");
        assertThatThrownBy(() -> ReaderFreshness.parse("on-demand", "soon", "moraine.reader-freshness", "moraine.max-staleness"))
                .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("moraine.max-staleness takes 0");
        assertThatThrownBy(() -> ReaderFreshness.parse("poll", "5s", "moraine.reader-freshness", "moraine.max-staleness"))
                .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("poll interval");
    }

    private static long commitNext(MoraineCatalog writer, Row previous)
    {
        Row next = nextSnapshot(previous, 0, 0, 0);
        long id = next.getLong("snapshot_id");
        writer.begin(previous.getLong("snapshot_id")).insert(next).insert(changes(id, "inserted_into_table:1")).commit();
        return id;
    }
}
