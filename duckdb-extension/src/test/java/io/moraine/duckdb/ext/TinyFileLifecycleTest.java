package io.moraine.duckdb.ext;

import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.row.Row;
import io.moraine.core.catalog.RowScope;
import io.moraine.core.row.TableKind;
import io.moraine.core.io.LocalFileSystem;
import io.moraine.core.keyspace.Subspace;
import io.moraine.core.keyspace.TinyFileKeys;
import io.moraine.core.tiny.TinyFilePublisher;
import io.moraine.core.tiny.TinyFileSweeper;
import io.moraine.core.verify.StoreVerifier;
import io.moraine.core.verify.VerifyProblem;
import io.moraine.core.verify.VerifyReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.moraine.duckdb.ext.ExtensionConnections.execute;
import static io.moraine.duckdb.ext.ExtensionConnections.query;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lifecycle of tiny-file copies under DuckLake's own maintenance, through the extension: a table of single-row
 * Parquet files (inlining off) gets copies published through DuckDB's writer, then merge_adjacent_files,
 * expire_snapshots and cleanup_old_files run through DuckLake. After each call no copy outlives its file's row (the
 * commit that deleted a row deleted its copy), every copy whose row remains is kept, the merged output has no copy
 * until published, and DuckDB answers as the same steps on a DuckDB-file DuckLake catalog do. Then an orphan copy is
 * made behind the catalog's back and the sweep removes it.
 */
class TinyFileLifecycleTest
{
    private static final int INSERTS = 30;
    private static final int ROWS = INSERTS + 3 - 3;

    @TempDir
    Path temp;

