package io.moraine.core.catalog;

import io.moraine.core.error.FencedException;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreOptions;
import io.moraine.core.store.StoreUri;
import io.moraine.core.store.WriterMode;
import io.moraine.core.verify.StoreVerifier;
import io.moraine.core.verify.VerifyReport;
import io.moraine.testing.S3ProxyServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The writer hand-off (docs/writes.md, "The writer hand-off"): two read-write handles of one store, in two JVMs or in
 * one, commit in turn; every acknowledged commit lands, exactly once and whole, and the store verifies clean.
 */
class WriterHandoffTest
{
    private static final int COMMITS_PER_PROCESS = 15;
    /** Commits each process makes only when told, alternating with the other: a, b, a, b is three hand-offs at least. */
    private static final int TURNS = 2;

    @TempDir
    Path temp;

    @Test
    void twoProcessesCommittingInterleavedLoseNothingOnFileAndS3()
            throws Exception
    {
        String bucket = S3ProxyServer.shared().createBucket("moraine-handoff");
        for (StoreUri uri : List.of(StoreUri.parse("file://" + temp.resolve("handoff")), StoreUri.parse("s3://" + bucket + "/" + UUID.randomUUID()))) {
            createWithTable(uri);
            Process a = start(uri, "a");
            Process b = start(uri, "b");
            Map<String, Long> acknowledged = new ConcurrentHashMap<>();
            List<String> failures = java.util.Collections.synchronizedList(new ArrayList<>());
            java.util.concurrent.CountDownLatch opened = new java.util.concurrent.CountDownLatch(2);
            Thread readA = follow(a, acknowledged, failures, opened);
            Thread readB = follow(b, acknowledged, failures, opened);
            assertThat(opened.await(120, TimeUnit.SECONDS)).as("both processes opened the store").isTrue();
            for (int turn = 0; turn < TURNS; turn++) {
                for (Map.Entry<String, Process> child : Map.of("a", a, "b", b).entrySet().stream().sorted(Map.Entry.comparingByKey()).toList()) {
                    child.getValue().getOutputStream().write("GO\n".getBytes(StandardCharsets.UTF_8));
                    child.getValue().getOutputStream().flush();
                    awaitAcknowledged(acknowledged, failures, child.getKey() + " " + turn);
                }
            }
            // Then both commit at once, at random pauses, interleaving as timing allows.
            assertThat(a.waitFor(180, TimeUnit.SECONDS)).as("process a finished").isTrue();
            assertThat(b.waitFor(180, TimeUnit.SECONDS)).as("process b finished").isTrue();
            readA.join();
            readB.join();
            assertThat(failures).as(uri + ": failures").isEmpty();
            assertThat(a.exitValue()).isZero();
            assertThat(b.exitValue()).isZero();
            assertThat(acknowledged).as(uri + ": acknowledged commits").hasSize(2 * COMMITS_PER_PROCESS);
            checkEveryAcknowledgedCommitLandedOnce(uri, acknowledged);
            // The writer moved between the processes: consecutive snapshots from different processes, at least in the turns.
            List<String> byLanding = acknowledged.entrySet().stream().sorted(Map.Entry.comparingByValue()).map(entry -> entry.getKey().split(" ")[0]).toList();
            long handoffs = java.util.stream.IntStream.range(1, byLanding.size()).filter(i -> !byLanding.get(i).equals(byLanding.get(i - 1))).count();
            assertThat(handoffs).as(uri + ": hand-offs").isGreaterThanOrEqualTo(2 * TURNS - 1);
            System.out.printf("writer hand-off on %s: %d commits acknowledged by 2 processes, %d hand-offs, all landed once%n", uri.scheme(),
                    acknowledged.size(), handoffs);
        }
    }

    @Test
    void aFencedHandleServesReadsAndItsNextCommitTakesTheWriterBack()
    {
        StoreUri uri = StoreUri.parse("file://" + temp.resolve("in-process"));
        createWithTable(uri);
        try (MoraineCatalog first = MoraineCatalog.open(uri, OpenMode.READ_WRITE)) {
            HandoffCommitter.commit(first, "first", 0);
            try (MoraineCatalog second = MoraineCatalog.open(uri, OpenMode.READ_WRITE)) {
                // The second open fenced the first; its very next commit lands all the same (taking the writer back),
                // whether or not SlateDB has told it of the fence yet.
                assertThat(HandoffCommitter.commit(first, "first", 1)).isEqualTo(3);
                assertThat(HandoffCommitter.commit(second, "second", 0)).isEqualTo(4);
                // Fenced again: reads go on, and see what the other process committed.
                awaitHead(first, 4);
                assertThat(first.scan(TableKind.DATA_FILE, RowScope.CURRENT).toList()).hasSize(3 * HandoffCommitter.FILES_PER_COMMIT);
                assertThat(HandoffCommitter.commit(first, "first", 2)).isEqualTo(5);
                assertThat(HandoffCommitter.commit(second, "second", 1)).isEqualTo(6);
            }
            // Fenced, it reads like a READ_ONLY handle: it sees the other's commit once its reader polls.
            awaitHead(first, 6);
        }
        checkEveryAcknowledgedCommitLandedOnce(uri, Map.of("first 0", 2L, "first 1", 3L, "second 0", 4L, "first 2", 5L, "second 1", 6L));
    }

