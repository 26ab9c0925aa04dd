package io.moraine.core.store;

import io.moraine.core.error.FencedException;
import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.error.NotFoundException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** SlateDB itself, through moraine's store layer, on memory:// and file:// (S3 is in {@link S3StoreTest}). */
class SlateStoreTest
{
    @TempDir
    Path temp;

    @Test
    void writesBatchesReadsPointsAndScansRangesInMemory()
    {
        StoreUri uri = StoreUri.parse("memory://batches-" + UUID.randomUUID());
        try (SlateStore store = SlateStore.open(uri, OpenMode.READ_WRITE, StoreOptions.DEFAULTS.withCreateIfMissing())) {
            writeNumbered(store, 0, 500);
            assertThat(text(store.latest().get(key(42)))).isEqualTo("value-42");
            assertThat(store.latest().get(key(500))).isNull();
            assertThat(scanKeys(store.latest(), key(100), key(110), 3)).containsExactly(
                    "k00100", "k00101", "k00102", "k00103", "k00104", "k00105", "k00106", "k00107", "k00108", "k00109");

            Map<ByteBuffer, byte[]> deletes = new LinkedHashMap<>();
            deletes.put(ByteBuffer.wrap(key(101)), null);
            deletes.put(ByteBuffer.wrap(key(102)), bytes("changed"));
            store.write(deletes);
            assertThat(scanKeys(store.latest(), key(100), key(104), 100)).containsExactly("k00100", "k00102", "k00103");
            assertThat(text(store.latest().get(key(102)))).isEqualTo("changed");
        }
    }

    @Test
    void scansDescendingStayWithinTheirBoundsOnTheWriterAViewAndAReader()
            throws Exception
    {
        StoreUri uri = StoreUri.parse(temp.resolve("descending").toString());
        try (SlateStore writer = SlateStore.open(uri, OpenMode.READ_WRITE, StoreOptions.DEFAULTS.withCreateIfMissing())) {
            writeNumbered(writer, 0, 300);
            writer.write(Map.of(ByteBuffer.wrap(key(150)), bytes("changed")));
            try (SlateStore.SnapshotView view = writer.snapshot();
                    SlateStore reader = SlateStore.open(uri, OpenMode.READ_ONLY, StoreOptions.DEFAULTS)) {
                awaitKey(reader, key(299));
                for (KeyValueReader keys : List.of(writer.latest(), writer.latestIncludingPending(), view.reader(), reader.latest())) {
                    assertThat(scanKeysDescending(keys, key(148), key(153), 2)).containsExactly("k00152", "k00151", "k00150", "k00149", "k00148");
                    try (KeyValueCursor greatestBelow = keys.scanDescending(key(0), key(151), 1)) {
                        KeyValue entry = greatestBelow.next();
                        assertThat(text(entry.key())).isEqualTo("k00150");
                        assertThat(text(entry.value())).as("the newest value").isEqualTo("changed");
                    }
                    assertThat(scanKeysDescending(keys, key(400), key(500), 10)).isEmpty();
                }
            }
        }
    }

    @Test
    void reopensAFileStoreWithEverythingThatWasAcknowledged()
    {
        StoreUri uri = StoreUri.parse(temp.resolve("reopen").toString());
        try (SlateStore store = SlateStore.open(uri, OpenMode.READ_WRITE, StoreOptions.DEFAULTS.withCreateIfMissing())) {
            writeNumbered(store, 0, 100);
        }
        try (SlateStore store = SlateStore.open(StoreUri.parse("file://" + temp.resolve("reopen")), OpenMode.READ_WRITE, StoreOptions.DEFAULTS.withCreateIfMissing())) {
            assertThat(scanKeys(store.latest(), key(0), key(1000), 7)).hasSize(100);
            assertThat(text(store.latest().get(key(99)))).isEqualTo("value-99");
        }
    }

    @Test
    void aSnapshotViewDoesNotSeeLaterWrites()
    {
        StoreUri uri = StoreUri.parse("memory://snapshot-" + UUID.randomUUID());
        try (SlateStore store = SlateStore.open(uri, OpenMode.READ_WRITE, StoreOptions.DEFAULTS.withCreateIfMissing())) {
            writeNumbered(store, 0, 10);
            try (SlateStore.SnapshotView view = store.snapshot()) {
                writeNumbered(store, 10, 20);
                assertThat(scanKeys(view.reader(), key(0), key(100), 100)).hasSize(10);
                assertThat(view.reader().get(key(15))).isNull();
            }
            assertThat(scanKeys(store.latest(), key(0), key(100), 100)).hasSize(20);
        }
    }

