package io.moraine.duckdb.ext;

import io.moraine.core.io.LocalFileSystem;
import io.moraine.core.store.StoreOptions;
import io.moraine.core.store.StoreUri;
import io.moraine.core.verify.StoreVerifier;
import io.moraine.core.verify.VerifyReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static io.moraine.duckdb.ext.DuckLakeChildProcess.attach;
import static io.moraine.duckdb.ext.DuckLakeChildProcess.awaitLine;
import static io.moraine.duckdb.ext.DuckLakeChildProcess.batchSize;
import static io.moraine.duckdb.ext.DuckLakeChildProcess.output;
import static io.moraine.duckdb.ext.ExtensionConnections.count;
import static io.moraine.duckdb.ext.ExtensionConnections.execute;
import static io.moraine.duckdb.ext.ExtensionConnections.open;
import static io.moraine.duckdb.ext.ExtensionConnections.query;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A process committing through {@code ducklake:moraine:} is killed (SIGKILL) at a random moment, several times over
 * one store: every commit it acknowledged is there, at the snapshot it reported, and at every snapshot each batch
 * (two INSERTs in one transaction) is whole or absent. The store then verifies clean.
 */
class DuckLakeCrashTest
{
    private static final int TRIALS = 5;

    @TempDir
    Path temp;

    private record Ack(long batch, long snapshot, long rows) {}

    @Test
    void aKilledCommitterLeavesWholeCommitsOnlyAndLosesNoAcknowledgedOne()
            throws Exception
    {
        Path store = temp.resolve("store");
        Path data = Files.createDirectories(temp.resolve("data"));
        try (Connection connection = open()) {
            execute(connection, attach(store, data, ", DATA_INLINING_ROW_LIMIT 10"));
            execute(connection, "CREATE TABLE lake.batches (batch BIGINT, i INTEGER)");
        }
        long seed = System.nanoTime();
        Random random = new Random(seed);
        Set<Long> acknowledged = new HashSet<>();
        Set<Long> inFlight = new HashSet<>();
        long comparisons = 0;
        long landedUnacknowledged;
        for (int trial = 0; trial < TRIALS; trial++) {
            Path log = temp.resolve("acks-" + trial);
            Process child = DuckLakeChildProcess.start("commit-batches", store.toString(), data.toString(), log.toString());
            long firstBatch = Long.parseLong(awaitLine(child, output(child), "STARTED ").substring("STARTED ".length()));
            while (acks(log).isEmpty() && child.isAlive()) {
                Thread.sleep(5);
            }
            Thread.sleep(random.nextInt(1500));
            child.destroyForcibly(); // SIGKILL on Linux
            child.waitFor();

            List<Ack> acks = acks(log);
            assertThat(acks).as("acknowledged commits of trial %s (seed %s)", trial, seed).isNotEmpty();
            acks.forEach(ack -> acknowledged.add(ack.batch()));
            inFlight.add(acks.isEmpty() ? firstBatch : acks.getLast().batch() + 1);
            try (Connection connection = open()) {
                execute(connection, attach(store, data, ", READ_ONLY"));
                Map<Long, Long> present = batchCounts(connection, "lake.batches");
                for (Ack ack : acks) {
                    assertThat(present.get(ack.batch())).as("acknowledged batch %s (seed %s)", ack.batch(), seed).isEqualTo((long) batchSize(ack.batch()));
                    assertThat(count(connection, "SELECT count(*) FROM lake.batches AT (VERSION => " + ack.snapshot() + ")"))
                            .as("rows at acknowledged snapshot %s (seed %s)", ack.snapshot(), seed).isEqualTo(ack.rows());
                    comparisons += 2;
                }
                for (long batch : present.keySet()) {
                    assertThat(acknowledged.contains(batch) || inFlight.contains(batch)).as("batch %s was committed by some trial", batch).isTrue();
                }
            }
        }
        try (Connection connection = open()) {
            execute(connection, attach(store, data, ", READ_ONLY"));
            // Both kinds of commit were exercised: inlined rows and Parquet files.
            assertThat(count(connection, "SELECT count(*) FROM __ducklake_metadata_lake.ducklake_data_file")).isPositive();
            assertThat(count(connection, "SELECT count(*) FROM __ducklake_metadata_lake.ducklake_inlined_data_tables")).isPositive();
            Set<Long> unacknowledged = new HashSet<>(batchCounts(connection, "lake.batches").keySet());
            unacknowledged.removeAll(acknowledged);
            landedUnacknowledged = unacknowledged.size();
            List<List<String>> snapshots = query(connection, "SELECT snapshot_id FROM ducklake_snapshots('lake') WHERE snapshot_id > 0 ORDER BY snapshot_id");
            // Snapshot 0 is the new lake, before CREATE TABLE.
            for (List<String> snapshot : snapshots) {
                Map<Long, Long> batches = batchCounts(connection, "lake.batches AT (VERSION => " + snapshot.getFirst() + ")");
                for (Map.Entry<Long, Long> batch : batches.entrySet()) {
                    assertThat(batch.getValue()).as("batch %s at snapshot %s (seed %s)", batch.getKey(), snapshot.getFirst(), seed)
                            .isEqualTo((long) batchSize(batch.getKey()));
                    comparisons++;
                }
            }
        }
        VerifyReport report = StoreVerifier.verify(StoreUri.parse(store.toString()), StoreOptions.DEFAULTS,
                StoreVerifier.Options.STORE_ONLY.withFiles(LocalFileSystem.INSTANCE));
        assertThat(report.problems()).as(report.summary()).isEmpty();
        assertThat(report.checked("catalog rows")).isPositive();
        assertThat(acknowledged).hasSizeGreaterThanOrEqualTo(TRIALS);
        assertThat(comparisons).isPositive();
        System.out.printf("DuckLakeCrashTest: %d trials, %d acknowledged commits, %d landed unacknowledged (killed before logging), %d comparisons; %s (seed %d)%n",
                TRIALS, acknowledged.size(), landedUnacknowledged, comparisons, report.summary(), seed);
    }

    private static Map<Long, Long> batchCounts(Connection connection, String relation)
            throws Exception
    {
        Map<Long, Long> counts = new HashMap<>();
        for (List<String> row : query(connection, "SELECT batch, count(*) FROM " + relation + " GROUP BY batch")) {
            counts.put(Long.parseLong(row.get(0)), Long.parseLong(row.get(1)));
        }
        return counts;
    }

    /** The complete lines of the child's acknowledgement log (a line cut by the kill is not an acknowledgement). */
    private static List<Ack> acks(Path log)
            throws Exception
    {
        if (!Files.exists(log)) {
            return List.of();
        }
        String text = Files.readString(log);
        return text.lines().limit(text.endsWith("\n") ? Long.MAX_VALUE : Math.max(0, text.lines().count() - 1))
                .map(line -> line.split(" "))
                .map(f -> new Ack(Long.parseLong(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2])))
                .toList();
    }
}