    @Test
    void pruningFilesThroughDuckLakeRemovesTheirCopiesInTheSameCommitAndTheSweepRemovesOrphans()
            throws Exception
    {
        Path store = temp.resolve("store");
        Path data = Files.createDirectories(temp.resolve("data"));
        Path oracleData = Files.createDirectories(temp.resolve("oracle-data"));
        long comparisons = 0;
        try (Connection connection = ExtensionConnections.open()) {
            execute(connection, "SET threads = 1");
            execute(connection, "LOAD ducklake");
            execute(connection, "ATTACH 'ducklake:" + temp.resolve("oracle.ducklake") + "' AS oracle (DATA_PATH '" + oracleData + "/', DATA_INLINING_ROW_LIMIT 0)");
            execute(connection, "ATTACH 'ducklake:moraine:" + store + "' AS lake (DATA_PATH '" + data + "/', DATA_INLINING_ROW_LIMIT 0)");
            for (String lake : List.of("oracle", "lake")) {
                execute(connection, "CREATE TABLE " + lake + ".t (id INTEGER, label VARCHAR)");
                for (int i = 0; i < INSERTS; i++) {
                    execute(connection, "INSERT INTO " + lake + ".t VALUES (" + i + ", 'row-" + i + "')");
                }
                execute(connection, "INSERT INTO " + lake + ".t VALUES (100, 'a'), (101, 'b'), (102, 'c')");
                // Ends the single-row file of id 3 whole; writes a delete file for the three-row file.
                execute(connection, "DELETE FROM " + lake + ".t WHERE id IN (3, 101)");
            }
            comparisons += compare(connection);

            MoraineCatalog catalog = AttachedTinyFiles.writer(store.toString());
            assertThat(catalog.tinyFileThresholdBytes()).isEqualTo(4096);
            TinyFilePublisher.Result published = AttachedTinyFiles.publish(store.toString(), LocalFileSystem.INSTANCE);
            // The 29 current single-row files, the three-row file and its delete file, each well under 4 KB.
            assertThat(published.published()).isEqualTo(INSERTS + 1);
            assertThat(copies(catalog)).anyMatch(copy -> copy.startsWith(TableKind.DELETE_FILE.tag() + "/"));
            assertThat(published.skipped()).isZero();
            assertThat(AttachedTinyFiles.publish(store.toString(), LocalFileSystem.INSTANCE).published()).as("a second pass writes nothing").isZero();
            Set<String> copied = copies(catalog);
            assertThat(copied).hasSize(INSERTS + 1);
            assertCopiesVerify(catalog, List.of());
            // A copied file ended whole by a DELETE: its row moves to history and keeps its copy (older snapshots read it)
            // until expire_snapshots deletes the row.
            for (String lake : List.of("oracle", "lake")) {
                execute(connection, "DELETE FROM " + lake + ".t WHERE id = 5");
            }
            assertThat(copies(catalog)).as("an ended file keeps its copy").isEqualTo(copied);
            long headBefore = catalog.headSnapshotId().orElseThrow();
            comparisons += compare(connection);

            Set<String> prunedRows = new HashSet<>();
            List<Integer> prunedPerCall = new java.util.ArrayList<>();
            for (String call : List.of("CALL ducklake_merge_adjacent_files('%s')", "CALL ducklake_expire_snapshots('%s', older_than => now())",
                    "CALL ducklake_cleanup_old_files('%s', cleanup_all => true)")) {
                execute(connection, call.formatted("oracle"));
                execute(connection, call.formatted("lake"));
                Set<String> rows = fileRows(catalog);
                Set<String> now = copies(catalog);
                assertThat(rows).as("every copy has its row after " + call).containsAll(now);
                Set<String> kept = new HashSet<>(copied);
                kept.retainAll(rows);
                assertThat(now).as("copies whose row remains are kept after " + call).containsAll(kept);
                Set<String> gone = new HashSet<>(copied);
                gone.removeAll(rows);
                gone.removeAll(prunedRows);
                prunedPerCall.add(gone.size());
                prunedRows.addAll(gone);
                assertCopiesVerify(catalog, List.of());
                comparisons += compare(connection);
            }
            assertThat(catalog.headSnapshotId().orElseThrow()).as("the merge committed a snapshot").isGreaterThan(headBefore);
            // DuckLake's merge deletes the rows of the 28 current single-row files it merged in its own commit (the three-row
            // file has deletes and stays), and that commit deleted their copies; expire_snapshots deletes the row of the
            // file the DELETE ended, and its copy with it.
            System.out.println("copies removed by merge_adjacent_files, expire_snapshots, cleanup_old_files: " + prunedPerCall);
            assertThat(prunedPerCall).as("copies removed by each call").containsExactly(INSERTS - 2, 1, 0);
            assertThat(prunedRows).as("files pruned by DuckLake's maintenance").hasSize(INSERTS - 1).allMatch(id -> id.startsWith(TableKind.DATA_FILE.tag() + "/"));
            assertThat(currentFileRows(catalog)).as("the three-row file and its delete file stay, with their copies")
                    .hasSize(2 + 1).containsAll(copies(catalog));
            Set<String> newFiles = fileRows(catalog);
            newFiles.removeAll(copied);
            assertThat(newFiles).as("the merge output").isNotEmpty();
            assertThat(copies(catalog)).as("the merge output is not copied by the merge").doesNotContainAnyElementsOf(newFiles);
            long mergedBytes = catalog.scan(TableKind.DATA_FILE, RowScope.CURRENT).toList().stream().mapToLong(row -> row.getLong("file_size_bytes")).max().orElseThrow();
            TinyFilePublisher.Result again = AttachedTinyFiles.publish(store.toString(), LocalFileSystem.INSTANCE);
            assertThat(again.published()).as("the merge output (%d bytes) is copied only when under the threshold and published", mergedBytes)
                    .isEqualTo(mergedBytes <= 4096 ? newFiles.size() : 0);
            comparisons += compare(connection);

            // An orphan: a copy whose file has no row (a writer without this lifecycle rule pruned it).
            byte[] orphan = TinyFileKeys.key(copyTable(catalog), TableKind.DATA_FILE, 1_000_000);
            catalog.writeBesideCommits(reader -> Map.of(ByteBuffer.wrap(orphan), TinyFileKeys.encodeValue(TableKind.DATA_FILE, 8, "PAR1PAR1".getBytes())));
            int before = copies(catalog).size();
            assertCopiesVerify(catalog, List.of("tiny-file copy of data file 1000000"));
            TinyFileSweeper.Result swept = AttachedTinyFiles.sweep(store.toString());
            assertThat(swept.deleted()).isEqualTo(1);
            assertThat(copies(catalog)).hasSize(before - 1);
            assertThat(fileRows(catalog)).containsAll(copies(catalog));
            assertCopiesVerify(catalog, List.of());
            comparisons += compare(connection);
        }
        // Two columns of 31 rows before the DELETE of id 5, of 30 rows in the six comparisons after it.
        assertThat(comparisons).isEqualTo(2L * (ROWS + 1) + 6 * 2L * ROWS);
    }

