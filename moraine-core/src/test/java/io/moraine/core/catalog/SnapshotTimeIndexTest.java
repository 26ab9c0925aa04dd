package io.moraine.core.catalog;

import io.moraine.core.error.NotFoundException;
import io.moraine.core.keyspace.SnapshotTimeKeys;
import io.moraine.core.keyspace.Subspace;
import io.moraine.core.keyspace.SystemKeys;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.store.KeyValueCursor;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreOptions;
import io.moraine.core.store.StoreUri;
import io.moraine.core.tx.CommitListener;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.TreeSet;

import static io.moraine.core.catalog.CatalogTestSupport.changes;
import static io.moraine.core.catalog.CatalogTestSupport.memoryStore;
import static io.moraine.core.catalog.CatalogTestSupport.newCatalog;
import static io.moraine.core.catalog.CatalogTestSupport.nextSnapshot;
import static io.moraine.core.catalog.CatalogTestSupport.scan;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Snapshots found by time through the snapshot-time index, and stores written before it existed. */
class SnapshotTimeIndexTest
{
    @TempDir
    Path temp;

    @Test
    void tiesAndOutOfOrderTimesResolveAsDuckLakeDoes()
    {
        try (MoraineCatalog catalog = newCatalog(memoryStore("times"))) {
            Instant t0 = bootstrapTime(catalog);
            // Snapshot 0 at t0; 1..5 at t0 + 30, 10, 20, 20, 40 seconds; 6 has no time at all.
            appendSnapshots(catalog, t0.plusSeconds(30), t0.plusSeconds(10), t0.plusSeconds(20), t0.plusSeconds(20), t0.plusSeconds(40), null);

            assertThat(idAsOf(catalog, t0)).isEqualTo(0);
            assertThat(idAsOf(catalog, t0.plusSeconds(15))).isEqualTo(2);
            assertThat(idAsOf(catalog, t0.plusSeconds(20))).as("equal times: the highest id").isEqualTo(4);
            assertThat(idAsOf(catalog, t0.plusSeconds(20).plusNanos(500))).isEqualTo(4);
            assertThat(idAsOf(catalog, t0.plusSeconds(20).minusNanos(500))).isEqualTo(2);
            assertThat(idAsOf(catalog, t0.plusSeconds(35))).as("a lower id with a later time").isEqualTo(1);
            assertThat(idAsOf(catalog, t0.plusSeconds(3600))).as("a snapshot without a time is never selected").isEqualTo(5);

            assertThat(catalog.firstSnapshotAtOrAfter(t0.minusSeconds(3600))).hasValue(0);
            assertThat(catalog.firstSnapshotAtOrAfter(t0.plusSeconds(5))).hasValue(2);
            assertThat(catalog.firstSnapshotAtOrAfter(t0.plusSeconds(15))).as("equal times: the lowest id").hasValue(3);
            assertThat(catalog.firstSnapshotAtOrAfter(t0.plusSeconds(20))).hasValue(3);
            assertThat(catalog.firstSnapshotAtOrAfter(t0.plusSeconds(20).minusNanos(500))).hasValue(3);
            assertThat(catalog.firstSnapshotAtOrAfter(t0.plusSeconds(20).plusNanos(500))).hasValue(1);
            assertThat(catalog.firstSnapshotAtOrAfter(t0.plusSeconds(40))).hasValue(5);
            assertThat(catalog.firstSnapshotAtOrAfter(t0.plusSeconds(40).plusNanos(1000))).isEmpty();
        }
    }

