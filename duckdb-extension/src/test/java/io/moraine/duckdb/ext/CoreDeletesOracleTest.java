package io.moraine.duckdb.ext;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.io.LocalFileSystem;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreUri;
import io.moraine.core.types.TableColumn;
import io.moraine.core.write.files.FileColumnStatistics;
import io.moraine.core.write.InlinedArrowSchema;
import io.moraine.core.write.RowDeletes;
import io.moraine.core.write.WriteTransaction;
import io.moraine.core.write.files.WrittenDataFile;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import static io.moraine.duckdb.ext.ExtensionConnections.execute;
import static io.moraine.duckdb.ext.ExtensionConnections.query;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The core write API's deletes and updates against DuckDB's own: one table built alike by DuckDB in a moraine lake and
 * in a DuckDB-file lake (inlined rows, five Parquet files, one with a delete file, one with inlined file deletes); each
 * step is a DuckDB statement on the DuckDB-file lake and the same rows deleted through {@link WriteTransaction} on the
 * moraine lake. After each step the catalog rows DuckLake writes for deletes, the table at every snapshot (row ids
 * included) and the change feed must be equal. Then DuckDB keeps deleting and updating both.
 */
class CoreDeletesOracleTest
{
    private static final int LIMIT = 5;

    @TempDir
    Path temp;

    private Path store;
    private Path data;
    private Path oracleData;
    private Connection oracle;
    private int comparisons;

    @BeforeEach
    void setUp()
            throws Exception
    {
        store = temp.resolve("store");
        data = temp.resolve("data");
        oracleData = temp.resolve("oracle-data");
        Files.createDirectories(data);
        Files.createDirectories(oracleData);
        oracle = connection("ducklake:" + temp.resolve("oracle.ducklake"), oracleData);
    }

    @AfterEach
    void tearDown()
            throws Exception
    {
        oracle.close();
    }

    private static Connection connection(String lake, Path dataPath)
            throws Exception
    {
        Connection connection = ExtensionConnections.open();
        execute(connection, "SET threads = 1");
        execute(connection, "LOAD ducklake");
        execute(connection, "LOAD parquet");
        execute(connection, "ATTACH '" + lake + "' AS lake (DATA_PATH '" + dataPath + "/', METADATA_CATALOG 'lake_meta', DATA_INLINING_ROW_LIMIT " + LIMIT + ")");
        return connection;
    }

    private Connection moraine()
            throws Exception
    {
        return connection("ducklake:moraine:" + store, data);
    }

    private void both(String... statements)
            throws Exception
    {
        try (Connection moraine = moraine()) {
            for (String statement : statements) {
                execute(oracle, statement);
                execute(moraine, statement);
            }
        }
    }

