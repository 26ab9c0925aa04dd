package io.moraine.core.store;

import io.moraine.core.error.StoreObjectMissingException;
import io.slatedb.uniffi.Db;
import io.slatedb.uniffi.ObjectStore;
import io.slatedb.uniffi.DbBuilder;
import io.slatedb.uniffi.FlushOptions;
import io.slatedb.uniffi.FlushType;
import io.slatedb.uniffi.Settings;
import io.slatedb.uniffi.WriteBatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * An on-demand reader's generation keeps no checkpoint, so the writer's garbage collector may delete an SST it still
 * reads once a compaction replaced it (docs/freshness.md). A real SlateDB writer, with moraine's writer settings and
 * SlateDB's embedded compactor, compacts away the SSTs a reader's old generation reads; the test then deletes them, as
 * SlateDB's garbage collector does with an SST the newest manifest no longer names ({@link CollectedSsts} says why
 * SlateDB's own collector does not do it here). That generation's next read finds them gone and is redone on a new
 * generation, with the same answer; without the retry it fails.
 */
class ReadAfterGarbageCollectionTest
{
    private static final int ROWS = 4000;
    private static final int VALUE_BYTES = 1024;
    // Size-tiered compaction takes at least 4 L0 SSTs at once.
    private static final int LATER_SSTS = 5;

    @TempDir
    Path temp;

    @AfterEach
    void retryOn()
    {
        CollectedSsts.retryAfterMissingObject(true);
    }

    @Test
    void aPointReadOnAGenerationWhoseSstsWereCollectedIsRedoneOnANewOne()
            throws Exception
    {
        try (Fixture fixture = new Fixture(temp.resolve("point"))) {
            // Two views of the first generation: the first read moves the store to a new one, the second view follows.
            try (SlateStore.SnapshotView view = fixture.reader.snapshot(); SlateStore.SnapshotView other = fixture.reader.snapshot()) {
                fixture.compactAndCollectFirstSsts();
                assertThat(view.reader().get(key(ROWS - 7))).isEqualTo(value(ROWS - 7));
                assertThat(other.reader().getAll(List.of(key(ROWS - 3), key(ROWS - 2), "b".getBytes(StandardCharsets.UTF_8))))
                        .satisfiesExactly(
                                first -> assertThat(first).isEqualTo(value(ROWS - 3)),
                                second -> assertThat(second).isEqualTo(value(ROWS - 2)),
                                absent -> assertThat(absent).isNull());
            }
            assertThat(fixture.reader.freshnessTally().readersOpened()).isEqualTo(2);
        }
    }

    @Test
    void aScanThatFindsItsSstsCollectedMidwayGoesOnAfterItsLastKeyOnANewGeneration()
            throws Exception
    {
        try (Fixture fixture = new Fixture(temp.resolve("scan"))) {
            try (SlateStore.SnapshotView view = fixture.reader.snapshot();
                    KeyValueCursor cursor = view.reader().scan(key(0), "b".getBytes(StandardCharsets.UTF_8), 10)) {
                int row = 0;
                for (; row < 10; row++) {
                    KeyValue next = cursor.next();
                    assertThat(next.key()).isEqualTo(key(row));
                }
                fixture.compactAndCollectFirstSsts();
                while (cursor.hasNext()) {
                    KeyValue next = cursor.next();
                    assertThat(next.key()).as("row %d", row).isEqualTo(key(row));
                    assertThat(next.value()).as("row %d", row).isEqualTo(value(row));
                    row++;
                }
                assertThat(row).isEqualTo(ROWS);
            }
        }
    }

    @Test
    void latestReadsBetweenChecksAreRedoneOnANewGeneration()
            throws Exception
    {
        try (Fixture fixture = new Fixture(temp.resolve("latest"))) {
            KeyValueReader latest = fixture.reader.latest();
            fixture.compactAndCollectFirstSsts();
            assertThat(latest.get(key(11))).isEqualTo(value(11));
        }
    }