    /**
     * The writer answers a view's reads of system records from memory: at every view, across puts, changes and deletes
     * of system keys and a reopen, each answer equals what SlateDB itself holds in that view (its scan of the subspace).
     */
    @Test
    void aSnapshotViewAnswersSystemRecordsAsSlateDbHoldsThem()
    {
        StoreUri uri = StoreUri.parse(temp.resolve("system-records").toString());
        List<byte[]> systemKeys = List.of(systemKey("head"), systemKey("stamp-a"), systemKey("stamp-b"), systemKey("never-written"));
        try (SlateStore store = SlateStore.open(uri, OpenMode.READ_WRITE, StoreOptions.DEFAULTS.withCreateIfMissing())) {
            store.write(Map.of(ByteBuffer.wrap(systemKeys.get(0)), bytes("h0"), ByteBuffer.wrap(systemKeys.get(1)), bytes("a0")));
        }
        int comparisons = 0;
        java.util.concurrent.atomic.AtomicInteger systemKeysReadFromSlateDb = new java.util.concurrent.atomic.AtomicInteger();
        StoreReadListener counting = new StoreReadListener()
        {
            @Override
            public void pointRead(byte[] key)
            {
                if (key[0] == 0) {
                    systemKeysReadFromSlateDb.incrementAndGet();
                }
            }

            @Override
            public void rangeScan(byte[] start, byte[] end) {}
        };
        try (SlateStore store = SlateStore.open(uri, OpenMode.READ_WRITE, StoreOptions.DEFAULTS.withReadListener(counting))) {
            List<SlateStore.SnapshotView> views = new ArrayList<>();
            try {
                for (int step = 1; step <= 6; step++) {
                    views.add(store.snapshot());
                    Map<ByteBuffer, byte[]> batch = new LinkedHashMap<>();
                    batch.put(ByteBuffer.wrap(systemKeys.get(0)), bytes("h" + step));
                    batch.put(ByteBuffer.wrap(systemKeys.get(step % 2 == 0 ? 1 : 2)), step % 3 == 0 ? null : bytes("stamp" + step));
                    batch.put(ByteBuffer.wrap(key(step)), bytes("row" + step));
                    store.write(batch);
                }
                views.add(store.snapshot());
                for (SlateStore.SnapshotView view : views) {
                    Map<String, String> held = new java.util.HashMap<>();
                    try (KeyValueCursor cursor = view.reader().scan(new byte[] {0}, new byte[] {1}, 100)) {
                        cursor.forEachRemaining(entry -> held.put(text(entry.key()), text(entry.value())));
                    }
                    for (byte[] systemKey : systemKeys) {
                        assertThat(text(view.reader().get(systemKey))).as("%s in view %d", text(systemKey), views.indexOf(view))
                                .isEqualTo(held.get(text(systemKey)));
                        comparisons++;
                    }
                }
                assertThat(text(views.get(0).reader().get(systemKeys.get(0)))).as("loaded at the reopen").isEqualTo("h0");
                assertThat(text(views.getLast().reader().get(systemKeys.get(0)))).isEqualTo("h6");
                assertThat(systemKeysReadFromSlateDb).as("answered from the writer's memory").hasValue(0);
            }
            finally {
                views.forEach(SlateStore.SnapshotView::close);
            }
        }
        assertThat(comparisons).isEqualTo(7 * 4);
    }

    @Test
    void systemRecordsAreNoLongerKeptOnceABatchFailedWithItsOutcomeUnknown()
    {
        try (SlateStore store = SlateStore.open(StoreUri.parse("memory://forget-" + UUID.randomUUID()), OpenMode.READ_WRITE,
                StoreOptions.DEFAULTS.withCreateIfMissing())) {
            AppliedSystemRecords records = new AppliedSystemRecords();
            assertThat(records.current()).as("not loaded").isNull();
            store.write(Map.of(ByteBuffer.wrap(systemKey("head")), bytes("h1")));
            records.load(store.latestIncludingPending());
            assertThat(records.current()).containsOnlyKeys(ByteBuffer.wrap(systemKey("head")));
            records.applied(Map.of(ByteBuffer.wrap(systemKey("head")), bytes("h2"), ByteBuffer.wrap(key(1)), bytes("row")));
            assertThat(text(records.current().get(ByteBuffer.wrap(systemKey("head"))))).isEqualTo("h2");
            records.forget();
            assertThat(records.current()).as("read from SlateDB from now on").isNull();
            records.applied(Map.of(ByteBuffer.wrap(systemKey("head")), bytes("h3")));
            assertThat(records.current()).isNull();
        }
    }