    @Test
    void deletesAndUpdatesThroughTheCoreMatchDuckDb()
            throws Exception
    {
        List<String> setup = new ArrayList<>();
        setup.add("CREATE TABLE lake.t (a INTEGER, b VARCHAR)");
        // the core reads the limit from the catalog; an ATTACH option is the attaching process's alone
        setup.add("CALL lake.set_option('data_inlining_row_limit', " + LIMIT + ")");
        for (int file = 0; file < 5; file++) {
            setup.add("INSERT INTO lake.t SELECT i, 'f" + file + "' FROM range(" + file * 100 + ", " + (file * 100 + 20) + ") r(i)");
        }
        setup.add("INSERT INTO lake.t VALUES (1000, 'inl'), (1001, 'inl'), (1002, 'inl')");
        setup.add("DELETE FROM lake.t WHERE a >= 100 AND a < 110"); // file 1 gets a delete file
        setup.add("DELETE FROM lake.t WHERE a IN (1, 2)"); // file 0 gets inlined file deletes
        both(setup.toArray(String[]::new));
        compare();

        step("DELETE FROM lake.t WHERE a IN (1000, 1001)", "a IN (1000, 1001)"); // inlined rows
        step("DELETE FROM lake.t WHERE a IN (205, 206, 207)", "a IN (205, 206, 207)"); // few: inlined file deletes
        step("DELETE FROM lake.t WHERE a >= 300 AND a < 310", "a >= 300 AND a < 310"); // many: a delete file
        step("DELETE FROM lake.t WHERE a >= 110 AND a < 118", "a >= 110 AND a < 118"); // merged with the file's delete file
        step("DELETE FROM lake.t WHERE a IN (3, 4)", "a IN (3, 4)"); // few, next to existing inlined file deletes
        step("DELETE FROM lake.t WHERE a >= 400 AND a < 420", "a >= 400 AND a < 420"); // the whole file
        step("DELETE FROM lake.t WHERE a >= 210 AND a < 215", "a >= 210 AND a < 215"); // exactly the limit: still inlined
        step("DELETE FROM lake.t WHERE a >= 200 AND a < 219", "a >= 200 AND a < 219"); // past inlined file deletes
        inlinedUpdate("UPDATE lake.t SET b = 'u' WHERE a IN (10, 11, 1002)", "a IN (10, 11, 1002)");
        fileUpdate("w", "a >= 310 AND a < 320"); // retires file 3 (its delete file plus these make all its rows)
        fileUpdate("w2", "a >= 0 AND a < 20"); // rows of file 0 and rows inlined by the update before

        both("INSERT INTO lake.t VALUES (2000, 'later'), (2001, 'later')",
                "DELETE FROM lake.t WHERE a IN (12, 2000)",
                "UPDATE lake.t SET b = 'v' WHERE a IN (10, 13)",
                "DELETE FROM lake.t WHERE a >= 14 AND a < 20");
        compare();

        truncate();
        both("INSERT INTO lake.t VALUES (3000, 'after')", "DELETE FROM lake.t WHERE a = 3000", "INSERT INTO lake.t SELECT i, 'x' FROM range(20) r(i)",
                "DELETE FROM lake.t WHERE a < 8");
        compare();
        truncateBetweenInserts();

        // every delete path left rows behind for the comparisons to see
        String head = query(oracle, "SELECT max(snapshot_id) FROM lake_meta.ducklake_snapshot").getFirst().getFirst();
        for (String covered : List.of("SELECT * FROM lake_meta.ducklake_delete_file WHERE partial_max IS NULL",
                "SELECT * FROM lake_meta.ducklake_delete_file WHERE partial_max IS NOT NULL",
                "SELECT * FROM lake_meta.ducklake_files_scheduled_for_deletion",
                "SELECT * FROM lake_meta.ducklake_data_file WHERE end_snapshot IS NOT NULL",
                "SELECT * FROM lake_meta.ducklake_inlined_delete_1",
                "SELECT * FROM lake_meta.ducklake_inlined_data_1_1 WHERE end_snapshot IS NOT NULL",
                "SELECT * FROM ducklake_table_changes('lake', 'main', 't', 0, " + head + ") WHERE change_type = 'update_postimage'")) {
            assertThat(query(oracle, covered)).as(covered).isNotEmpty();
        }
        System.out.println("CoreDeletesOracleTest: " + comparisons + " comparisons equal");
        assertThat(comparisons).as("comparisons made").isGreaterThan(600);
    }

    /** {@code sql} on the DuckDB-file lake; on the moraine lake, the rows matching {@code where} deleted through the core. */
    private void step(String sql, String where)
            throws Exception
    {
        RowDeletes deletes = deletesOf(where);
        execute(oracle, sql);
        commit(transaction -> transaction.deleteRows("main", "t", deletes));
        compare();
    }

