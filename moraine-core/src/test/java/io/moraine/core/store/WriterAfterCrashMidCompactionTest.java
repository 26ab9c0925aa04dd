package io.moraine.core.store;

import io.slatedb.uniffi.Admin;
import io.slatedb.uniffi.AdminBuilder;
import io.slatedb.uniffi.CompactionStatus;
import io.slatedb.uniffi.CompactorStateView;
import io.slatedb.uniffi.Settings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.moraine.core.store.SlateStoreTest.key;
import static io.moraine.core.store.SlateStoreTest.writeNumbered;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A writer killed while compacting leaves L0 full and its compaction marked running. SlateDB writes no memtable to L0
 * until a compaction frees room, and none can until the next writer's compactor takes the dead one's job over. The
 * next writer must open and commit meanwhile (commits need only the write-ahead log), and close once the job is taken
 * over, well within the store timeout.
 */
class WriterAfterCrashMidCompactionTest
{
    // SlateDB's l0_max_ssts, checked against its default settings below
    private static final int L0_LIMIT = 8;
    private static final int ATTEMPTS = 5;

    @TempDir
    Path temp;

    @Test
    void aWriterOpenedAfterOneKilledMidCompactionCommitsAtOnceAndClosesOnceTheJobIsTakenOver()
            throws Exception
    {
        SlateDbNativeLibrary.prepare();
        try (Settings defaults = Settings._default()) {
            assertThat(defaults.toJsonString()).contains("\"l0_max_ssts\":" + L0_LIMIT);
        }
        StoreUri uri = StoreUri.parse("file://" + temp.resolve("store"));
        List<String> missed = new ArrayList<>();
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            killWhileCompactingWithL0Full(uri);
            CompactorStateView afterKill = compactorState(uri);
            if (afterKill.manifest().l0().size() < L0_LIMIT || !hasRunningCompaction(afterKill)) {
                // the compaction finished between the look and the kill: try again
                missed.add("attempt %d: L0 %d, running %s".formatted(attempt, afterKill.manifest().l0().size(), hasRunningCompaction(afterKill)));
                continue;
            }
            // Shorter than the time SlateDB leaves a dead worker's job alone, so a writer that waited for it fails.
            StoreOptions options = StoreOptions.DEFAULTS.withTimeout(Duration.ofSeconds(4));
            try (SlateStore writer = SlateStore.open(uri, OpenMode.READ_WRITE, options)) {
                writeNumbered(writer, 0, 1);
                assertThat(writer.latest().get(key(0))).as("a commit made while L0 is full").isNotNull();
                // The writer's compactor takes the dead worker's job over (SlateDB's default would wait 30 s) and L0 drains.
                long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
                while (compactorState(uri).manifest().l0().size() >= L0_LIMIT) {
                    assertThat(System.nanoTime()).as("L0 drained within 20 s of the open").isLessThan(deadline);
                    Thread.sleep(100);
                }
            }
            try (SlateStore reader = SlateStore.open(uri, OpenMode.READ_ONLY, StoreOptions.DEFAULTS)) {
                assertThat(reader.latest().get(key(0))).as("the commit after reopening").isNotNull();
            }
            return;
        }
        throw new AssertionError("no kill caught a compaction running with L0 full in " + ATTEMPTS + " attempts: " + missed);
    }

    /** Runs {@link CompactingWriter} until L0 is full and a compaction is running, then kills it with SIGKILL. */
    private static void killWhileCompactingWithL0Full(StoreUri uri)
            throws Exception
    {
        String java = ProcessHandle.current().info().command().orElse("java");
        Process child = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                CompactingWriter.class.getName(), uri.toString())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        try {
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (true) {
                assertThat(child.isAlive()).as("the compacting writer is running").isTrue();
                assertThat(System.nanoTime()).as("L0 full with a compaction running within 60 s").isLessThan(deadline);
                if (hasManifest(uri)) {
                    CompactorStateView state = compactorState(uri);
                    if (state.manifest().l0().size() >= L0_LIMIT && hasRunningCompaction(state)) {
                        return;
                    }
                }
                Thread.sleep(5);
            }
        }
        finally {
            child.destroyForcibly(); // SIGKILL on Linux
            child.waitFor();
        }
    }

    private static boolean hasRunningCompaction(CompactorStateView state)
    {
        return state.compactions() != null && state.compactions().recentCompactions().stream()
                .anyMatch(compaction -> compaction.status() == CompactionStatus.RUNNING);
    }

    private static boolean hasManifest(StoreUri uri)
    {
        return SlateStore.exists(uri, StoreOptions.DEFAULTS);
    }

    private static CompactorStateView compactorState(StoreUri uri)
            throws Exception
    {
        try (AdminBuilder builder = new AdminBuilder(uri.dbPath(), ObjectStores.resolve(uri, StoreOptions.DEFAULTS)); Admin admin = builder.build()) {
            return admin.readCompactorStateView().get();
        }
    }
}
