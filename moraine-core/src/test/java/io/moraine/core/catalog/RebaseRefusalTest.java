package io.moraine.core.catalog;

import io.moraine.core.error.CommitConflictException;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.tx.StagedTransaction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.Map;

import static io.moraine.core.catalog.CatalogTestSupport.changes;
import static io.moraine.core.catalog.CatalogTestSupport.dataFile;
import static io.moraine.core.catalog.CatalogTestSupport.memoryStore;
import static io.moraine.core.catalog.CatalogTestSupport.newCatalog;
import static io.moraine.core.catalog.CatalogTestSupport.nextSnapshot;
import static io.moraine.core.catalog.CatalogTestSupport.scan;
import static io.moraine.core.catalog.CatalogTestSupport.tableStats;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The two refusals of data-only rebasing besides structural changes: a commit that deletes from a table is refused
 * when a commit since its read snapshot deleted from (or compacted, flushed, rewrote) the same table, as DuckLake
 * refuses concurrent deletes; a commit whose column statistics both it and a commit since changed is merged (typed
 * min/max, OR-ed flags) and refused only where a stat cannot be compared as the column's type. Each refusal names
 * the snapshot and the table, writes nothing, and the same commit against another table's change lands rebased.
 * The RETRY commit policy refuses every commit the head has moved past.
 */
class RebaseRefusalTest
{
    /** Snapshot 1: tables 1 and 2, each with one 10-row data file (ids 0 and 1), table stats and column stats. */
    private static Row setUp(MoraineCatalog catalog)
    {
        Row s1 = nextSnapshot(CatalogTestSupport.head(catalog), 1, 2, 2);
        catalog.begin(0).insert(s1).insert(changes(1, "created_table:\"main\".\"a\",created_table:\"main\".\"b\""))
                .insert(CatalogTestSupport.table(1, 0, "a", 1)).insert(CatalogTestSupport.table(2, 0, "b", 1))
                .insert(CatalogTestSupport.column(1, 1, "x", "int32", 1)).insert(CatalogTestSupport.column(2, 1, "x", "int32", 1))
                .insert(dataFile(1, 0, 1, 0, 10)).insert(dataFile(2, 1, 1, 0, 10))
                .insert(tableStats(1, 10, 10, 1000)).insert(tableStats(2, 10, 10, 1001))
                .insert(columnStats(1, "0", "9")).insert(columnStats(2, "0", "9"))
                .commit();
        return s1;
    }

    /** A commit read at snapshot 1 that deletes rows of {@code dataFileId} in {@code tableId} with one delete file. */
    private static StagedTransaction deleter(MoraineCatalog catalog, Row s1, long tableId, long dataFileId)
    {
        Row s2 = nextSnapshot(s1, 0, 0, 1);
        return catalog.begin(1).insert(s2).insert(changes(2, "deleted_from_table:" + tableId))
                .insert(deleteFile(s1.getLong("next_file_id"), tableId, 2, dataFileId));
    }

    /** A commit read at snapshot 1 that appends a 10-row file to {@code tableId} and updates its stats and column stats. */
    private static StagedTransaction appenderWithColumnStats(MoraineCatalog catalog, Row s1, long tableId)
    {
        Row s2 = nextSnapshot(s1, 0, 0, 1);
        return catalog.begin(1).insert(s2).insert(changes(2, "inserted_into_table:" + tableId))
                .insert(dataFile(tableId, s1.getLong("next_file_id"), 2, 10, 10))
                .update(tableStats(tableId, 10, 10, 1000 + tableId - 1), Map.of("record_count", 20L, "next_row_id", 20L))
                .update(columnStats(tableId, "0", "9"), Map.of("max_value", "19"));
    }

    /** A commit at snapshot 2 that records {@code changesMade} (another writer's deletion, flush, compaction...). */
    private static void concurrent(MoraineCatalog catalog, Row s1, String changesMade)
    {
        catalog.begin(1).insert(nextSnapshot(s1, 0, 0, 1)).insert(changes(2, changesMade)).commit();
    }

    @ParameterizedTest
    @ValueSource(strings = {"deleted_from_table", "merge_adjacent", "rewrite_delete", "compacted_table", "inserted_into_table", "inlined_insert"})
    void aDeleteIsRefusedAfterAConcurrentChangeDuckLakeSaysConflicts(String changeType)
    {
        try (MoraineCatalog catalog = newCatalog(memoryStore("rebase-deletes"))) {
            Row s1 = setUp(catalog);
            StagedTransaction delete = deleter(catalog, s1, 1, 0);
            concurrent(catalog, s1, changeType + ":1");
            List<Row> deleteFilesBefore = scan(catalog, TableKind.DELETE_FILE, RowScope.ALL);

            assertThatThrownBy(delete::commit)
                    .isInstanceOf(CommitConflictException.class)
                    .hasMessageContaining("read snapshot 1 but the catalog head is now 2")
                    .hasMessageContaining("deleted_from_table:1 conflicts with " + changeType + ":1 committed in snapshot 2");
            assertThat(catalog.headSnapshotId()).hasValue(2);
            assertThat(scan(catalog, TableKind.DELETE_FILE, RowScope.ALL)).isEqualTo(deleteFilesBefore);
            assertThat(verify(catalog).problems()).isEmpty();
        }
    }

