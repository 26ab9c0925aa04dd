package io.moraine.core.catalog;

import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreUri;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Kills a committing child JVM with SIGKILL at random moments, reopens the store and checks that every acknowledged
 * commit is present and no partial commit is visible. Trials: system property {@code moraine.crash.trials}.
 */
class CrashRecoveryTest
{
    @TempDir
    Path temp;

    @Test
    void everyAcknowledgedCommitSurvivesSigkillAndNoPartialCommitIsVisible()
            throws Exception
    {
        int trials = Integer.getInteger("moraine.crash.trials", 20);
        long seed = Long.getLong("moraine.crash.seed", System.nanoTime());
        Random random = new Random(seed);
        StoreUri uri = StoreUri.parse("file://" + temp.resolve("crash"));
        try (MoraineCatalog catalog = MoraineCatalog.create(uri, NewCatalog.bootstrapped("/lake/data"))) {
            catalog.begin(0).insert(CatalogTestSupport.table(1, 0, "t", 0)).insert(CatalogTestSupport.tableStats(1, 0, 0, 0)).commit();
        }
        long totalAcknowledged = 0;
        for (int trial = 0; trial < trials; trial++) {
            long acknowledged = runChildAndKill(uri, 150 + random.nextInt(1200));
            try (MoraineCatalog catalog = MoraineCatalog.open(uri, OpenMode.READ_WRITE)) {
                long head = catalog.headSnapshotId().orElseThrow();
                assertThat(head).as("trial %d (seed %d): head after SIGKILL", trial, seed).isGreaterThanOrEqualTo(acknowledged);
                checkEveryCommitIsWhole(catalog, head, "trial " + trial + " (seed " + seed + ")");
                totalAcknowledged = Math.max(totalAcknowledged, acknowledged);
            }
        }
        System.out.printf("crash test: %d trials, seed %d, %d snapshots acknowledged in all%n", trials, seed, totalAcknowledged);
        assertThat(totalAcknowledged).as("the child committed at all").isPositive();
    }

    private static void checkEveryCommitIsWhole(MoraineCatalog catalog, long head, String trial)
    {
        try (CatalogSnapshot snapshot = catalog.latest()) {
            List<Row> files = snapshot.dataFiles(1).toList();
            long[] perSnapshot = new long[(int) head + 1];
            for (Row file : files) {
                long begin = file.getLong("begin_snapshot");
                assertThat(begin).as(trial + ": a file of an unacknowledged, invisible snapshot").isLessThanOrEqualTo(head);
                perSnapshot[(int) begin]++;
            }
            for (long s = 1; s <= head; s++) {
                assertThat(perSnapshot[(int) s]).as(trial + ": files of snapshot " + s).isEqualTo(CrashCommitter.FILES_PER_COMMIT);
            }
            assertThat(catalog.scan(TableKind.SNAPSHOT, RowScope.CURRENT).toList()).as(trial + ": snapshot rows").hasSize((int) head + 1);
            assertThat(catalog.scan(TableKind.SNAPSHOT_CHANGES, RowScope.CURRENT).toList()).as(trial + ": change rows").hasSize((int) head + 1);
            long expectedRecords = head * CrashCommitter.FILES_PER_COMMIT * CrashCommitter.ROWS_PER_FILE;
            assertThat(snapshot.tableStats(1).orElseThrow().getLong("record_count")).as(trial + ": table stats").isEqualTo(expectedRecords);
        }
    }

    /** Starts the committer, kills it with SIGKILL after {@code millis} of committing, returns its last ACK. */
    private static long runChildAndKill(StoreUri uri, long millis)
            throws Exception
    {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), CrashCommitter.class.getName(), uri.toString()));
        Process child = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        AtomicLong lastAck = new AtomicLong();
        AtomicLong firstAckAt = new AtomicLong();
        Thread readerThread = Thread.ofPlatform().start(() -> {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = reader.readLine()) != null) {
                    if (line.startsWith("ACK ")) {
                        lastAck.set(Long.parseLong(line.substring(4).trim()));
                        firstAckAt.compareAndSet(0, System.nanoTime());
                    }
                }
            }
            catch (Exception ignored) {
                // the pipe breaks when the child dies
            }
        });
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (firstAckAt.get() == 0 && child.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        Thread.sleep(millis);
        child.destroyForcibly(); // SIGKILL on Linux
        child.waitFor();
        readerThread.join();
        return lastAck.get();
    }
}
