package io.moraine.bench.trial;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.catalog.SnapshotRows;
import io.moraine.core.row.Row;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreOptions;
import io.moraine.core.store.StoreUri;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A short run of {@code bin/moraine trial}: children committing on a local store, on S3 (S3Proxy) and through the
 * fault proxy, and two writers (core write API and DuckDB) on one store, are killed with SIGKILL, and every trial must lose nothing, show nothing partial, verify clean, have
 * killed its child and acknowledged commits. The checker itself is shown to catch a lost and a partial commit.
 */
class TrialCommandTest
{
    @TempDir
    Path temp;

    @Test
    void crashTrialsOnALocalStoreLoseNothing()
            throws Exception
    {
        // One trial: the command's own check (the core's CrashRecoveryTest runs the local kill trials).
        assertPassed(run("crash", "--trials", "1", "--store", "file"), 1);
    }

    @Test
    void crashTrialsOnS3LoseNothing()
            throws Exception
    {
        assertPassed(run("crash", "--trials", "2", "--store", "s3"), 2);
    }

    @Test
    void twoWriterCrashTrialsLoseNothing()
            throws Exception
    {
        // A JVM through the core's write API and a DuckDB process through ducklake:moraine:, either killed; two trials keep the suite short.
        assertPassed(run("crash", "--writers", "2", "--trials", "2", "--store", "file", "--seed", "3"), 2);
    }

    @Test
    void faultTrialsLoseNothingAndInjectFaults()
            throws Exception
    {
        TrialCommand.Totals totals = run("faults", "--trials", "2", "--fault-rate", "0.08");
        assertPassed(totals, 2);
        long injected = totals.faults().entrySet().stream().filter(entry -> entry.getKey() != FaultProxy.Fault.NONE).mapToLong(Map.Entry::getValue).sum();
        assertThat(injected).as("faults injected").isPositive();
        assertThat(totals.faults().get(FaultProxy.Fault.NONE)).as("requests forwarded untouched").isPositive();
    }

    @Test
    void theCheckerCountsAnAcknowledgedCommitThatIsMissingAsLost()
            throws Exception
    {
        StoreUri store = newStore();
        Path log = temp.resolve("lost.log");
        CommitContent content = new CommitContent(7, CommitContent.Kind.INLINED, 3, List.of());
        Files.writeString(log, content.intentLine() + "\nA 7 2 " + content.digest() + "\n");
        TrialChecker.Result result = new TrialChecker(store, StoreOptions.DEFAULTS).check(TrialLog.read(log));
        assertThat(result.lost()).isEqualTo(1);
        assertThat(result.partial()).isZero();
        assertThat(result.acknowledged()).isEqualTo(1);
    }

    @Test
    void theCheckerCountsACommitWithPartOfItsRowsAsPartial()
            throws Exception
    {
        StoreUri store = newStore();
        try (MoraineCatalog catalog = MoraineCatalog.open(store, OpenMode.READ_WRITE); BufferAllocator allocator = new RootAllocator();
                CatalogSnapshot read = catalog.latest(); VectorSchemaRoot rows = TrialTable.rows(allocator, 7, 3)) {
            Row stats = read.tableStats(TrialTable.TABLE_ID).orElseThrow();
            catalog.begin(1).insert(SnapshotRows.next(read.snapshotRow(), 0, 0, 0)).insert(SnapshotRows.changes(2, "inlined_insert:1"))
                    .insertInlined(TrialTable.TABLE_ID, 1, 2, 0, rows)
                    .update(stats, Map.of("record_count", 3L, "next_row_id", 3L))
                    .commit();
        }
        Path log = temp.resolve("partial.log");
        CommitContent logged = new CommitContent(7, CommitContent.Kind.INLINED, 5, List.of());
        Files.writeString(log, logged.intentLine() + "\nA 7 2 " + logged.digest() + "\n");
        TrialChecker.Result result = new TrialChecker(store, StoreOptions.DEFAULTS).check(TrialLog.read(log));
        assertThat(result.partial()).as(result.problems().toString()).isEqualTo(1);
        assertThat(result.newSnapshots()).isEqualTo(1);
    }

    private StoreUri newStore()
            throws Exception
    {
        StoreUri store = StoreUri.parse("file://" + temp.resolve("store"));
        Path data = Files.createDirectories(temp.resolve("data/main/t"));
        TrialTable.create(store, StoreOptions.DEFAULTS.withCreateIfMissing(), data.getParent().getParent() + "/");
        return store;
    }

    private TrialCommand.Totals run(String... args)
            throws Exception
    {
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        String[] withWork = java.util.stream.Stream.concat(java.util.Arrays.stream(args), java.util.stream.Stream.of("--work", temp.resolve("work").toString()))
                .toArray(String[]::new);
        TrialCommand.Totals totals;
        try (PrintStream out = new PrintStream(output, true, StandardCharsets.UTF_8)) {
            totals = TrialCommand.run(withWork, out);
        }
        System.out.print(output.toString(StandardCharsets.UTF_8));
        return totals;
    }

    private static void assertPassed(TrialCommand.Totals totals, int trials)
    {
        assertThat(totals.trials()).isEqualTo(trials);
        assertThat(totals.kills()).as("trials whose child was killed (not exited by itself)").isEqualTo(trials);
        assertThat(totals.acknowledged()).as("acknowledged commits").isPositive();
        assertThat(totals.lost()).as("lost").isZero();
        assertThat(totals.partial()).as("partial").isZero();
        assertThat(totals.verifyProblems()).as("verify problems").isZero();
        assertThat(totals.passed()).isTrue();
    }
}