    @Test
    void aDeleteLandsRebasedAfterChangesDuckLakeLetsItLandOn()
    {
        for (String changesMade : List.of("deleted_from_table:2", "inserted_into_table:2", "inline_flush:1", "flushed_inlined:1", "inlined_delete:1")) {
            try (MoraineCatalog catalog = newCatalog(memoryStore("rebase-deletes-land"))) {
                Row s1 = setUp(catalog);
                StagedTransaction delete = deleter(catalog, s1, 1, 0);
                concurrent(catalog, s1, changesMade);
                assertThat(delete.commit()).as("after " + changesMade).isEqualTo(3);
                // The concurrent commit took file id 2, so the rebased delete file is 3 and begins at snapshot 3.
                assertThat(scan(catalog, TableKind.DELETE_FILE, RowScope.CURRENT)).extracting(row -> List.of(row.getLong("delete_file_id"),
                        row.getLong("begin_snapshot"), row.getLong("data_file_id"))).containsExactly(List.of(3L, 3L, 0L));
                assertThat(verify(catalog).problems()).isEmpty();
            }
        }
    }

    /** A commit at snapshot 2 that appends to table 1 and updates its stats and column stats to {@code columnChanges}. */
    private static void concurrentAppend(MoraineCatalog catalog, Row s1, Map<String, Object> columnChanges)
    {
        catalog.begin(1).insert(nextSnapshot(s1, 0, 0, 1)).insert(changes(2, "inserted_into_table:1"))
                .insert(dataFile(1, s1.getLong("next_file_id"), 2, 10, 5))
                .update(tableStats(1, 10, 10, 1000), Map.of("record_count", 15L, "next_row_id", 15L, "file_size_bytes", 1500L))
                .update(columnStats(1, "0", "9"), columnChanges)
                .commit();
    }

    @Test
    void aColumnStatsUpdateMergesWithAConcurrentAppendsStatsAsTypedValues()
    {
        try (MoraineCatalog catalog = newCatalog(memoryStore("rebase-column-stats-merge"))) {
            Row s1 = setUp(catalog);
            StagedTransaction append = appenderWithColumnStats(catalog, s1, 1);
            // max 100 > 19 as int32, though '19' > '100' as text; only the head changed min and contains_null.
            concurrentAppend(catalog, s1, Map.of("min_value", "-5", "max_value", "100", "contains_null", true));
            assertThat(append.commit()).isEqualTo(3);
            assertThat(scan(catalog, TableKind.TABLE_COLUMN_STATS, RowScope.CURRENT)).filteredOn(row -> row.getLong("table_id") == 1)
                    .containsExactly(Row.of(TableKind.TABLE_COLUMN_STATS, 1L, 1L, true, false, "-5", "100", null));
            try (CatalogSnapshot head = catalog.latest()) {
                // Each commit's deltas add up: 10 + 5 + 10 rows, next_row_id 25, 1000 + 500 + 0 bytes.
                assertThat(head.tableStats(1)).hasValue(Row.of(TableKind.TABLE_STATS, 1L, 25L, 25L, 1500L));
            }
            // The loser's file took row ids 10..19 as it read them; rebased it starts after the winner's 10..14.
            assertThat(scan(catalog, TableKind.DATA_FILE, RowScope.CURRENT)).filteredOn(row -> row.getLong("table_id") == 1)
                    .extracting(row -> List.of(row.getLong("data_file_id"), row.getLong("begin_snapshot"), row.getLong("row_id_start")))
                    .containsExactlyInAnyOrder(List.of(0L, 1L, 0L), List.of(2L, 2L, 10L), List.of(3L, 3L, 15L));
            assertThat(verify(catalog).problems()).isEmpty();
        }
    }