    private void inlinedUpdate(String sql, String where)
            throws Exception
    {
        RowDeletes deletes = deletesOf(where);
        List<List<String>> rows;
        try (Connection moraine = moraine()) {
            rows = query(moraine, "SELECT a, rowid FROM lake.t WHERE " + where + " ORDER BY rowid");
        }
        execute(oracle, sql);
        try (MoraineCatalog catalog = MoraineCatalog.open(StoreUri.parse(store.toString()), OpenMode.READ_WRITE);
                RootAllocator allocator = new RootAllocator();
                VectorSchemaRoot batch = VectorSchemaRoot.create(InlinedArrowSchema.of(columns(catalog)), allocator)) {
            IntVector a = (IntVector) batch.getVector("a");
            VarCharVector b = (VarCharVector) batch.getVector("b");
            a.allocateNew(rows.size());
            b.allocateNew(rows.size());
            long[] rowIds = new long[rows.size()];
            for (int i = 0; i < rows.size(); i++) {
                a.set(i, Integer.parseInt(rows.get(i).get(0)));
                b.set(i, "u".getBytes(StandardCharsets.UTF_8));
                rowIds[i] = Long.parseLong(rows.get(i).get(1));
            }
            batch.setRowCount(rows.size());
            WriteTransaction.begin(catalog, LocalFileSystem.INSTANCE)
                    .deleteRows("main", "t", deletes)
                    .insertInlinedKeepingRowIds("main", "t", batch, rowIds)
                    .commit();
        }
        compare();
    }

    /**
     * DuckDB's UPDATE of more rows than the inlining limit on the DuckDB-file lake; on the moraine lake, the rows deleted
     * through the core and written again, with their row ids in {@code _ducklake_internal_row_id}, to a data file DuckDB's
     * Parquet writer writes as DuckLake does, added with its statistics.
     */
    // Rows in DuckDB's scan order (data files, then inlined rows): later deletes address them by position.
    private void fileUpdate(String value, String where)
            throws Exception
    {
        RowDeletes deletes = deletesOf(where);
        Path file = data.resolve("main/t/ducklake-" + java.util.UUID.randomUUID() + ".parquet");
        List<FileColumnStatistics> statistics = new ArrayList<>();
        long count;
        try (Connection moraine = moraine()) {
            execute(moraine, "COPY (SELECT a, '" + value + "' AS b, rowid AS _ducklake_internal_row_id FROM lake.t WHERE " + where + " ORDER BY filename LIKE 'ducklake_inlined_data%', rowid) TO '"
                    + file + "' (FORMAT parquet, FIELD_IDS {a: 1, b: 2, _ducklake_internal_row_id: 2147483540})");
            String read = "read_parquet('" + file + "')";
            count = Long.parseLong(query(moraine, "SELECT count(*) FROM " + read).getFirst().getFirst());
            for (String column : List.of("a", "b")) {
                List<String> row = query(moraine, "SELECT count(" + column + "), count(*) - count(" + column + "), min(" + column + ")::VARCHAR, max(" + column
                        + ")::VARCHAR, (SELECT sum(total_compressed_size) FROM parquet_metadata('" + file + "') WHERE path_in_schema = '" + column + "') FROM "
                        + read).getFirst();
                statistics.add(new FileColumnStatistics(column.equals("a") ? 1 : 2, Long.parseLong(row.get(4)), Long.parseLong(row.get(0)),
                        Long.parseLong(row.get(1)), row.get(2), row.get(3), null, null));
            }
        }
        execute(oracle, "UPDATE lake.t SET b = '" + value + "' WHERE " + where);
        byte[] bytes = Files.readAllBytes(file);
        long footer = java.nio.ByteBuffer.wrap(bytes, bytes.length - 8, 4).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt();
        WrittenDataFile written = new WrittenDataFile(file.toString(), bytes.length, footer, count, statistics, List.of());
        commit(transaction -> transaction.deleteRows("main", "t", deletes).appendDataFiles("main", "t", List.of(written)));
        compare();
    }

    private void truncate()
            throws Exception
    {
        execute(oracle, "TRUNCATE lake.t");
        commit(transaction -> transaction.truncate("main", "t"));
        compare();
    }