    @Test
    void anExclusiveWriterStaysFenced()
    {
        StoreUri uri = StoreUri.parse("file://" + temp.resolve("exclusive"));
        createWithTable(uri);
        StoreOptions exclusive = StoreOptions.DEFAULTS.withWriterMode(WriterMode.EXCLUSIVE);
        try (MoraineCatalog first = MoraineCatalog.open(uri, OpenMode.READ_WRITE, exclusive)) {
            HandoffCommitter.commit(first, "first", 0);
            try (MoraineCatalog second = MoraineCatalog.open(uri, OpenMode.READ_WRITE, exclusive)) {
                assertThatThrownBy(() -> HandoffCommitter.commit(first, "first", 1))
                        .isInstanceOf(FencedException.class)
                        .hasMessageContaining("FENCED");
                assertThat(HandoffCommitter.commit(second, "second", 0)).isEqualTo(3);
            }
        }
        assertThatThrownBy(() -> WriterMode.parse("shared", "the writer mode"))
                .hasMessageContaining("handoff, exclusive")
                .hasMessageContaining("'shared'");
    }

    private static void createWithTable(StoreUri uri)
    {
        try (MoraineCatalog catalog = MoraineCatalog.create(uri, NewCatalog.bootstrapped("/lake/data"))) {
            // Snapshot 1 creates table 1 (catalog id 1) with its stats.
            Row created = CatalogTestSupport.nextSnapshot(CatalogTestSupport.head(catalog), 1, 1, 0);
            catalog.begin(0).insert(created).insert(CatalogTestSupport.changes(1, "created_table:\"main\".\"t\""))
                    .insert(CatalogTestSupport.table(1, 0, "t", 1)).insert(CatalogTestSupport.tableStats(1, 0, 0, 0)).commit();
        }
    }

    private static void awaitHead(MoraineCatalog catalog, long head)
    {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (catalog.headSnapshotId().orElse(-1) < head && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(catalog.headSnapshotId()).hasValue(head);
    }

    /** Every commit in {@code acknowledged} ("tag i" to the snapshot it landed at) is in the store exactly once and whole. */
    static void checkEveryAcknowledgedCommitLandedOnce(StoreUri uri, Map<String, Long> acknowledged)
    {
        VerifyReport report = StoreVerifier.verify(uri, StoreOptions.DEFAULTS, StoreVerifier.Options.STORE_ONLY);
        assertThat(report.problems()).as(uri + ": verify").isEmpty();
        assertThat(report.checked("catalog rows")).isPositive();
        try (MoraineCatalog catalog = MoraineCatalog.open(uri, OpenMode.READ_ONLY); CatalogSnapshot snapshot = catalog.latest()) {
            long expectedHead = 1 + acknowledged.size();
            assertThat(snapshot.id()).as(uri + ": head").isEqualTo(expectedHead);
            Map<String, Long> fileSnapshots = new HashMap<>();
            for (Row file : snapshot.dataFiles(1).toList()) {
                assertThat(fileSnapshots.put(file.getString("path"), file.getLong("begin_snapshot"))).as("file " + file.getString("path") + " once").isNull();
            }
            assertThat(fileSnapshots).hasSize(acknowledged.size() * HandoffCommitter.FILES_PER_COMMIT);
            acknowledged.forEach((commit, landed) -> {
                String[] parts = commit.split(" ");
                for (int k = 0; k < HandoffCommitter.FILES_PER_COMMIT; k++) {
                    assertThat(fileSnapshots.get(HandoffCommitter.path(parts[0], Integer.parseInt(parts[1]), k))).as(uri + ": commit " + commit).isEqualTo(landed);
                }
            });
            assertThat(catalog.scan(TableKind.SNAPSHOT, RowScope.CURRENT).toList()).hasSize((int) expectedHead + 1);
            long records = acknowledged.size() * HandoffCommitter.FILES_PER_COMMIT * HandoffCommitter.ROWS_PER_FILE;
            assertThat(snapshot.tableStats(1).orElseThrow().getLong("record_count")).isEqualTo(records);
            assertThat(snapshot.tableStats(1).orElseThrow().getLong("next_row_id")).isEqualTo(records);
        }
    }

    private static Process start(StoreUri uri, String tag)
            throws Exception
    {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = List.of(java, "--enable-native-access=ALL-UNNAMED", "-Xmx512m", "-cp", System.getProperty("java.class.path"),
                HandoffCommitter.class.getName(), uri.toString(), tag, String.valueOf(COMMITS_PER_PROCESS), "handoff", "40", String.valueOf(TURNS));
        return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    private static void awaitAcknowledged(Map<String, Long> acknowledged, List<String> failures, String commit)
            throws InterruptedException
    {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!acknowledged.containsKey(commit)) {
            assertThat(failures).as("failures before commit " + commit).isEmpty();
            assertThat(System.nanoTime()).as("commit " + commit + " acknowledged within 120 s").isLessThan(deadline);
            Thread.sleep(5);
        }
    }

    private static Thread follow(Process child, Map<String, Long> acknowledged, List<String> failures, java.util.concurrent.CountDownLatch opened)
    {
        return Thread.ofPlatform().start(() -> {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = reader.readLine()) != null) {
                    if (line.startsWith("OPEN ")) {
                        opened.countDown();
                    }
                    else if (line.startsWith("ACK ")) {
                        String[] parts = line.split(" ");
                        if (acknowledged.put(parts[1] + " " + parts[2], Long.parseLong(parts[3])) != null) {
                            failures.add("acknowledged twice: " + line);
                        }
                    }
                    else if (line.startsWith("FAIL")) {
                        failures.add(line);
                        opened.countDown();
                    }
                }
            }
            catch (Exception e) {
                failures.add(e.toString());
            }
        });
    }
}