    @Test
    void withoutTheRetryTheReadFailsSoTheTestsAboveCanFail()
            throws Exception
    {
        CollectedSsts.retryAfterMissingObject(false);
        try (Fixture fixture = new Fixture(temp.resolve("no-retry"))) {
            try (SlateStore.SnapshotView view = fixture.reader.snapshot()) {
                fixture.compactAndCollectFirstSsts();
                assertThatThrownBy(() -> view.reader().get(key(ROWS - 7)))
                        .isInstanceOf(StoreObjectMissingException.class)
                        .hasMessageContaining("gone from the object store")
                        .hasMessageContaining("garbage collector");
            }
        }
    }

    @Test
    void aFileStillGoneOnTheNewGenerationIsATypedStoreErrorAfterOneRetry()
            throws Exception
    {
        try (Fixture fixture = new Fixture(temp.resolve("broken"))) {
            try (SlateStore.SnapshotView view = fixture.reader.snapshot()) {
                fixture.compactAndCollectFirstSsts();
                // Something other than SlateDB deleted every SST: no reader can read the row.
                for (Path sst : fixture.ssts()) {
                    Files.delete(sst);
                }
                assertThatThrownBy(() -> view.reader().get(key(ROWS - 7)))
                        .isInstanceOf(StoreObjectMissingException.class)
                        .hasMessageContaining("found one gone again after moving to a reader of the store's current state")
                        .hasMessageContaining("restore the store from a checkpoint or backup");
            }
            assertThat(fixture.reader.freshnessTally().readersOpened()).isEqualTo(2);
        }
    }

    /** A SlateDB writer with an aggressive garbage collector, and an on-demand reader opened after its first SST. */
    private static final class Fixture
            implements AutoCloseable
    {
        private final Db writer;
        private final SlateStore reader;
        private final Set<Path> firstSsts;
        private final CollectedSsts collector;

        Fixture(Path directory)
                throws Exception
        {
            StoreUri uri = StoreUri.parse(directory.toUri().toString());
            ObjectStore objectStore = ObjectStores.resolve(uri, StoreOptions.DEFAULTS);
            try (DbBuilder builder = new DbBuilder(uri.dbPath(), objectStore); Settings settings = Settings._default()) {
                SlateStore.applyWriterSettings(settings);
                builder.withSettings(settings);
                writer = builder.build().get();
            }
            collector = new CollectedSsts(uri);
            writeSst('a');
            firstSsts = ssts();
            assertThat(firstSsts).isNotEmpty();
            reader = SlateStore.open(uri, OpenMode.READ_ONLY, StoreOptions.DEFAULTS);
        }

        /**
         * Writes SSTs until a compaction replaced the first ones, then deletes those, as SlateDB's garbage collector
         * does with an SST no manifest references (on file:// it cannot: see the class comment).
         */
        void compactAndCollectFirstSsts()
                throws Exception
        {
            for (int i = 0; i < LATER_SSTS; i++) {
                writeSst((char) ('c' + i));
            }
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (!collector.unreferenced(firstSsts)) {
                assertThat(System.nanoTime()).as("the first SSTs %s compacted away within 60 s", firstSsts).isLessThan(deadline);
                Thread.sleep(50);
            }
            collector.collect(firstSsts);
        }

        private void writeSst(char prefix)
                throws Exception
        {
            try (WriteBatch batch = new WriteBatch()) {
                for (int row = 0; row < ROWS; row++) {
                    byte[] key = key(row);
                    key[0] = (byte) prefix;
                    batch.put(key, value(row));
                }
                writer.write(batch).get().close();
            }
            writer.flushWithOptions(new FlushOptions(FlushType.MEM_TABLE)).get();
        }

        Set<Path> ssts()
                throws IOException
        {
            return collector.ssts();
        }

        @Override
        public void close()
                throws Exception
        {
            try (reader; collector) {
                writer.shutdown().get();
            }
            finally {
                writer.close();
            }
        }
    }

    private static byte[] key(int row)
    {
        return "a%06d".formatted(row).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] value(int row)
    {
        byte[] value = new byte[VALUE_BYTES];
        new Random(row).nextBytes(value);
        return value;
    }
}