    /** One transaction: an insert, TRUNCATE (which takes that insert too), another insert. */
    private void truncateBetweenInserts()
            throws Exception
    {
        execute(oracle, "BEGIN TRANSACTION");
        execute(oracle, "INSERT INTO lake.t VALUES (5000, 'gone'), (5001, 'gone')");
        execute(oracle, "TRUNCATE lake.t");
        execute(oracle, "INSERT INTO lake.t VALUES (5002, 'kept')");
        execute(oracle, "COMMIT");
        try (MoraineCatalog catalog = MoraineCatalog.open(StoreUri.parse(store.toString()), OpenMode.READ_WRITE);
                RootAllocator allocator = new RootAllocator();
                VectorSchemaRoot gone = rows(catalog, allocator, List.of(5000, 5001), "gone");
                VectorSchemaRoot kept = rows(catalog, allocator, List.of(5002), "kept")) {
            WriteTransaction.begin(catalog, LocalFileSystem.INSTANCE)
                    .insertInlined("main", "t", gone)
                    .truncate("main", "t")
                    .insertInlined("main", "t", kept)
                    .commit();
        }
        compare();
    }

    private static VectorSchemaRoot rows(MoraineCatalog catalog, RootAllocator allocator, List<Integer> values, String text)
    {
        VectorSchemaRoot batch = VectorSchemaRoot.create(InlinedArrowSchema.of(columns(catalog)), allocator);
        IntVector a = (IntVector) batch.getVector("a");
        VarCharVector b = (VarCharVector) batch.getVector("b");
        a.allocateNew(values.size());
        b.allocateNew(values.size());
        for (int i = 0; i < values.size(); i++) {
            a.set(i, values.get(i));
            b.set(i, text.getBytes(StandardCharsets.UTF_8));
        }
        batch.setRowCount(values.size());
        return batch;
    }

    private void commit(Consumer<WriteTransaction> changes)
    {
        try (MoraineCatalog catalog = MoraineCatalog.open(StoreUri.parse(store.toString()), OpenMode.READ_WRITE)) {
            WriteTransaction transaction = WriteTransaction.begin(catalog, LocalFileSystem.INSTANCE);
            changes.accept(transaction);
            transaction.commit();
        }
    }

    private static List<TableColumn> columns(MoraineCatalog catalog)
    {
        try (CatalogSnapshot snapshot = catalog.at(catalog.headSnapshotId().orElseThrow())) {
            return snapshot.model().columns(snapshot.model().table("main", "t").orElseThrow()).columns();
        }
    }

    /**
     * The rows matching {@code where} in the moraine lake as an engine's scan names them: DuckDB's {@code filename} and
     * {@code file_row_number}, an inlined row by its row id.
     */
    private RowDeletes deletesOf(String where)
            throws Exception
    {
        RowDeletes deletes = RowDeletes.create();
        try (Connection moraine = moraine()) {
            for (List<String> row : query(moraine, "SELECT filename, file_row_number FROM lake.t WHERE " + where)) {
                long position = Long.parseLong(row.get(1));
                if (row.getFirst().startsWith("ducklake_inlined_data_")) {
                    deletes.inlinedRow(position);
                }
                else {
                    deletes.fileRow(row.getFirst(), position);
                }
            }
        }
        assertThat(deletes.isEmpty()).as(where).isFalse();
        return deletes;
    }

