package io.moraine.examples.changes;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.catalog.Row;
import io.moraine.core.catalog.RowScope;
import io.moraine.core.catalog.TableKind;
import io.moraine.core.changes.ChangeFeed;
import io.moraine.core.changes.ChangeKey;
import io.moraine.core.changes.ChangeKind;
import io.moraine.core.changes.ChangePairing;
import io.moraine.core.changes.ChangeType;
import io.moraine.core.error.NotFoundException;
import io.moraine.core.io.LocalFileSystem;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreUri;
import io.moraine.core.types.TableColumn;
import io.moraine.duckdb.CatalogImporter;
import io.moraine.duckdb.DuckLakeSource;
import io.moraine.examples.cat.ChangeFeedReader;
import io.moraine.examples.cat.CsvWriter;
import io.moraine.examples.cat.DuckDbText;
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
 * snapshots, as multisets of rows (snapshot_id, rowid, change_type and every column as text). Subclasses pick how
 * much of the oracle workload ran before the import (one lake per class keeps each class short).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ChangeFeedMatchesDuckLake
{
    @TempDir
    static Path directory;

    DuckLakeOracle oracle;
    StoreUri store;
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
        String copy = oracle.catalogCopy(directory.resolve("catalog-copy.ducklake"));
        CatalogImporter.importCatalog(DuckLakeSource.parse(copy), store, Optional.empty(), CatalogImporter.Progress.SILENT);
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
        int compared = 0;
        try (MoraineCatalog catalog = MoraineCatalog.open(store, OpenMode.READ_ONLY)) {
            for (ChangeFeedOracle.Answer answer : answers) {
                Feed feed = read(catalog, answer.schema(), answer.table(), answer.start(), answer.end());
                String range = answer.schema() + "." + answer.table() + " [" + answer.start() + ", " + answer.end() + "]";
                assertThat(feed.insertions()).as("insertions of %s", range).containsExactlyInAnyOrderElementsOf(answer.insertions());
                assertThat(feed.deletions()).as("deletions of %s", range).containsExactlyInAnyOrderElementsOf(answer.deletions());
                assertThat(feed.changes()).as("changes of %s", range).containsExactlyInAnyOrderElementsOf(answer.changes());
                compared += 3;
            }
            assertThat(compared).as("comparisons (three per table and range)").isEqualTo(3 * expectedRanges(catalog));
        }
        System.out.printf("%s: %d change-feed comparisons against DuckDB + DuckLake%n", getClass().getSimpleName(), compared);
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

    static Feed read(MoraineCatalog catalog, String schema, String table, long start, long end)
    {
        List<ChangeRow> inserted = new ArrayList<>();
        List<ChangeRow> deleted = new ArrayList<>();
        try (CatalogSnapshot snapshot = catalog.at(end)) {
            Row tableRow = snapshot.table(schema, table).orElseThrow();
            ChangeFeed feed = ChangeFeed.forTable(snapshot, tableRow.getLong("table_id"), start);
            ChangeFeedReader reader = new ChangeFeedReader(snapshot, feed, LocalFileSystem.INSTANCE);
            List<TableColumn> columns = reader.columns();
            reader.read((kind, snapshotId, rowId, row) -> {
                List<String> values = new ArrayList<>();
                for (int i = 0; i < row.length; i++) {
                    values.add(DuckDbText.text(columns.get(i).type(), row[i]));
                }
                (kind == ChangeKind.INSERTION ? inserted : deleted).add(new ChangeRow(new ChangeKey(snapshotId, rowId), values));
            });
        }
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
}