    @Test
    void anInstantBeforeEverySnapshotIsRefused()
    {
        try (MoraineCatalog catalog = newCatalog(memoryStore("before"))) {
            Instant t0 = bootstrapTime(catalog);
            appendSnapshots(catalog, t0.plusSeconds(1));
            assertThatThrownBy(() -> catalog.asOf(t0.minusNanos(1000)))
                    .isInstanceOf(NotFoundException.class)
                    .hasMessageContaining("no snapshot at or before " + t0.minusNanos(1000));
            assertThat(idAsOf(catalog, t0)).isEqualTo(0);
        }
        // A catalog with no snapshot yet (an import in progress) has nothing at any time.
        try (MoraineCatalog empty = MoraineCatalog.create(memoryStore("no-snapshots"), new NewCatalog("/lake", false, false, NewCatalog.CREATED_BY))) {
            assertThatThrownBy(() -> empty.asOf(Instant.now())).isInstanceOf(NotFoundException.class).hasMessageContaining("no snapshot yet");
            assertThat(empty.firstSnapshotAtOrAfter(Instant.EPOCH)).isEmpty();
        }
    }

    @Test
    void expiryAndTimeUpdatesKeepTheIndexInStepWithTheSnapshotRows()
    {
        try (MoraineCatalog catalog = newCatalog(memoryStore("expiry"))) {
            Instant t0 = bootstrapTime(catalog);
            appendSnapshots(catalog, t0.plusSeconds(30), t0.plusSeconds(10), t0.plusSeconds(20), t0.plusSeconds(20), t0.plusSeconds(40));

            catalog.begin(5).delete(TableKind.SNAPSHOT, 4L).delete(TableKind.SNAPSHOT_CHANGES, 4L).commit();
            assertThat(idAsOf(catalog, t0.plusSeconds(25))).isEqualTo(3);
            catalog.begin(5).delete(TableKind.SNAPSHOT, 3L).delete(TableKind.SNAPSHOT_CHANGES, 3L).commit();
            assertThat(idAsOf(catalog, t0.plusSeconds(25))).isEqualTo(2);
            assertThat(catalog.firstSnapshotAtOrAfter(t0.plusSeconds(15))).hasValue(1);
            assertThat(indexedSnapshotIds(catalog)).isEqualTo(snapshotIds(catalog)).containsExactly(0L, 1L, 2L, 5L);

            catalog.begin(5).update(TableKind.SNAPSHOT, Map.of("snapshot_time", t0.plusSeconds(35)), 2L).commit();
            assertThat(idAsOf(catalog, t0.plusSeconds(15))).as("snapshot 2 moved to a later time").isEqualTo(0);
            assertThat(idAsOf(catalog, t0.plusSeconds(36))).isEqualTo(2);
            assertThat(indexedSnapshotIds(catalog)).isEqualTo(snapshotIds(catalog));
            assertThat(indexEntryCount(catalog)).isEqualTo(4);
        }
    }