    @Test
    void pendingBatchesAreInvisibleToReadersAndASnapshotViewStaysPutWhileTheyBecomeDurable()
    {
        StoreUri uri = StoreUri.parse(temp.resolve("pending").toString());
        byte[] key = key(1);
        try (SlateStore store = SlateStore.open(uri, OpenMode.READ_WRITE, StoreOptions.DEFAULTS.withCreateIfMissing())) {
            try (SlateStore.PendingWrite first = store.apply(Map.of(ByteBuffer.wrap(key), "v1".getBytes(StandardCharsets.UTF_8)))) {
                assertThat(store.latestIncludingPending().get(key)).asString(StandardCharsets.UTF_8).isEqualTo("v1");
                // A snapshot waits for the pending batch to be durable, so it includes it.
                try (SlateStore.SnapshotView view = store.snapshot()) {
                    assertThat(store.latest().get(key)).as("handed out only once durable").asString(StandardCharsets.UTF_8).isEqualTo("v1");
                    assertThat(view.reader().get(key)).asString(StandardCharsets.UTF_8).isEqualTo("v1");
                    try (SlateStore.PendingWrite second = store.apply(Map.of(ByteBuffer.wrap(key), "v2".getBytes(StandardCharsets.UTF_8)))) {
                        assertThat(view.reader().get(key)).asString(StandardCharsets.UTF_8).isEqualTo("v1");
                        second.awaitDurable();
                        assertThat(view.reader().get(key)).as("the view is pinned, durable or not").asString(StandardCharsets.UTF_8).isEqualTo("v1");
                    }
                }
                first.awaitDurable();
            }
            assertThat(store.latest().get(key)).asString(StandardCharsets.UTF_8).isEqualTo("v2");
        }
    }

    @Test
    void aReadOnlyReaderFollowsTheWriter()
            throws Exception
    {
        for (StoreUri uri : List.of(StoreUri.parse("memory://follow-" + UUID.randomUUID()), StoreUri.parse(temp.resolve("follow").toString()))) {
            try (SlateStore writer = SlateStore.open(uri, OpenMode.READ_WRITE, StoreOptions.DEFAULTS.withCreateIfMissing())) {
                writeNumbered(writer, 0, 10);
                try (SlateStore reader = SlateStore.open(uri, OpenMode.READ_ONLY, StoreOptions.DEFAULTS)) {
                    assertThat(text(reader.latest().get(key(3)))).isEqualTo("value-3");
                    writeNumbered(writer, 10, 20);
                    awaitKey(reader, key(19));
                    assertThat(scanKeys(reader.latest(), key(0), key(100), 100)).hasSize(20);
                    assertThatThrownBy(() -> reader.write(Map.of(ByteBuffer.wrap(key(1)), bytes("x"))))
                            .isInstanceOf(InvalidArgumentException.class)
                            .hasMessageContaining("READ_ONLY");
                }
            }
        }
    }

    @Test
    void aCheckpointPinnedReaderSeesExactlyTheCheckpointedState()
            throws Exception
    {
        for (StoreUri uri : List.of(StoreUri.parse("memory://pinned-" + UUID.randomUUID()), StoreUri.parse(temp.resolve("pinned").toString()))) {
            try (SlateStore writer = SlateStore.open(uri, OpenMode.READ_WRITE, StoreOptions.DEFAULTS.withCreateIfMissing())) {
                writeNumbered(writer, 0, 10);
                CheckpointInfo checkpoint = writer.createCheckpoint(Optional.empty(), Optional.of("test"));
                assertThat(writer.listCheckpoints()).extracting(CheckpointInfo::id).contains(checkpoint.id());
                writeNumbered(writer, 10, 20);

                try (SlateStore pinned = SlateStore.open(uri, OpenMode.CHECKPOINT, StoreOptions.DEFAULTS.withCheckpoint(checkpoint.id()))) {
                    Thread.sleep(300); // several manifest poll intervals: a pinned reader must still not move
                    assertThat(scanKeys(pinned.latest(), key(0), key(100), 100)).hasSize(10);
                    assertThat(pinned.latest().get(key(15))).isNull();
                }
                writer.deleteCheckpoint(checkpoint.id());
                assertThat(writer.listCheckpoints()).extracting(CheckpointInfo::id).doesNotContain(checkpoint.id());
                assertThatThrownBy(() -> SlateStore.open(uri, OpenMode.CHECKPOINT, StoreOptions.DEFAULTS.withCheckpoint(checkpoint.id())))
                        .isInstanceOf(NotFoundException.class)
                        .hasMessageContaining(checkpoint.id());
            }
        }
    }