    /** The catalog rows of deletes, every snapshot of the table and the change feed, equal in both lakes. */
    private void compare()
            throws Exception
    {
        try (Connection moraine = moraine()) {
            long head = Long.parseLong(query(oracle, "SELECT max(snapshot_id) FROM lake_meta.ducklake_snapshot").getFirst().getFirst());
            same(moraine, "SELECT max(snapshot_id) FROM lake_meta.ducklake_snapshot");
            same(moraine, "SELECT snapshot_id, schema_version, next_catalog_id, next_file_id FROM lake_meta.ducklake_snapshot ORDER BY snapshot_id");
            same(moraine, "SELECT snapshot_id, changes_made FROM lake_meta.ducklake_snapshot_changes ORDER BY snapshot_id");
            same(moraine, "SELECT data_file_id, table_id, begin_snapshot, end_snapshot, record_count, row_id_start, partial_max "
                    + "FROM lake_meta.ducklake_data_file ORDER BY data_file_id");
            same(moraine, "SELECT delete_file_id, table_id, begin_snapshot, end_snapshot, data_file_id, regexp_matches(path, '^ducklake-[0-9a-f-]{36}-delete\\.parquet$'), "
                    + "path_is_relative, format, delete_count, footer_size > 0, encryption_key, partial_max FROM lake_meta.ducklake_delete_file ORDER BY delete_file_id");
            same(moraine, "SELECT data_file_id, regexp_replace(path, 'ducklake-[0-9a-f-]+-delete', 'ducklake-UUID-delete'), path_is_relative FROM lake_meta.ducklake_files_scheduled_for_deletion "
                    + "ORDER BY data_file_id");
            same(moraine, "SELECT table_id, record_count, next_row_id FROM lake_meta.ducklake_table_stats ORDER BY table_id");
            same(moraine, "SELECT data_file_id, table_id, column_id, value_count, null_count, min_value, max_value, contains_nan "
                    + "FROM lake_meta.ducklake_file_column_stats ORDER BY data_file_id, column_id");
            same(moraine, "SELECT * FROM lake_meta.ducklake_table_column_stats ORDER BY table_id, column_id");
            same(moraine, "SELECT file_id, row_id, begin_snapshot FROM lake_meta.ducklake_inlined_delete_1 ORDER BY ALL");
            same(moraine, "SELECT row_id, begin_snapshot, end_snapshot, a, b FROM lake_meta.ducklake_inlined_data_1_1 ORDER BY ALL");
            compareDeleteFileContents(moraine);
            for (long snapshot = 1; snapshot <= head; snapshot++) {
                same(moraine, "SELECT *, rowid FROM lake.t AT (VERSION => " + snapshot + ") ORDER BY rowid");
            }
            same(moraine, "SELECT snapshot_id, rowid, change_type, a, b FROM ducklake_table_changes('lake', 'main', 't', 0, " + head + ") ORDER BY ALL");
        }
    }

    private void compareDeleteFileContents(Connection moraine)
            throws Exception
    {
        String live = "SELECT path FROM lake_meta.ducklake_delete_file ORDER BY delete_file_id";
        List<List<String>> expected = query(oracle, live);
        List<List<String>> actual = query(moraine, live);
        assertThat(actual).hasSameSizeAs(expected);
        for (int i = 0; i < expected.size(); i++) {
            String oraclePath = oracleData.resolve("main/t").resolve(expected.get(i).getFirst()).toString();
            String morainePath = data.resolve("main/t").resolve(actual.get(i).getFirst()).toString();
            List<List<String>> schema = query(oracle, "SELECT name, type, field_id FROM parquet_schema('" + oraclePath + "')");
            assertThat(query(moraine, "SELECT name, type, field_id FROM parquet_schema('" + morainePath + "')")).as("schema of " + morainePath).isEqualTo(schema);
            String rows = "SELECT * EXCLUDE (file_path), regexp_replace(file_path, '^.*/', '') LIKE 'ducklake-%%.parquet' FROM read_parquet('%s') ORDER BY pos";
            assertThat(query(moraine, rows.formatted(morainePath))).as("rows of " + morainePath).isEqualTo(query(oracle, rows.formatted(oraclePath)));
            String dataFile = "SELECT DISTINCT regexp_replace(file_path, '^%s', '') FROM read_parquet('%s')";
            List<List<String>> moraineTarget = query(moraine, dataFile.formatted(data + "/main/t/", morainePath));
            List<List<String>> oracleTarget = query(oracle, dataFile.formatted(oracleData + "/main/t/", oraclePath));
            assertThat(moraineTarget).hasSize(1);
            assertThat(oracleTarget).hasSize(1);
            // the delete file names its data file by full path: the same file (by data_file_id) in each lake
            assertThat(query(moraine, "SELECT data_file_id FROM lake_meta.ducklake_data_file WHERE path = '" + moraineTarget.getFirst().getFirst() + "'"))
                    .isEqualTo(query(oracle, "SELECT data_file_id FROM lake_meta.ducklake_data_file WHERE path = '" + oracleTarget.getFirst().getFirst() + "'"));
            comparisons += 4;
        }
    }

    private void same(Connection moraine, String sql)
            throws Exception
    {
        List<List<String>> expected = query(oracle, sql);
        assertThat(query(moraine, sql)).as(sql).isEqualTo(expected);
        comparisons++;
    }
}