    @Test
    void lookupsAgreeWithEveryRowComparedByTimeThenId()
    {
        try (MoraineCatalog catalog = newCatalog(memoryStore("agree"))) {
            Instant t0 = bootstrapTime(catalog);
            Random random = new Random(20260301);
            List<Instant> times = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                // Few distinct times, so many ties, in no order; some a microsecond apart.
                times.add(t0.plusSeconds(1 + random.nextInt(12)).plusNanos(1000L * random.nextInt(2)));
            }
            appendSnapshots(catalog, times.toArray(Instant[]::new));
            List<Row> rows = scan(catalog, TableKind.SNAPSHOT, RowScope.CURRENT);

            TreeSet<Instant> probes = new TreeSet<>();
            rows.forEach(row -> {
                Instant time = (Instant) row.get("snapshot_time");
                probes.addAll(List.of(time, time.minusNanos(1), time.plusNanos(1), time.minusNanos(1000), time.plusNanos(1000)));
            });
            probes.add(t0.plusSeconds(3600));
            Comparator<Row> byTimeThenId = Comparator.comparing((Row row) -> (Instant) row.get("snapshot_time")).thenComparing(row -> row.getLong("snapshot_id"));
            for (Instant probe : probes) {
                OptionalLong expectedAsOf = rows.stream().filter(row -> !((Instant) row.get("snapshot_time")).isAfter(probe)).max(byTimeThenId)
                        .map(row -> OptionalLong.of(row.getLong("snapshot_id"))).orElse(OptionalLong.empty());
                OptionalLong expectedStart = rows.stream().filter(row -> !((Instant) row.get("snapshot_time")).isBefore(probe)).min(byTimeThenId)
                        .map(row -> OptionalLong.of(row.getLong("snapshot_id"))).orElse(OptionalLong.empty());
                if (expectedAsOf.isPresent()) {
                    assertThat(idAsOf(catalog, probe)).as("as of %s", probe).isEqualTo(expectedAsOf.getAsLong());
                }
                else {
                    assertThatThrownBy(() -> catalog.asOf(probe)).isInstanceOf(NotFoundException.class);
                }
                assertThat(catalog.firstSnapshotAtOrAfter(probe)).as("first at or after %s", probe).isEqualTo(expectedStart);
            }
        }
    }

    @Test
    void aLookupScansOneIndexRangeAndReadsNoOtherSnapshotRow()
    {
        CountingReads reads = new CountingReads();
        StoreOptions options = StoreOptions.DEFAULTS.withReadListener(reads);
        try (MoraineCatalog catalog = MoraineCatalog.create(memoryStore("bounded"), NewCatalog.bootstrapped("/lake/data"), options, List.of(), CommitListener.NONE)) {
            Instant t0 = bootstrapTime(catalog);
            Instant[] times = new Instant[100];
            for (int i = 0; i < times.length; i++) {
                times[i] = t0.plusSeconds(1 + (i * 37L) % times.length);
            }
            appendSnapshots(catalog, times);

            reads.clear();
            try (CatalogSnapshot snapshot = catalog.asOf(t0.plusSeconds(50))) {
                assertThat(snapshot.time()).isEqualTo(t0.plusSeconds(50));
            }
            assertThat(reads.scans()).containsExactly("snapshot_time");
            assertThat(reads.points()).as("the one snapshot chosen (the head comes from the writer's memory)").containsExactly("current/ducklake_snapshot");

            reads.clear();
            assertThat(catalog.firstSnapshotAtOrAfter(t0.plusSeconds(50).plusNanos(1))).isNotEmpty();
            assertThat(reads.scans()).containsExactly("snapshot_time");
            assertThat(reads.points()).isEmpty();
        }
    }

    @Test
    void aStoreWrittenBeforeTheIndexIsServedByScanningAndUpgradedByItsNextWriter()
            throws Exception
    {
        StoreUri uri = StoreUri.parse(temp.resolve("format-1").toString());
        Instant t0;
        try (MoraineCatalog catalog = newCatalog(uri)) {
            t0 = bootstrapTime(catalog);
            appendSnapshots(catalog, t0.plusSeconds(30), t0.plusSeconds(10), t0.plusSeconds(20), t0.plusSeconds(20));
            writeAsFormatOne(catalog);
            assertThat(indexEntryCount(catalog)).isZero();
        }

        CountingReads readerReads = new CountingReads();
        try (MoraineCatalog reader = MoraineCatalog.open(uri, OpenMode.READ_ONLY, StoreOptions.DEFAULTS.withReadListener(readerReads))) {
            assertThat(idAsOf(reader, t0.plusSeconds(25))).isEqualTo(4);
            assertThat(reader.firstSnapshotAtOrAfter(t0.plusSeconds(15))).hasValue(3);
            assertThat(readerReads.scans()).as("without the index, the snapshot rows are read").contains("current/ducklake_snapshot");
            assertThat(formatVersion(reader)).as("a READ_ONLY open does not upgrade").isEqualTo(1);

            CountingReads writerReads = new CountingReads();
            try (MoraineCatalog writer = MoraineCatalog.open(uri, OpenMode.READ_WRITE, StoreOptions.DEFAULTS.withReadListener(writerReads))) {
                assertThat(formatVersion(writer)).isEqualTo(MoraineCatalog.FORMAT_VERSION);
                assertThat(indexedSnapshotIds(writer)).isEqualTo(snapshotIds(writer)).containsExactly(0L, 1L, 2L, 3L, 4L);
                writerReads.clear();
                assertThat(idAsOf(writer, t0.plusSeconds(25))).isEqualTo(4);
                assertThat(writerReads.scans()).containsExactly("snapshot_time");
                appendSnapshots(writer, t0.plusSeconds(5));
                assertThat(idAsOf(writer, t0.plusSeconds(7))).isEqualTo(5);

                // The reader opened before the upgrade uses the index once it sees the new format record.
                awaitFormatVersion(reader, MoraineCatalog.FORMAT_VERSION);
                CatalogOpenTest.awaitHead(reader, 5);
                readerReads.clear();
                assertThat(idAsOf(reader, t0.plusSeconds(7))).isEqualTo(5);
                assertThat(readerReads.scans()).containsExactly("snapshot_time");
            }
        }
    }

    private static Instant bootstrapTime(MoraineCatalog catalog)
    {
        return (Instant) CatalogTestSupport.head(catalog).get("snapshot_time");
    }

    /** Commits one snapshot per time, each on the head, with the given snapshot_time (null: none). */
    private static void appendSnapshots(MoraineCatalog catalog, Instant... times)
    {
        Row previous = CatalogTestSupport.head(catalog);
        for (Instant time : times) {
            Row next = nextSnapshot(previous, 0, 0, 0).with("snapshot_time", time);
            long id = next.getLong("snapshot_id");
            catalog.begin(previous.getLong("snapshot_id")).insert(next).insert(changes(id, "inlined_insert:1")).commit();
            previous = next;
        }
    }

    private static long idAsOf(MoraineCatalog catalog, Instant instant)
    {
        try (CatalogSnapshot snapshot = catalog.asOf(instant)) {
            return snapshot.id();
        }
    }

    private static List<Long> snapshotIds(MoraineCatalog catalog)
    {
        return scan(catalog, TableKind.SNAPSHOT, RowScope.CURRENT).stream().map(row -> row.getLong("snapshot_id")).sorted().toList();
    }

    private static List<Long> indexedSnapshotIds(MoraineCatalog catalog)
    {
        return indexKeys(catalog).stream().map(SnapshotTimeKeys::snapshotId).sorted().toList();
    }

    private static int indexEntryCount(MoraineCatalog catalog)
    {
        return indexKeys(catalog).size();
    }

    private static List<byte[]> indexKeys(MoraineCatalog catalog)
    {
        List<byte[]> keys = new ArrayList<>();
        try (KeyValueCursor entries = catalog.store().latest().scan(Subspace.SNAPSHOT_TIME.start(), Subspace.SNAPSHOT_TIME.end(), 100)) {
            entries.forEachRemaining(entry -> keys.add(entry.key()));
        }
        return keys;
    }

    /** Makes the store what a binary before the index wrote: no index entries, format version 1. */
    private static void writeAsFormatOne(MoraineCatalog catalog)
    {
        Map<ByteBuffer, byte[]> writes = new HashMap<>();
        indexKeys(catalog).forEach(key -> writes.put(ByteBuffer.wrap(key), null));
        writes.put(ByteBuffer.wrap(SystemKeys.FORMAT), SystemKeys.encodeFormat(1, "moraine-jvm 0.1.0"));
        catalog.store().write(writes);
    }

    private static int formatVersion(MoraineCatalog catalog)
    {
        return SystemKeys.decodeFormatVersion(catalog.store().latest().get(SystemKeys.FORMAT));
    }

    private static int catchingUp(MoraineCatalog reader)
    {
        reader.store().catchUp();
        return formatVersion(reader);
    }

    private static void awaitFormatVersion(MoraineCatalog reader, int version)
            throws InterruptedException
    {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        // Each look begins a read: an on-demand reader checks the store first.
        while (catchingUp(reader) != version) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("reader did not see format version " + version + " within 20 s");
            }
            Thread.sleep(20);
        }
    }
}