    @Test
    void malformedOrMisplacedCheckpointIdsAreRefused()
    {
        StoreUri uri = StoreUri.parse("memory://bad-checkpoint-" + UUID.randomUUID());
        try (SlateStore writer = SlateStore.open(uri, OpenMode.READ_WRITE, StoreOptions.DEFAULTS.withCreateIfMissing())) {
            writeNumbered(writer, 0, 1);
            assertThatThrownBy(() -> SlateStore.open(uri, OpenMode.CHECKPOINT, StoreOptions.DEFAULTS.withCheckpoint("not-a-uuid")))
                    .isInstanceOf(InvalidArgumentException.class)
                    .hasMessageContaining("malformed");
            assertThatThrownBy(() -> SlateStore.open(uri, OpenMode.READ_WRITE, StoreOptions.DEFAULTS.withCheckpoint(UUID.randomUUID().toString())))
                    .isInstanceOf(InvalidArgumentException.class)
                    .hasMessageContaining("only a CHECKPOINT open");
        }
    }

    @Test
    void aSecondWriterFencesTheFirst()
    {
        for (StoreUri uri : List.of(StoreUri.parse("memory://fence-" + UUID.randomUUID()), StoreUri.parse(temp.resolve("fence").toString()))) {
            try (SlateStore first = SlateStore.open(uri, OpenMode.READ_WRITE, StoreOptions.DEFAULTS.withCreateIfMissing())) {
                writeNumbered(first, 0, 5);
                try (SlateStore second = SlateStore.open(uri, OpenMode.READ_WRITE, StoreOptions.DEFAULTS.withCreateIfMissing())) {
                    writeNumbered(second, 5, 10);
                    assertThatThrownBy(() -> writeNumbered(first, 10, 11))
                            .isInstanceOf(FencedException.class)
                            .hasMessageContaining("FENCED")
                            .hasMessageContaining("Re-open");
                    assertThat(scanKeys(second.latest(), key(0), key(100), 100)).hasSize(10);
                }
            }
        }
    }

    /**
     * A writer that is never closed cleanly (killed, or fenced as here) leaves its commits in WAL objects only; the next
     * writer's open flushes what it replayed into an L0 SST, so that opens do not replay a growing WAL history.
     */
    @Test
    void aWriterOpenFlushesTheWalItReplayedIntoAnSst()
            throws Exception
    {
        Path directory = temp.resolve("replay");
        StoreUri uri = StoreUri.parse(directory.toString());
        List<SlateStore> unclosed = new ArrayList<>();
        try {
            long previousSsts = -1;
            for (int writer = 0; writer < 3; writer++) {
                SlateStore store = SlateStore.open(uri, OpenMode.READ_WRITE, StoreOptions.DEFAULTS.withCreateIfMissing());
                unclosed.add(store);
                long ssts = writer == 0 ? countFiles(directory.resolve("compacted"))
                        : awaitFileCount(directory.resolve("compacted"), previousSsts + 1, "L0 SSTs after writer " + writer + " opened over the WAL of an unclosed one");
                assertThat(scanKeys(store.latest(), key(0), key(1000), 100)).hasSize(writer * 10);
                for (int batch = 0; batch < 10; batch++) {
                    writeNumbered(store, writer * 10 + batch, writer * 10 + batch + 1);
                }
                previousSsts = ssts;
            }
        }
        finally {
            unclosed.forEach(SlateStore::close);
        }
    }

    @Test
    void aLongLivedWriterFlushesItsMemtableEveryFewDozenWalObjects()
            throws Exception
    {
        Path directory = temp.resolve("long-lived");
        StoreUri uri = StoreUri.parse(directory.toString());
        SlateStore killedLater = SlateStore.open(uri, OpenMode.READ_WRITE, StoreOptions.DEFAULTS.withCreateIfMissing());
        try {
            long before = countFiles(directory.resolve("compacted"));
            int batches = 2 * SlateStore.WAL_OBJECTS_PER_MEMTABLE_FLUSH + 1;
            for (int batch = 0; batch < batches; batch++) {
                writeNumbered(killedLater, batch, batch + 1);
            }
            awaitFileCount(directory.resolve("compacted"), before + 2, "SSTs after " + batches + " durable batches by a writer that is still open");
            // A writer opening now (the first one never closed, as if killed) replays only the WAL since the last flush.
            try (SlateStore next = SlateStore.open(uri, OpenMode.READ_WRITE, StoreOptions.DEFAULTS)) {
                assertThat(scanKeys(next.latest(), key(0), key(100_000), 100)).hasSize(batches);
            }
        }
        finally {
            killedLater.close();
        }
    }

