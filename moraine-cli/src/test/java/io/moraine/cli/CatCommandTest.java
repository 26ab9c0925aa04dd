package io.moraine.cli;

import io.moraine.cli.DuckLakeAnswers.Answer;
import io.moraine.cli.cat.CsvWriter;
import io.moraine.cli.cat.DuckDbText;
import io.moraine.cli.cat.TableReader;
import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.error.NotFoundException;
import io.moraine.core.error.SnapshotExpiredException;
import io.moraine.core.io.LocalFileSystem;
import io.moraine.core.scan.DataFileTask;
import io.moraine.core.scan.InlinedRowsTask;
import io.moraine.core.scan.Scan;
import io.moraine.core.scan.ScanBuilder;
import io.moraine.core.scan.ScanTask;
import io.moraine.core.scan.TaskStream;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreUri;
import io.moraine.cli.DuckLakeAnswers.Answer;
import io.moraine.cli.cat.CsvWriter;
import io.moraine.cli.cat.DuckDbText;
import io.moraine.cli.cat.TableReader;
import io.moraine.importer.CatalogImporter;
import io.moraine.importer.DuckLakeSource;
import io.moraine.testing.DuckLakeOracle;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code bin/moraine cat} against DuckDB + DuckLake: every table at every surviving snapshot of the oracle workload
 * prints what DuckDB prints, once from a store imported just before the workload flushes its inlined rows (so inlined
 * inserts, updates and deletes are read from the catalog) and once from a store imported after the whole workload
 * (flushed, merged and rewritten files, an expired snapshot, a dropped table); and every snapshot's time resolves to
 * that snapshot, as DuckLake's {@code AT (TIMESTAMP => ...)} does. These are the exhaustive every-snapshot comparisons;
 * the engines' tests (Trino's {@code TestMoraineOracleWorkload}, Spark's {@code TestMoraineSparkOracleWorkload}) make
 * the same comparisons on a sample of the table snapshots ({@code io.moraine.testing.OracleSample}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CatCommandTest
{
    @TempDir
    static Path directory;

    private DuckLakeOracle oracle;
    private StoreUri beforeFlush;
    private List<Answer> answersBeforeFlush;
    private StoreUri afterWorkload;
    private List<Answer> answersAfterWorkload;

    @BeforeAll
    void setUp()
            throws Exception
    {
        oracle = DuckLakeOracle.create(directory.resolve("lake"), DuckLakeOracle.CatalogDatabase.DUCKDB);
        oracle.run(DuckLakeOracle.WORKLOAD_BEFORE_FLUSH);
        beforeFlush = importInto("before-flush");
        answersBeforeFlush = DuckLakeAnswers.everyTableAtEverySnapshot(oracle);
        oracle.run(DuckLakeOracle.WORKLOAD_FROM_FLUSH);
        afterWorkload = importInto("after-workload");
        answersAfterWorkload = DuckLakeAnswers.everyTableAtEverySnapshot(oracle);
    }

    private StoreUri importInto(String name)
            throws Exception
    {
        StoreUri store = StoreUri.parse(directory.resolve(name).toString());
        String copy = oracle.catalogCopy(directory.resolve(name + "-catalog.ducklake"));
        CatalogImporter.importCatalog(DuckLakeSource.parse(copy), store, Optional.empty(), CatalogImporter.Progress.SILENT);
        return store;
    }

    @AfterAll
    void tearDown()
            throws Exception
    {
        if (oracle != null) {
            oracle.close();
        }
    }

    @Test
    void everyTableAtEverySnapshotBeforeTheFlushMatchesDuckLake()
    {
        assertEveryAnswer(beforeFlush, answersBeforeFlush);
    }

    @Test
    void everyTableAtEverySnapshotAfterTheWorkloadMatchesDuckLake()
    {
        assertEveryAnswer(afterWorkload, answersAfterWorkload);
    }

    @Test
    void everyTableAtEverySnapshotByTimestampResolvesToThatSnapshot()
            throws Exception
    {
        java.util.Map<Long, java.time.Instant> times = new java.util.HashMap<>();
        for (List<String> row : oracle.query("SELECT snapshot_id, epoch_us(snapshot_time) FROM ducklake_snapshots('lake')")) {
            times.put(Long.parseLong(row.get(0)), java.time.Instant.EPOCH.plus(Long.parseLong(row.get(1)), java.time.temporal.ChronoUnit.MICROS));
        }
        assertThat(java.util.Set.copyOf(times.values())).as("distinct snapshot times").hasSameSizeAs(times.keySet());
        int resolved = 0;
        // The lake's snapshots now are those after the workload; the snapshots of the store imported before the flush are older ones of the same lake.
        for (StoreUri store : List.of(beforeFlush, afterWorkload)) {
            List<Answer> answers = store == beforeFlush ? answersBeforeFlush : answersAfterWorkload;
            try (MoraineCatalog catalog = MoraineCatalog.open(store, OpenMode.READ_ONLY)) {
                for (Answer answer : answers) {
                    java.time.Instant time = times.get(answer.snapshot());
                    if (time == null) {
                        continue; // expired by the rest of the workload: the store imported before the flush alone still has it
                    }
                    try (CatalogSnapshot snapshot = catalog.asOf(time)) {
                        assertThat(snapshot.id()).as("%s at the time of snapshot %d", answer.table(), answer.snapshot()).isEqualTo(answer.snapshot());
                        String[] name = answer.table().split("\\.", 2);
                        assertThat(snapshot.table(name[0], name[1])).as("%s at the time of snapshot %d", answer.table(), answer.snapshot()).isPresent();
                    }
                    resolved++;
                }
            }
        }
        assertThat(resolved).as("table snapshots resolved by timestamp").isGreaterThanOrEqualTo(answersAfterWorkload.size() + answersBeforeFlush.size() - 2);
    }

    private void assertEveryAnswer(StoreUri store, List<Answer> answers)
    {
        int compared = 0;
        for (Answer answer : answers) {
            assertThat(DuckLakeAnswers.lines(cat(store, answer.table(), "--snapshot", Long.toString(answer.snapshot()))))
                    .as("%s at snapshot %d", answer.table(), answer.snapshot())
                    .containsExactlyElementsOf(answer.lines());
            compared++;
        }
        // Both workload tables exist from their creation on; the dropped one briefly.
        assertThat(answers).hasSizeGreaterThan(20);
        assertThat(compared).isEqualTo(answers.size());
    }

    @Test
    void theComparedScansReadInlinedRowsInlinedDeletesDeleteFilesAndPartialFiles()
    {
        TaskKinds beforeFlushKinds = taskKinds(beforeFlush, answersBeforeFlush);
        assertThat(beforeFlushKinds.inlinedRows()).as("scans with inlined rows").isPositive();
        assertThat(beforeFlushKinds.inlinedDeletes()).as("files with inlined deletes").isPositive();
        assertThat(beforeFlushKinds.deleteFiles()).as("files with delete files").isPositive();
        TaskKinds afterWorkloadKinds = taskKinds(afterWorkload, answersAfterWorkload);
        assertThat(afterWorkloadKinds.rowSnapshotFilters()).as("flushed or merged files read at an earlier snapshot").isPositive();
    }

    private record TaskKinds(int inlinedRows, int inlinedDeletes, int deleteFiles, int rowSnapshotFilters) {}

    private static TaskKinds taskKinds(StoreUri store, List<Answer> answers)
    {
        int inlinedRows = 0;
        int inlinedDeletes = 0;
        int deleteFiles = 0;
        int rowSnapshotFilters = 0;
        try (MoraineCatalog catalog = MoraineCatalog.open(store, OpenMode.READ_ONLY)) {
            for (Answer answer : answers) {
                try (CatalogSnapshot snapshot = catalog.at(answer.snapshot()); TaskStream tasks = scan(snapshot, answer.table(), ScanBuilder.DEFAULT_MAX_SPLIT_SIZE).planTasks()) {
                    while (tasks.hasNext()) {
                        ScanTask task = tasks.next();
                        inlinedRows += task instanceof InlinedRowsTask ? 1 : 0;
                        if (task instanceof DataFileTask file) {
                            inlinedDeletes += file.inlinedDeletes().length > 0 ? 1 : 0;
                            deleteFiles += file.deleteFiles().isEmpty() ? 0 : 1;
                            rowSnapshotFilters += file.filtersRowsBySnapshot() ? 1 : 0;
                        }
                    }
                }
            }
        }
        return new TaskKinds(inlinedRows, inlinedDeletes, deleteFiles, rowSnapshotFilters);
    }

    @Test
    void withoutASnapshotTheNewestIsRead()
    {
        Answer newest = answersAfterWorkload.getLast();
        assertThat(DuckLakeAnswers.lines(cat(afterWorkload, newest.table()))).containsExactlyElementsOf(newest.lines());
    }

    @Test
    void tasksSplitByByteRangeReadEachRowOnce()
    {
        try (MoraineCatalog catalog = MoraineCatalog.open(afterWorkload, OpenMode.READ_ONLY); CatalogSnapshot snapshot = catalog.latest()) {
            assertThat(csvLines(snapshot, scan(snapshot, "sales.orders", 4096))).containsExactlyElementsOf(
                    csvLines(snapshot, scan(snapshot, "sales.orders", ScanBuilder.DEFAULT_MAX_SPLIT_SIZE)));
        }
    }

    @Test
    void aMovedLakeIsReadFromItsDataPath()
            throws IOException
    {
        Path moved = directory.resolve("moved-data");
        try (Stream<Path> paths = Files.walk(oracle.dataPath())) {
            for (Path source : paths.toList()) {
                Files.copy(source, moved.resolve(oracle.dataPath().relativize(source).toString()));
            }
        }
        Answer newest = answersAfterWorkload.getLast();
        assertThat(DuckLakeAnswers.lines(cat(afterWorkload, newest.table(), "--data-path", moved.toString()))).containsExactlyElementsOf(newest.lines());
        assertThatThrownBy(() -> cat(afterWorkload, newest.table(), "--data-path", directory.resolve("nowhere").toString()))
                .isInstanceOf(NotFoundException.class)
                .hasMessageContaining("is missing at " + directory.resolve("nowhere"))
                .hasMessageContaining("--data-path");
    }

    @Test
    void anUnknownTableSchemaOrSnapshotIsRefusedNamingWhatExists()
    {
        assertRefused(NotFoundException.class, List.of("table 'sales.nope' does not exist", "orders"), "sales.nope");
        assertRefused(NotFoundException.class, List.of("schema 'nope' does not exist", "main, sales"), "nope.orders");
        assertRefused(NotFoundException.class, List.of("table 'main.dropped' does not exist", "events", "--snapshot"), "main.dropped");
        assertRefused(NotFoundException.class, List.of("snapshot 9999 does not exist", "the newest is"), "sales.orders", "--snapshot", "9999");
        assertRefused(SnapshotExpiredException.class, List.of("snapshot 3 ", "expired"), "sales.orders", "--snapshot", "3");
        assertRefused(IllegalArgumentException.class, List.of("<schema>.<table>"), "orders");
        assertRefused(IllegalArgumentException.class, List.of("--snapshot takes a snapshot id"), "sales.orders", "--snapshot", "latest");
    }

    private void assertRefused(Class<? extends Exception> type, List<String> messageParts, String... args)
    {
        StringWriter out = new StringWriter();
        List<String> all = new ArrayList<>(List.of("--store", afterWorkload.toString()));
        all.addAll(List.of(args));
        assertThatThrownBy(() -> CatCommand.run(all.toArray(String[]::new), out))
                .isInstanceOf(type)
                .satisfies(e -> assertThat(e.getMessage()).contains(messageParts));
        assertThat(out.toString()).as("written before the refusal").isEmpty();
    }

    private static String cat(StoreUri store, String... args)
    {
        StringWriter out = new StringWriter();
        List<String> all = new ArrayList<>(List.of("--store", store.toString()));
        all.addAll(List.of(args));
        CatCommand.run(all.toArray(String[]::new), out);
        return out.toString();
    }

    private static Scan scan(CatalogSnapshot snapshot, String table, long maxSplitSize)
    {
        String[] parts = table.split("\\.", 2);
        long tableId = snapshot.table(parts[0], parts[1]).orElseThrow().getLong("table_id");
        return ScanBuilder.forTable(snapshot, tableId).withMaxSplitSize(maxSplitSize).build();
    }

    private static List<String> csvLines(CatalogSnapshot snapshot, Scan scan)
    {
        TableReader reader = new TableReader(snapshot, scan, LocalFileSystem.INSTANCE);
        List<String> lines = new ArrayList<>();
        reader.read(row -> {
            List<String> fields = new ArrayList<>();
            for (int i = 0; i < row.length; i++) {
                fields.add(DuckDbText.text(reader.columns().get(i).type(), row[i]));
            }
            lines.add(CsvWriter.line(fields));
        });
        lines.sort(null);
        return lines;
    }
}
