package io.moraine.duckdb.ext;

import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.error.CommitConflictException;
import io.moraine.core.io.LocalFileSystem;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreUri;
import io.moraine.core.write.RowDeletes;
import io.moraine.core.write.WriteTransaction;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;
import java.util.stream.Stream;

import static io.moraine.duckdb.ext.ExtensionConnections.execute;
import static io.moraine.duckdb.ext.ExtensionConnections.query;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Deletes through the core API that race another commit: a retry that lands on a newer head writes its partial delete
 * file again with the snapshot id it lands on (writes.md pitfall 9), and a delete whose data file got another delete
 * file meanwhile is refused, naming the table and the file (pitfall 10).
 */
class CoreDeleteConflictsTest
{
    @TempDir
    Path temp;

    private Path store;
    private Path data;

    @BeforeEach
    void setUp()
            throws Exception
    {
        store = temp.resolve("store");
        data = temp.resolve("data");
        Files.createDirectories(data);
        try (Connection connection = duckDb()) {
            execute(connection, "CREATE TABLE lake.t (a INTEGER)");
            execute(connection, "CALL lake.set_option('data_inlining_row_limit', 5)");
            execute(connection, "INSERT INTO lake.t SELECT i FROM range(20) r(i)"); // data file 0
            execute(connection, "INSERT INTO lake.t SELECT i FROM range(100, 120) r(i)"); // data file 1
            execute(connection, "DELETE FROM lake.t WHERE a >= 100 AND a < 110"); // file 1 gets a delete file
        }
    }

    private Connection duckDb()
            throws Exception
    {
        Connection connection = ExtensionConnections.open();
        execute(connection, "SET threads = 1");
        execute(connection, "LOAD ducklake");
        execute(connection, "ATTACH 'ducklake:moraine:" + store + "' AS lake (DATA_PATH '" + data + "/', METADATA_CATALOG 'lake_meta')");
        return connection;
    }

    private MoraineCatalog catalog()
    {
        return MoraineCatalog.open(StoreUri.parse(store.toString()), OpenMode.READ_WRITE);
    }

    @Test
    void aRetriedMergeRewritesItsDeleteFileWithTheSnapshotItLandsOn()
            throws Exception
    {
        long landed;
        try (MoraineCatalog catalog = catalog()) {
            WriteTransaction deletes = WriteTransaction.begin(catalog, LocalFileSystem.INSTANCE);
            RowDeletes rows = RowDeletes.create();
            for (long position = 10; position < 18; position++) {
                rows.fileRow(1, position);
            }
            deletes.deleteRows("main", "t", rows);
            long other = WriteTransaction.begin(catalog).createSchema("other").commit();
            landed = deletes.commit();
            assertThat(landed).isEqualTo(other + 1);
        }
        try (Connection connection = duckDb()) {
            List<List<String>> deleteFiles = query(connection, "SELECT path, begin_snapshot, partial_max, delete_count FROM lake_meta.ducklake_delete_file");
            assertThat(deleteFiles).hasSize(1);
            assertThat(deleteFiles.getFirst().subList(2, 4)).containsExactly(Long.toString(landed), "18");
            Path file = data.resolve("main/t").resolve(deleteFiles.getFirst().getFirst());
            // the new positions carry the snapshot the commit landed on, not the one its first attempt planned
            assertThat(query(connection, "SELECT DISTINCT _ducklake_internal_snapshot_id FROM read_parquet('" + file + "') WHERE pos >= 10 ORDER BY 1"))
                    .containsExactly(List.of(Long.toString(landed)));
            // the first attempt's file is gone: the table directory holds the data files, the replaced delete file and this one
            try (Stream<Path> files = Files.list(data.resolve("main/t"))) {
                assertThat(files.filter(path -> path.getFileName().toString().endsWith("-delete.parquet")).count()).isEqualTo(2);
            }
            assertThat(query(connection, "SELECT count(*) FROM lake.t AT (VERSION => " + (landed - 1) + ")")).containsExactly(List.of("30"));
            assertThat(query(connection, "SELECT count(*) FROM lake.t")).containsExactly(List.of("22"));
            assertThat(query(connection, "SELECT min(a), max(a) FROM lake.t WHERE a >= 100")).containsExactly(List.of("118", "119"));
        }
    }

    @Test
    void deletesOfDifferentFilesOfOneTableBothLand()
            throws Exception
    {
        try (MoraineCatalog catalog = catalog()) {
            WriteTransaction mine = WriteTransaction.begin(catalog, LocalFileSystem.INSTANCE);
            RowDeletes fileOne = RowDeletes.create();
            for (long position = 10; position < 20; position++) {
                fileOne.fileRow(1, position);
            }
            mine.deleteRows("main", "t", fileOne);
            RowDeletes fileZero = RowDeletes.create();
            for (long position = 0; position < 10; position++) {
                fileZero.fileRow(0, position);
            }
            long theirs = WriteTransaction.begin(catalog, LocalFileSystem.INSTANCE).deleteRows("main", "t", fileZero).commit();
            // As DuckLake's file-level check: the other delete touched file 0 only, so this one lands on top of it.
            assertThat(mine.commit()).isEqualTo(theirs + 1);
        }
        try (Connection connection = duckDb()) {
            assertThat(query(connection, "SELECT count(*), min(a) FROM lake.t")).containsExactly(List.of("10", "10"));
        }
    }

    @Test
    void aDeleteWhoseFileGotAnotherDeleteFileMeanwhileIsRefused()
            throws Exception
    {
        try (MoraineCatalog catalog = catalog()) {
            WriteTransaction mine = WriteTransaction.begin(catalog, LocalFileSystem.INSTANCE)
                    .deleteRows("main", "t", RowDeletes.create().fileRow(0, 3)); // an inlined file delete
            RowDeletes theirs = RowDeletes.create();
            for (long position = 10; position < 20; position++) {
                theirs.fileRow(0, position);
            }
            WriteTransaction.begin(catalog, LocalFileSystem.INSTANCE).deleteRows("main", "t", theirs).commit(); // a delete file
            // DuckLake's table-level rules let an inlined delete pass a concurrent delete file; the file-level check does not
            assertThatThrownBy(mine::commit)
                    .isInstanceOf(CommitConflictException.class)
                    .hasMessageContaining("data file 0 of table main.t got another delete file");
        }
        try (Connection connection = duckDb()) {
            assertThat(query(connection, "SELECT count(*) FROM lake.t WHERE a < 20")).containsExactly(List.of("10"));
        }
    }
}
