package io.moraine.cli.changes;

import io.moraine.cli.cat.ChangeFeedReader;
import io.moraine.cli.cat.CsvWriter;
import io.moraine.cli.cat.DecodedFiles;
import io.moraine.cli.cat.DuckDbText;
import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.catalog.RowScope;
import io.moraine.core.changes.ChangeFeed;
import io.moraine.core.changes.ChangeKey;
import io.moraine.core.changes.ChangeKind;
import io.moraine.core.changes.ChangePairing;
import io.moraine.core.changes.ChangeType;
import io.moraine.core.error.NotFoundException;
import io.moraine.core.io.LocalFileSystem;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreUri;
import io.moraine.core.types.TableColumn;
import io.moraine.cli.cat.ChangeFeedReader;
import io.moraine.cli.cat.CsvWriter;
import io.moraine.cli.cat.DecodedFiles;
import io.moraine.cli.cat.DuckDbText;
import io.moraine.importer.CatalogImporter;
import io.moraine.importer.DuckLakeSource;
import io.moraine.testing.DuckLakeOracle;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The change feed read engine-free from a moraine store equals DuckDB + DuckLake's {@code ducklake_table_insertions},
 * {@code ducklake_table_deletions} and {@code ducklake_table_changes} for every table and every range of surviving
 * snapshots, as multisets of rows (snapshot_id, rowid, change_type and every column as text), and every range's bounds
 * given as the snapshots' times resolve to the range itself. Subclasses pick how much of the oracle workload ran
 * before the import (one lake per class keeps each class short). These are the exhaustive change-feed comparisons;
 * the engines' tests (Trino's {@code ChangeFeedFunctionsMatchDuckLake}, Spark's {@code TestMoraineSparkChangeFeed})
 * make the same comparisons on a sample of the ranges ({@code io.moraine.testing.OracleSample}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ChangeFeedMatchesDuckLake
{
    @TempDir
    static Path directory;

    DuckLakeOracle oracle;
    StoreUri store;
    String catalogCopy;
    List<ChangeFeedOracle.Answer> answers;

    /** The workload steps run before the import. */
    abstract List<String> steps();

    @BeforeAll
    void setUp()
            throws Exception
    {
        oracle = DuckLakeOracle.create(directory.resolve("lake"), DuckLakeOracle.CatalogDatabase.DUCKDB);
        for (String step : steps()) {
            oracle.execute(step);
        }
        store = StoreUri.parse(directory.resolve("store").toString());
        catalogCopy = oracle.catalogCopy(directory.resolve("catalog-copy.ducklake"));
        CatalogImporter.importCatalog(DuckLakeSource.parse(catalogCopy), store, Optional.empty(), CatalogImporter.Progress.SILENT);
        answers = ChangeFeedOracle.everyTableAndRange(oracle);
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
    void everyTableAndRangeMatchesDuckLake()
    {
        try (MoraineCatalog catalog = MoraineCatalog.open(store, OpenMode.READ_ONLY); CatalogSnapshot latest = catalog.latest()) {
            assertThat(latest.indexesFileChanges()).as("the import wrote the file-change index").isTrue();
        }
        int compared = compareEveryTableAndRange(store);
        System.out.printf("%s: %d change-feed comparisons against DuckDB + DuckLake%n", getClass().getSimpleName(), compared);
    }

    /**
     * A store without the file-change index (as format 2 wrote it) is planned by reading every file row and answers
     * the same; a read-write open upgrades it to the very index the import wrote.
     */
    @Test
    void withoutTheFileChangeIndexEveryRangeMatchesTooAndAnUpgradeRebuildsIt()
    {
        StoreUri older = StoreUri.parse(directory.resolve("store-format-2").toString());
        CatalogImporter.importCatalog(DuckLakeSource.parse(catalogCopy), older, Optional.empty(), CatalogImporter.Progress.SILENT);
        java.util.Map<String, String> imported = fileChangeEntries(store);
        assertThat(imported).isNotEmpty();
        try (MoraineCatalog catalog = MoraineCatalog.open(older, OpenMode.READ_WRITE)) {
            java.util.Map<java.nio.ByteBuffer, byte[]> writes = new HashMap<>();
            fileChangeEntries(catalog).keySet().forEach(key -> writes.put(java.nio.ByteBuffer.wrap(java.util.HexFormat.of().parseHex(key)), null));
            writes.put(java.nio.ByteBuffer.wrap(io.moraine.core.keyspace.SystemKeys.FORMAT), io.moraine.core.keyspace.SystemKeys.encodeFormat(2, "moraine-jvm 0.1.0"));
            catalog.store().write(writes);
        }
        try (MoraineCatalog catalog = MoraineCatalog.open(older, OpenMode.READ_ONLY); CatalogSnapshot latest = catalog.latest()) {
            assertThat(latest.indexesFileChanges()).isFalse();
            assertThat(fileChangeEntries(catalog)).isEmpty();
        }
        // The planning without the index is the same code for every range: one in every LEGACY_STRIDE ranges is compared.
        int compared = compareTablesAndRanges(older, LEGACY_STRIDE);
        System.out.printf("%s: %d change-feed comparisons against DuckDB + DuckLake on a store without the file-change index%n", getClass().getSimpleName(),
                compared);
        try (MoraineCatalog catalog = MoraineCatalog.open(older, OpenMode.READ_WRITE)) {
            assertThat(fileChangeEntries(catalog)).as("the entries the upgrade wrote").isEqualTo(imported);
        }
    }

    /**
     * Every range by timestamp: a start bound at the start snapshot's time resolves to that snapshot
     * ({@link ChangeFeed#startAtOrAfter}), an end bound at the end snapshot's time to that one ({@code asOf}), as
     * DuckLake resolves them; with the comparisons by id above, moraine's feed by timestamp equals DuckDB's for every
     * range (DuckDB's feed by timestamp is its feed by id for those snapshots: the engines' tests check that on their
     * samples).
     */
    @Test
    void everyRangeByTimestampResolvesToItsSnapshots()
            throws Exception
    {
        Map<Long, java.time.Instant> times = new HashMap<>();
        for (List<String> row : oracle.query("SELECT snapshot_id, epoch_us(snapshot_time) FROM ducklake_snapshots('lake')")) {
            long micros = Long.parseLong(row.get(1));
            times.put(Long.parseLong(row.get(0)), java.time.Instant.EPOCH.plus(micros, java.time.temporal.ChronoUnit.MICROS));
        }
        assertThat(java.util.Set.copyOf(times.values())).as("distinct snapshot times").hasSameSizeAs(times.keySet());
        int resolved = 0;
        try (MoraineCatalog catalog = MoraineCatalog.open(store, OpenMode.READ_ONLY)) {
            for (ChangeFeedOracle.Answer answer : answers) {
                String range = answer.schema() + "." + answer.table() + " [" + answer.start() + ", " + answer.end() + "]";
                assertThat(ChangeFeed.startAtOrAfter(catalog, times.get(answer.start()))).as("start of %s by timestamp", range).isEqualTo(answer.start());
                try (CatalogSnapshot end = catalog.asOf(times.get(answer.end()))) {
                    assertThat(end.id()).as("end of %s by timestamp", range).isEqualTo(answer.end());
                    assertThat(end.table(answer.schema(), answer.table())).as("%s at the end resolved by timestamp", range).isPresent();
                }
                resolved++;
            }
            assertThat(resolved).as("ranges resolved by timestamp").isEqualTo(expectedRanges(catalog));
        }
        System.out.printf("%s: %d ranges' timestamp bounds resolved as DuckLake resolves them%n", getClass().getSimpleName(), resolved);
    }

    private static java.util.Map<String, String> fileChangeEntries(StoreUri uri)
    {
        try (MoraineCatalog catalog = MoraineCatalog.open(uri, OpenMode.READ_ONLY)) {
            return fileChangeEntries(catalog);
        }
    }

    private static java.util.Map<String, String> fileChangeEntries(MoraineCatalog catalog)
    {
        java.util.Map<String, String> entries = new java.util.TreeMap<>();
        java.util.HexFormat hex = java.util.HexFormat.of();
        try (var cursor = catalog.store().latest().scan(io.moraine.core.keyspace.Subspace.FILE_CHANGES.start(),
                io.moraine.core.keyspace.Subspace.FILE_CHANGES.end(), 1024)) {
            cursor.forEachRemaining(entry -> entries.put(hex.formatHex(entry.key()), hex.formatHex(entry.value())));
        }
        return entries;
    }

    /** Compares moraine's feeds from {@code uri} with DuckDB's for every table and range; returns the comparisons made. */
    private int compareEveryTableAndRange(StoreUri uri)
    {
        return compareTablesAndRanges(uri, 1);
    }

    /** Ranges of a store without the file-change index (as format 2 wrote it) compared: one in this many. */
    private static final int LEGACY_STRIDE = 4;

    /** Compares one in every {@code stride} of the (table, range) answers (all with stride 1). */
    private int compareTablesAndRanges(StoreUri uri, int stride)
    {
        int compared = 0;
        try (MoraineCatalog catalog = MoraineCatalog.open(uri, OpenMode.READ_ONLY)) {
            for (int i = 0; i < answers.size(); i += stride) {
                ChangeFeedOracle.Answer answer = answers.get(i);
                Feed feed = read(catalog, answer.schema(), answer.table(), answer.start(), answer.end());
                String range = answer.schema() + "." + answer.table() + " [" + answer.start() + ", " + answer.end() + "]";
                assertThat(feed.insertions()).as("insertions of %s", range).containsExactlyInAnyOrderElementsOf(answer.insertions());
                assertThat(feed.deletions()).as("deletions of %s", range).containsExactlyInAnyOrderElementsOf(answer.deletions());
                assertThat(feed.changes()).as("changes of %s", range).containsExactlyInAnyOrderElementsOf(answer.changes());
                compared += 3;
            }
            int ranges = expectedRanges(catalog);
            assertThat(answers).as("DuckDB's answers, one per table and range").hasSize(ranges);
            assertThat(compared).as("comparisons (three per compared table and range)").isEqualTo(3 * ((ranges + stride - 1) / stride));
        }
        return compared;
    }

    /** Counted from moraine's catalog, not from DuckDB's: every surviving a <= b times every table that exists at b. */
    private static int expectedRanges(MoraineCatalog catalog)
    {
        List<Long> snapshots = new ArrayList<>();
        try (var rows = catalog.scan(TableKind.SNAPSHOT, RowScope.CURRENT)) {
            rows.forEachRemaining(row -> snapshots.add(row.getLong("snapshot_id")));
        }
        int ranges = 0;
        for (int end = 0; end < snapshots.size(); end++) {
            try (CatalogSnapshot snapshot = catalog.at(snapshots.get(end))) {
                ranges += snapshot.tables().size() * (end + 1);
            }
        }
        assertThat(ranges).as("ranges of the workload").isGreaterThan(100);
        return ranges;
    }

    /** moraine's answer: insertions and deletions read through the change feed, changes paired from them. */
    record Feed(List<String> insertions, List<String> deletions, List<String> changes) {}

    private record ChangeRow(ChangeKey key, List<String> values) {}

    // The feeds of one lake read the same files over and over: each is decoded once.
    private final DecodedFiles decodedFiles = DecodedFiles.kept();

    Feed read(MoraineCatalog catalog, String schema, String table, long start, long end)
    {
        try (CatalogSnapshot snapshot = catalog.at(end)) {
            return read(snapshot, schema, table, start);
        }
    }

    Feed read(CatalogSnapshot end, String schema, String table, long start)
    {
        List<ChangeRow> inserted = new ArrayList<>();
        List<ChangeRow> deleted = new ArrayList<>();
        Row tableRow = end.table(schema, table).orElseThrow();
        ChangeFeed feed = ChangeFeed.forTable(end, tableRow.getLong("table_id"), start);
        ChangeFeedReader reader = new ChangeFeedReader(end, feed, LocalFileSystem.INSTANCE, decodedFiles);
        List<TableColumn> columns = reader.columns();
        reader.read((kind, snapshotId, rowId, row) -> {
            List<String> values = new ArrayList<>();
            for (int i = 0; i < row.length; i++) {
                values.add(DuckDbText.text(columns.get(i).type(), row[i]));
            }
            (kind == ChangeKind.INSERTION ? inserted : deleted).add(new ChangeRow(new ChangeKey(snapshotId, rowId), values));
        });
        Map<ChangeKey, Long> insertedKeys = counts(inserted);
        Map<ChangeKey, Long> deletedKeys = counts(deleted);
        List<String> changes = new ArrayList<>();
        for (ChangeRow row : inserted) {
            ChangePairing.changeTypes(ChangeKind.INSERTION, row.key(), deletedKeys).forEach(type -> changes.add(line(row, Optional.of(type))));
        }
        for (ChangeRow row : deleted) {
            ChangePairing.changeTypes(ChangeKind.DELETION, row.key(), insertedKeys).forEach(type -> changes.add(line(row, Optional.of(type))));
        }
        return new Feed(inserted.stream().map(row -> line(row, Optional.empty())).toList(), deleted.stream().map(row -> line(row, Optional.empty())).toList(),
                changes);
    }

    private static Map<ChangeKey, Long> counts(List<ChangeRow> rows)
    {
        Map<ChangeKey, Long> counts = new HashMap<>();
        rows.forEach(row -> counts.merge(row.key(), 1L, Long::sum));
        return counts;
    }

    private static String line(ChangeRow row, Optional<ChangeType> type)
    {
        List<String> fields = new ArrayList<>();
        fields.add(Long.toString(row.key().snapshotId()));
        fields.add(Long.toString(row.key().rowId()));
        type.ifPresent(changeType -> fields.add(changeType.sqlName()));
        fields.addAll(row.values());
        return CsvWriter.line(fields);
    }

    @Test
    void aTableMissingAtTheEndIsRefused()
    {
        try (MoraineCatalog catalog = MoraineCatalog.open(store, OpenMode.READ_ONLY); CatalogSnapshot latest = catalog.latest()) {
            assertThatThrownBy(() -> ChangeFeed.forTable(latest, 999_999, latest.id()))
                    .isInstanceOf(NotFoundException.class)
                    .hasMessageContaining("table 999999 does not exist at snapshot " + latest.id());
        }
    }

    @Test
    void aStartAfterTheNewestSnapshotIsRefusedNamingTheSnapshots()
    {
        try (MoraineCatalog catalog = MoraineCatalog.open(store, OpenMode.READ_ONLY); CatalogSnapshot latest = catalog.latest()) {
            long tableId = latest.tables().getFirst().getLong("table_id");
            assertThatThrownBy(() -> ChangeFeed.forTable(latest, tableId, latest.id() + 10))
                    .isInstanceOf(NotFoundException.class)
                    .hasMessageContaining("snapshot " + (latest.id() + 10) + " does not exist")
                    .hasMessageContaining("to " + latest.id());
        }
    }

    @Test
    void aStartAfterTheEndIsAnEmptyFeedAsInDuckLake()
            throws Exception
    {
        // The table must exist at both bounds: DuckLake looks it up at the end bound.
        ChangeFeedOracle.Answer first = answers.getFirst();
        long created = answers.stream().filter(answer -> answer.table().equals(first.table())).mapToLong(ChangeFeedOracle.Answer::end).min().orElseThrow();
        ChangeFeedOracle.Answer widest = answers.stream()
                .filter(answer -> answer.table().equals(first.table()) && answer.start() >= created && !answer.changes().isEmpty())
                .max(java.util.Comparator.comparing((ChangeFeedOracle.Answer answer) -> answer.end() - answer.start()))
                .orElseThrow();
        List<String> columns = ChangeFeedOracle.columnsAt(oracle.connection(), widest.schema(), widest.table(), widest.start());
        ChangeFeedOracle.Answer reversed = ChangeFeedOracle.answer(oracle.connection(), widest.schema(), widest.table(), columns, widest.end(), widest.start());
        try (MoraineCatalog catalog = MoraineCatalog.open(store, OpenMode.READ_ONLY)) {
            Feed feed = read(catalog, widest.schema(), widest.table(), widest.end(), widest.start());
            assertThat(feed.insertions()).containsExactlyInAnyOrderElementsOf(reversed.insertions());
            assertThat(feed.deletions()).containsExactlyInAnyOrderElementsOf(reversed.deletions());
            assertThat(feed.changes()).containsExactlyInAnyOrderElementsOf(reversed.changes()).isEmpty();
        }
    }

    @Test
    void timestampBoundsResolveAsDuckLakeResolvesThem()
            throws Exception
    {
        ChangeFeedOracle.Answer widest = widestRangeOfTheFirstTable();
        String startTime = oracle.query("SELECT snapshot_time::VARCHAR FROM ducklake_snapshots('lake') WHERE snapshot_id = " + widest.start()).getFirst().getFirst();
        String endTime = oracle.query("SELECT snapshot_time::VARCHAR FROM ducklake_snapshots('lake') WHERE snapshot_id = " + widest.end()).getFirst().getFirst();
        List<String> columns = ChangeFeedOracle.columnsAt(oracle.connection(), widest.schema(), widest.table(), widest.end());
        String cast = String.join(", ", columns.stream().map(name -> "CAST(\"" + name + "\" AS VARCHAR)").toList());
        List<String> expected = ChangeFeedOracle.rows(oracle.connection(), "SELECT snapshot_id, rowid, change_type, " + cast + " FROM ducklake_table_changes('lake', '"
                + widest.schema() + "', '" + widest.table() + "', TIMESTAMPTZ '" + startTime + "', TIMESTAMPTZ '" + endTime + "')");
        try (MoraineCatalog catalog = MoraineCatalog.open(store, OpenMode.READ_ONLY);
                CatalogSnapshot end = catalog.asOf(java.time.OffsetDateTime.parse(endTime.replace(' ', 'T').replaceAll("\\+00$", "+00:00")).toInstant())) {
            long start = ChangeFeed.startAtOrAfter(catalog, java.time.OffsetDateTime.parse(startTime.replace(' ', 'T').replaceAll("\\+00$", "+00:00")).toInstant());
            assertThat(start).isEqualTo(widest.start());
            assertThat(end.id()).isEqualTo(widest.end());
            assertThat(read(end, widest.schema(), widest.table(), start).changes()).containsExactlyInAnyOrderElementsOf(expected).isNotEmpty();
        }
    }

    @Test
    void theComparedFeedsReadEverySource()
    {
        try (MoraineCatalog catalog = MoraineCatalog.open(store, OpenMode.READ_ONLY)) {
            Map<String, Integer> sources = new HashMap<>();
            for (ChangeFeedOracle.Answer answer : answers) {
                try (CatalogSnapshot end = catalog.at(answer.end())) {
                    long tableId = end.table(answer.schema(), answer.table()).orElseThrow().getLong("table_id");
                    for (var task : ChangeFeed.forTable(end, tableId, answer.start()).planTasks()) {
                        sources.merge(source(task), 1, Integer::sum);
                    }
                }
            }
            assertSources(sources);
        }
        assertThat(answers.stream().filter(answer -> answer.changes().stream().anyMatch(line -> line.contains(",update_preimage,"))))
                .as("ranges with updates").isNotEmpty();
    }

    /** Asserts the sources the class's lake must exercise (by {@link #source} name) were planned. */
    abstract void assertSources(Map<String, Integer> sources);

    private static String source(io.moraine.core.changes.ChangeTask task)
    {
        return switch (task) {
            case io.moraine.core.changes.InsertedRowsTask inserted -> inserted.file().partialMax().isPresent() ? "partial file insertions" : "file insertions";
            case io.moraine.core.changes.DeletedRowsTask deleted -> deleted.deleteFile().isPresent() ? "delete file"
                    : deleted.retiredAt().isPresent() ? "retired file" : "inlined file deletes";
            case io.moraine.core.changes.InlinedChangesTask inlined -> "inlined " + inlined.kind();
        };
    }

    ChangeFeedOracle.Answer widestRangeOfTheFirstTable()
    {
        ChangeFeedOracle.Answer first = answers.getFirst();
        return answers.stream()
                .filter(answer -> answer.schema().equals(first.schema()) && answer.table().equals(first.table()) && !answer.changes().isEmpty())
                .max(java.util.Comparator.comparing((ChangeFeedOracle.Answer answer) -> answer.end() - answer.start()))
                .orElseThrow();
    }
}