    @Test
    void aWritersCompactorLooksForWorkEverySecondAndTakesOverADeadWorkersJobAfterFive()
            throws Exception
    {
        SlateDbNativeLibrary.prepare();
        try (io.slatedb.uniffi.Settings settings = io.slatedb.uniffi.Settings._default()) {
            SlateStore.applyWriterSettings(settings);
            String json = settings.toJsonString();
            // SlateDB's defaults: 5 s, 5 s, 30 s, 10 s; "manifest_poll_interval" is another setting (1 s by default)
            Map<String, String> changed = Map.of(
                    "\"poll_interval\":\"1s\"", "\"poll_interval\":\"5s\"",
                    "\"compactions_poll_interval\":\"1s\"", "\"compactions_poll_interval\":\"5s\"",
                    "\"worker_heartbeat_timeout\":\"5s\"", "\"worker_heartbeat_timeout\":\"30s\"",
                    "\"heartbeat_interval\":\"1s\"", "\"heartbeat_interval\":\"10s\"");
            assertThat(json).contains(changed.keySet());
            // everything else as SlateDB ships it
            String restored = json;
            for (Map.Entry<String, String> setting : changed.entrySet()) {
                restored = restored.replace(setting.getKey(), setting.getValue());
            }
            try (io.slatedb.uniffi.Settings defaults = io.slatedb.uniffi.Settings._default()) {
                assertThat(restored).isEqualTo(defaults.toJsonString());
            }
        }
    }

    /** Waits up to 20 s for {@code directory} to hold at least {@code atLeast} files (memtable flushes run in the background). */
    private static long awaitFileCount(Path directory, long atLeast, String what)
            throws Exception
    {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        long count;
        while ((count = countFiles(directory)) < atLeast && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(count).as(what).isGreaterThanOrEqualTo(atLeast);
        return count;
    }

    private static long countFiles(Path directory)
            throws java.io.IOException
    {
        if (!java.nio.file.Files.isDirectory(directory)) {
            return 0;
        }
        // SlateDB writes an object to a temporary name (<name>#<n>) and renames it: a walk can meet a file that is gone
        // by the time it is looked at, so such a walk is done again; temporary files are not counted.
        while (true) {
            try (var files = java.nio.file.Files.walk(directory)) {
                return files.filter(path -> !path.getFileName().toString().contains("#")).filter(java.nio.file.Files::isRegularFile).count();
            }
            catch (java.io.UncheckedIOException e) {
                if (!(e.getCause() instanceof java.nio.file.NoSuchFileException)) {
                    throw e;
                }
            }
        }
    }

    static void writeNumbered(SlateStore store, int from, int to)
    {
        Map<ByteBuffer, byte[]> batch = new LinkedHashMap<>();
        for (int i = from; i < to; i++) {
            batch.put(ByteBuffer.wrap(key(i)), bytes("value-" + i));
        }
        store.write(batch);
    }

    static void awaitKey(SlateStore reader, byte[] key)
            throws InterruptedException
    {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        // A read that begins something: an on-demand reader checks the store (a polling one waits for its poll).
        while (catchingUp(reader).latest().get(key) == null) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("reader did not catch up with the writer within 20 s");
            }
            Thread.sleep(20);
        }
    }

    private static SlateStore catchingUp(SlateStore reader)
    {
        reader.catchUp();
        return reader;
    }

    static List<String> scanKeys(KeyValueReader reader, byte[] from, byte[] to, int pageSize)
    {
        List<String> keys = new ArrayList<>();
        try (KeyValueCursor cursor = reader.scan(from, to, pageSize)) {
            while (cursor.hasNext()) {
                KeyValue entry = cursor.next();
                keys.add(text(entry.key()));
            }
        }
        return keys;
    }

    static List<String> scanKeysDescending(KeyValueReader reader, byte[] from, byte[] to, int pageSize)
    {
        List<String> keys = new ArrayList<>();
        try (KeyValueCursor cursor = reader.scanDescending(from, to, pageSize)) {
            cursor.forEachRemaining(entry -> keys.add(text(entry.key())));
        }
        return keys;
    }

    /** A key of the system subspace (tag 0x00), which the writer keeps in memory. */
    static byte[] systemKey(String name)
    {
        byte[] text = bytes(name);
        byte[] key = new byte[text.length + 1];
        System.arraycopy(text, 0, key, 1, text.length);
        return key;
    }

    static byte[] key(int i)
    {
        return bytes("k%05d".formatted(i));
    }

    static byte[] bytes(String s)
    {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static String text(byte[] bytes)
    {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }
}