    /** Compares the table's rows, all columns, at the head and counts the rows compared (ids and labels). */
    private static long compare(Connection connection)
            throws Exception
    {
        List<List<String>> lake = query(connection, "SELECT id, label FROM lake.t ORDER BY id");
        assertThat(lake).isEqualTo(query(connection, "SELECT id, label FROM oracle.t ORDER BY id")).isNotEmpty();
        return lake.size() * 2L;
    }

    private static long copyTable(MoraineCatalog catalog)
    {
        try (var cursor = catalog.store().latest().scan(Subspace.TINY_FILES.start(), Subspace.TINY_FILES.end(), 1)) {
            return TinyFileKeys.idOf(cursor.next().key()).tableId();
        }
    }

    /** Each copy as kind/table/file. */
    /** Verify, with the files, finds exactly these tiny-file problems, and compares every other copy with its file. */
    private static void assertCopiesVerify(MoraineCatalog catalog, List<String> problems)
    {
        VerifyReport report = StoreVerifier.verify(catalog.store().latest(), StoreVerifier.Options.STORE_ONLY.withFiles(LocalFileSystem.INSTANCE));
        assertThat(report.problems()).filteredOn(problem -> problem.check() == VerifyProblem.Check.TINY_FILE)
                .extracting(VerifyProblem::where).as(report.summary()).containsExactlyElementsOf(problems);
        assertThat(report.checked("tiny-file copies compared with their files")).as(report.summary()).isEqualTo(copies(catalog).size() - problems.size());
    }

    private static Set<String> copies(MoraineCatalog catalog)
    {
        Set<String> ids = new HashSet<>();
        try (var cursor = catalog.store().latest().scan(Subspace.TINY_FILES.start(), Subspace.TINY_FILES.end(), 64)) {
            cursor.forEachRemaining(entry -> {
                TinyFileKeys.CopyId id = TinyFileKeys.idOf(entry.key());
                ids.add(id.kind().tag() + "/" + id.tableId() + "/" + id.fileId());
            });
        }
        return ids;
    }

    /** Every current data and delete file row, as kind/table/file. */
    private static Set<String> currentFileRows(MoraineCatalog catalog)
    {
        Set<String> ids = new HashSet<>();
        for (TableKind kind : List.of(TableKind.DATA_FILE, TableKind.DELETE_FILE)) {
            for (Row row : catalog.scan(kind, RowScope.CURRENT).toList()) {
                ids.add(kind.tag() + "/" + row.getLong("table_id") + "/" + row.getLong(kind == TableKind.DATA_FILE ? "data_file_id" : "delete_file_id"));
            }
        }
        return ids;
    }

    /** Every data and delete file row, current or history, as kind/table/file. */
    private static Set<String> fileRows(MoraineCatalog catalog)
    {
        Set<String> ids = new HashSet<>();
        for (TableKind kind : List.of(TableKind.DATA_FILE, TableKind.DELETE_FILE)) {
            for (Row row : catalog.scan(kind, RowScope.ALL).toList()) {
                ids.add(kind.tag() + "/" + row.getLong("table_id") + "/" + row.getLong(kind == TableKind.DATA_FILE ? "data_file_id" : "delete_file_id"));
            }
        }
        return ids;
    }
}