    @Test
    void aColumnStatsUpdateIsRefusedWhenBothSidesChangedAStatThatDoesNotParseAsTheColumnsType()
    {
        try (MoraineCatalog catalog = newCatalog(memoryStore("rebase-column-stats-refused"))) {
            Row s1 = setUp(catalog);
            StagedTransaction append = appenderWithColumnStats(catalog, s1, 1);
            concurrentAppend(catalog, s1, Map.of("max_value", "not-a-number"));
            List<Row> statsBefore = scan(catalog, TableKind.TABLE_COLUMN_STATS, RowScope.ALL);

            assertThatThrownBy(append::commit)
                    .isInstanceOf(CommitConflictException.class)
                    .hasMessageContaining("read snapshot 1 but the catalog head is now 2")
                    .hasMessageContaining("table 1 column 1's ducklake_table_column_stats max_value changed on both sides ('not-a-number' at the head, '19' in this commit)");
            assertThat(catalog.headSnapshotId()).hasValue(2);
            assertThat(scan(catalog, TableKind.TABLE_COLUMN_STATS, RowScope.ALL)).isEqualTo(statsBefore);
            assertThat(verify(catalog).problems()).isEmpty();
        }
    }

    @Test
    void theRetryPolicyRefusesACommitThatWouldRebase()
    {
        try (MoraineCatalog catalog = newCatalog(memoryStore("rebase-retry-policy"))) {
            Row s1 = setUp(catalog);
            StagedTransaction append = appenderWithColumnStats(catalog, s1, 1);
            concurrent(catalog, s1, "inserted_into_table:2");

            assertThatThrownBy(() -> append.commit(io.moraine.core.tx.CommitPolicy.RETRY))
                    .isInstanceOf(CommitConflictException.class)
                    .hasMessageContaining("commit conflict: this transaction read snapshot 1 but the catalog head is now 2 (commit policy RETRY");
            assertThat(catalog.headSnapshotId()).hasValue(2);
        }
    }

    @Test
    void aColumnStatsUpdateLandsRebasedAfterAChangeToAnotherTable()
    {
        try (MoraineCatalog catalog = newCatalog(memoryStore("rebase-column-stats-land"))) {
            Row s1 = setUp(catalog);
            StagedTransaction append = appenderWithColumnStats(catalog, s1, 1);
            concurrent(catalog, s1, "inserted_into_table:2");
            assertThat(append.commit()).isEqualTo(3);
            try (CatalogSnapshot head = catalog.latest()) {
                assertThat(head.tableStats(1)).hasValue(Row.of(TableKind.TABLE_STATS, 1L, 20L, 20L, 1000L));
            }
            assertThat(scan(catalog, TableKind.TABLE_COLUMN_STATS, RowScope.CURRENT))
                    .filteredOn(row -> row.getLong("table_id") == 1).extracting(row -> row.getString("max_value")).containsExactly("19");
            assertThat(scan(catalog, TableKind.DATA_FILE, RowScope.CURRENT)).extracting(row -> List.of(row.getLong("data_file_id"), row.getLong("begin_snapshot")))
                    .contains(List.of(3L, 3L));
            assertThat(verify(catalog).problems()).isEmpty();
        }
    }

    @Test
    void twoLiveDeleteFilesOfOneDataFileAreWhatTheRefusalPrevents()
    {
        // Without the refusal both deletes would land, each with a live delete file holding only its own positions.
        try (MoraineCatalog catalog = newCatalog(memoryStore("two-delete-files"))) {
            Row s1 = setUp(catalog);
            deleter(catalog, s1, 1, 0).commit();
            Row s2 = CatalogTestSupport.head(catalog);
            catalog.begin(2).insert(nextSnapshot(s2, 0, 0, 1)).insert(changes(3, "deleted_from_table:1")).insert(deleteFile(3, 1, 3, 0)).commit();
            assertThat(verify(catalog).problems()).extracting(io.moraine.core.verify.VerifyProblem::line).containsExactly(
                    "DUPLICATE_LIVE_ROW current/ducklake_delete_file(table_id=1, delete_file_id=3): data file 0 has another live delete file, "
                            + "current/ducklake_delete_file(table_id=1, delete_file_id=2)");
        }
    }

    private static io.moraine.core.verify.VerifyReport verify(MoraineCatalog catalog)
    {
        io.moraine.core.verify.VerifyReport report = io.moraine.core.verify.StoreVerifier.verify(catalog.store().latest(),
                io.moraine.core.verify.StoreVerifier.Options.STORE_ONLY);
        assertThat(report.checked("catalog rows")).isPositive();
        return report;
    }

    private static Row columnStats(long tableId, String min, String max)
    {
        return Row.of(TableKind.TABLE_COLUMN_STATS, tableId, 1L, false, false, min, max, null);
    }

    private static Row deleteFile(long deleteFileId, long tableId, long begin, long dataFileId)
    {
        return Row.of(TableKind.DELETE_FILE, deleteFileId, tableId, begin, null, dataFileId, "ducklake-delete-" + deleteFileId + ".parquet", true,
                "parquet", 1L, 500L, 50L, null, null);
    }
}
