package io.moraine.inline.flush;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.inline.read.InlineReader;
import io.moraine.core.inline.read.InlineScan;
import io.moraine.core.inline.read.InlineSelection;
import io.moraine.core.row.Row;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreUri;
import io.moraine.importer.OracleImports;
import io.moraine.testing.DuckLakeOracle;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** The Java flush writes the rows, hidden columns and field ids DuckLake's own flush writes, and drains the chunks. */
class InlineFlushTest
{
    private static final List<String> WORKLOAD = List.of(
            "CREATE TABLE lake.t (id INTEGER, name VARCHAR, amount DECIMAL(10, 2), ts TIMESTAMPTZ, tags VARCHAR[], "
                    + "point STRUCT(x DOUBLE, y DOUBLE), attrs MAP(VARCHAR, BIGINT), uid UUID, data BLOB, d DATE, big HUGEINT)",
            "INSERT INTO lake.t VALUES (1, 'one', 1.50, TIMESTAMPTZ '2026-03-01 12:00:00+00', ['a', NULL, 'b'], {'x': 1, 'y': 2}, "
                    + "MAP {'k': 1, 'l': NULL}, '11111111-1111-1111-1111-111111111111', '\\x01\\x02'::BLOB, DATE '2026-01-02', 12345678901234567890), "
                    + "(2, 'two', NULL, NULL, [], NULL, MAP {}, NULL, NULL, NULL, NULL), (3, NULL, 3.00, NULL, NULL, {'x': 3, 'y': NULL}, NULL, NULL, NULL, NULL, -1)",
            "INSERT INTO lake.t (id, name) VALUES (4, 'four'), (5, 'five')",
            "DELETE FROM lake.t WHERE id = 2",
            "UPDATE lake.t SET name = 'THREE' WHERE id = 3",
            "ALTER TABLE lake.t ADD COLUMN extra INTEGER",
            "INSERT INTO lake.t (id, name, extra) VALUES (6, 'six', 60), (7, 'seven', 70)",
            "DELETE FROM lake.t WHERE id = 6");

    @TempDir
    Path temp;

    @Test
    void flushedFilesMatchDuckLakesOwnFlush()
            throws Exception
    {
        StoreUri store = StoreUri.parse(temp.resolve("store").toString());
        try (DuckLakeOracle oracle = DuckLakeOracle.create(temp.resolve("lake"), DuckLakeOracle.CatalogDatabase.DUCKDB)) {
            for (String step : WORKLOAD) {
                oracle.execute(step);
            }
            OracleImports.importInto(oracle, temp.resolve("copy.ducklake"), store);

            long flushSnapshot;
            List<InlineFlusher.FlushedFile> ours;
            List<String> ourDeletions = new java.util.ArrayList<>();
            try (MoraineCatalog catalog = MoraineCatalog.open(store, OpenMode.READ_WRITE)) {
                flushSnapshot = catalog.headSnapshotId().orElseThrow();
                ours = InlineFlusher.flush(catalog, Optional.empty(), TestLakeFiles.FILES);
                assertThat(ours).hasSize(2);
                assertThat(catalog.headSnapshotId()).hasValue(flushSnapshot + 1);
                try (CatalogSnapshot after = catalog.latest(); RootAllocator allocator = new RootAllocator();
                        InlineScan scan = InlineReader.scan(after.reader(), 1, new InlineSelection.ForFlush(Long.MAX_VALUE), Optional.empty(), 100, allocator)) {
                    assertThat(scan.selectedRows()).as("inline rows left after the flush").isZero();
                    List<Row> files = after.dataFiles(1).toList();
                    assertThat(files).hasSize(2);
                    assertThat(files).allSatisfy(file -> {
                        assertThat(file.getLong("begin_snapshot")).isLessThan(flushSnapshot);
                        assertThat(file.getLong("partial_max")).isNotNull();
                    });
                    for (Row deleteFile : after.deleteFiles(1).toList()) {
                        Row dataFile = files.stream().filter(f -> f.getLong("data_file_id").equals(deleteFile.getLong("data_file_id"))).findFirst().orElseThrow();
                        ourDeletions.addAll(deletedVersions(oracle, oracle.dataPath().resolve("main/t/" + dataFile.getString("path")).toString(),
                                oracle.dataPath().resolve("main/t/" + deleteFile.getString("path")).toString()));
                    }
                    assertThat(ourDeletions).isNotEmpty();
                    assertThat(after.inlinedDataTables(1)).extracting(row -> row.getLong("schema_version")).containsExactly(2L);
                }
            }

            oracle.execute("CALL ducklake_flush_inlined_data('lake')");
            List<String> theirs = oracle.query("SELECT path FROM __ducklake_metadata_lake.ducklake_data_file WHERE table_id = 1 "
                    + "AND partial_max IS NOT NULL").stream().map(List::getFirst).toList();
            assertThat(theirs).hasSize(2);
            List<String> theirDeletions = new java.util.ArrayList<>();
            for (List<String> pair : oracle.query("SELECT data.path, del.path FROM __ducklake_metadata_lake.ducklake_delete_file del "
                    + "JOIN __ducklake_metadata_lake.ducklake_data_file data USING (data_file_id) WHERE data.partial_max IS NOT NULL AND data.table_id = 1")) {
                theirDeletions.addAll(deletedVersions(oracle, oracle.dataPath().resolve("main/t/" + pair.get(0)).toString(),
                        oracle.dataPath().resolve("main/t/" + pair.get(1)).toString()));
            }
            assertThat(ourDeletions).as("(row id, begin, end) of the rows the delete files delete").containsExactlyInAnyOrderElementsOf(theirDeletions);
            for (InlineFlusher.FlushedFile file : ours) {
                String ourFile = file.dataFile().toString();
                String columns = oracle.query("SELECT string_agg(name || ':' || coalesce(field_id::VARCHAR, '-'), ',' ORDER BY name) "
                        + "FROM parquet_schema('" + ourFile + "')").getFirst().getFirst();
                String match = theirs.stream().map(path -> oracle.dataPath().resolve("main/t/" + path).toString())
                        .filter(path -> columnsOf(oracle, path).equals(columns))
                        .findFirst()
                        .orElseThrow(() -> new AssertionError("no DuckLake flush output has our schema and field ids " + columns));
                assertThat(count(oracle, "SELECT * FROM read_parquet('" + ourFile + "') EXCEPT ALL SELECT * FROM read_parquet('" + match + "')")).isZero();
                assertThat(count(oracle, "SELECT * FROM read_parquet('" + match + "') EXCEPT ALL SELECT * FROM read_parquet('" + ourFile + "')")).isZero();
                assertThat(count(oracle, "SELECT * FROM read_parquet('" + ourFile + "')")).isEqualTo(file.rows());
            }
        }
    }

    @Test
    void flushedFilesCarryTheColumnStatisticsDuckLakesFlushWrites()
            throws Exception
    {
        StoreUri store = StoreUri.parse(temp.resolve("stats-store").toString());
        try (DuckLakeOracle oracle = DuckLakeOracle.create(temp.resolve("stats-lake"), DuckLakeOracle.CatalogDatabase.DUCKDB)) {
            oracle.execute("CREATE TABLE lake.s (i INTEGER, b BIGINT, f FLOAT, d DOUBLE, v VARCHAR, dt DATE, ts TIMESTAMP, tz TIMESTAMPTZ, m DECIMAL(10, 2), "
                    + "big DECIMAL(30, 3), ok BOOLEAN, t TIME, u UUID, ub UBIGINT, ti TINYINT, us USMALLINT, l INTEGER[])");
            oracle.execute("INSERT INTO lake.s VALUES (1, -5, 1.5, 2.25, 'pear', DATE '2026-01-02', TIMESTAMP '2026-01-02 03:04:05.123456', "
                    + "TIMESTAMPTZ '2026-01-02 03:04:05+00', 1.50, 12345.678, true, TIME '01:02:03.25', '11111111-1111-1111-1111-111111111111', "
                    + "18446744073709551615, -7, 65535, [1, 2])");
            oracle.execute("INSERT INTO lake.s VALUES (NULL, 7, 'NaN', -0.5, 'apple', DATE '2025-12-31', TIMESTAMP '2026-01-02 00:00:00.5', NULL, -2.00, NULL, "
                    + "false, NULL, NULL, 0, 100, 0, NULL), (3, NULL, NULL, NULL, 'Zebra', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, [5])");
            OracleImports.importInto(oracle, temp.resolve("stats-copy.ducklake"), store);
            java.util.Map<String, List<Object>> ours = new java.util.TreeMap<>();
            try (MoraineCatalog catalog = MoraineCatalog.open(store, OpenMode.READ_WRITE)) {
                InlineFlusher.flush(catalog, Optional.empty(), TestLakeFiles.FILES);
                try (CatalogSnapshot after = catalog.latest()) {
                    java.util.Map<Long, String> names = new java.util.HashMap<>();
                    after.columns(1).forEach(column -> names.put(column.getLong("column_id"), column.getString("column_name")));
                    for (Row stats : after.fileColumnStats(1).toList()) {
                        assertThat(stats.getLong("column_size_bytes")).isPositive();
                        ours.put(names.get(stats.getLong("column_id")), statsOf(stats.getLong("value_count"), stats.getLong("null_count"),
                                stats.getString("min_value"), stats.getString("max_value"), (Boolean) stats.get("contains_nan")));
                    }
                }
            }
            oracle.execute("CALL ducklake_flush_inlined_data('lake')");
            java.util.Map<String, List<Object>> theirs = new java.util.TreeMap<>();
            for (List<String> row : oracle.query("SELECT c.column_name, s.value_count, s.null_count, s.min_value, s.max_value, s.contains_nan "
                    + "FROM __ducklake_metadata_lake.ducklake_file_column_stats s JOIN __ducklake_metadata_lake.ducklake_column c USING (column_id)")) {
                theirs.put(row.get(0), statsOf(Long.parseLong(row.get(1)), Long.parseLong(row.get(2)), row.get(3), row.get(4),
                        row.get(5) == null ? null : Boolean.parseBoolean(row.get(5))));
            }
            assertThat(ours).isEqualTo(theirs);
        }
    }

    @Test
    void flushedFilesCarryTheNestedLeafStatisticsDuckLakesFlushWrites()
            throws Exception
    {
        StoreUri store = StoreUri.parse(temp.resolve("nested-store").toString());
        try (DuckLakeOracle oracle = DuckLakeOracle.create(temp.resolve("nested-lake"), DuckLakeOracle.CatalogDatabase.DUCKDB)) {
            oracle.execute("CREATE TABLE lake.n (id INTEGER, s STRUCT(a INTEGER, b VARCHAR), l INTEGER[], fl DOUBLE[], m MAP(VARCHAR, INTEGER), "
                    + "sl STRUCT(name VARCHAR, xs INTEGER[]), ls STRUCT(p INTEGER, q FLOAT)[], ll INTEGER[][], ss STRUCT(deep STRUCT(z DATE)), "
                    + "lss STRUCT(o STRUCT(k BIGINT), w UUID)[], ms MAP(INTEGER, STRUCT(c VARCHAR))) ");
            oracle.execute("INSERT INTO lake.n VALUES "
                    + "(1, {'a': 5, 'b': 'kiwi'}, [3, NULL, 1], [1.5, 'NaN'::DOUBLE], MAP {'k': 1, 'j': NULL}, {'name': 'x', 'xs': [7, 8]}, "
                    + "[{'p': 1, 'q': 0.5}, NULL, {'p': NULL::INTEGER, 'q': 'NaN'::FLOAT}], [[1, 2], [], NULL, [NULL]], {'deep': {'z': DATE '2026-01-02'}}, "
                    + "[{'o': {'k': 3}, 'w': '11111111-1111-1111-1111-111111111111'}, {'o': NULL, 'w': NULL}, NULL], MAP {1: {'c': 'u'}, 2: NULL}), "
                    + "(2, NULL, [], [], MAP {}, NULL, [], [], NULL, [], MAP {}), "
                    + "(3, {'a': NULL, 'b': NULL}, NULL, NULL, NULL, {'name': NULL, 'xs': NULL}, NULL, NULL, {'deep': NULL}, NULL, NULL), "
                    + "(4, {'a': -2, 'b': 'apple'}, [NULL], [-0.25], MAP {'a': 9}, {'name': 'y', 'xs': []}, [{'p': 4, 'q': -1}], [[9]], "
                    + "{'deep': {'z': NULL}}, [{'o': {'k': NULL}, 'w': NULL}], MAP {3: {'c': NULL}})");
            // Only NULL structs inside lists: DuckDB counts each such NULL twice for the struct's leaves.
            oracle.execute("CREATE TABLE lake.z (ls STRUCT(p INTEGER)[])");
            oracle.execute("INSERT INTO lake.z VALUES ([NULL]), ([NULL, NULL])");
            OracleImports.importInto(oracle, temp.resolve("nested-copy.ducklake"), store);
            java.util.Map<String, String> paths = new java.util.HashMap<>();
            for (List<String> column : oracle.query("WITH RECURSIVE p(table_id, column_id, path) AS (SELECT c.table_id, c.column_id, t.table_name || '.' || c.column_name "
                    + "FROM __ducklake_metadata_lake.ducklake_column c JOIN __ducklake_metadata_lake.ducklake_table t USING (table_id) WHERE c.parent_column IS NULL "
                    + "UNION ALL SELECT c.table_id, c.column_id, p.path || '.' || c.column_name FROM __ducklake_metadata_lake.ducklake_column c "
                    + "JOIN p ON c.parent_column = p.column_id AND c.table_id = p.table_id) SELECT table_id, column_id, path FROM p")) {
                paths.put(column.get(0) + "/" + column.get(1), column.get(2));
            }
            List<Long> tables = oracle.query("SELECT table_id FROM __ducklake_metadata_lake.ducklake_table").stream().map(row -> Long.parseLong(row.getFirst())).toList();
            java.util.Map<String, List<Object>> ours = new java.util.TreeMap<>();
            try (MoraineCatalog catalog = MoraineCatalog.open(store, OpenMode.READ_WRITE)) {
                InlineFlusher.flush(catalog, Optional.empty(), TestLakeFiles.FILES);
                try (CatalogSnapshot after = catalog.latest()) {
                    for (long table : tables) {
                        for (Row stats : after.fileColumnStats(table).toList()) {
                            String path = paths.get(table + "/" + stats.getLong("column_id"));
                            assertThat(stats.getLong("column_size_bytes")).as("size of " + path).isPositive();
                            ours.put(path, statsOf(stats.getLong("value_count"), stats.getLong("null_count"), stats.getString("min_value"),
                                    stats.getString("max_value"), (Boolean) stats.get("contains_nan")));
                        }
                    }
                }
            }
            oracle.execute("CALL ducklake_flush_inlined_data('lake')");
            java.util.Map<String, List<Object>> theirs = new java.util.TreeMap<>();
            for (List<String> row : oracle.query("SELECT table_id, column_id, value_count, null_count, min_value, max_value, contains_nan "
                    + "FROM __ducklake_metadata_lake.ducklake_file_column_stats")) {
                theirs.put(paths.get(row.get(0) + "/" + row.get(1)), statsOf(count(row.get(2)), count(row.get(3)), row.get(4), row.get(5),
                        row.get(6) == null ? null : Boolean.parseBoolean(row.get(6))));
            }
            assertThat(ours).isEqualTo(theirs);
        }
    }

    @Test
    void aDrainWhoseChunksHoldOtherRowIdsThanTheFlushWroteIsRefusedAsCorruption()
            throws Exception
    {
        StoreUri store = StoreUri.parse(temp.resolve("multiset-store").toString());
        try (DuckLakeOracle oracle = DuckLakeOracle.create(temp.resolve("multiset-lake"), DuckLakeOracle.CatalogDatabase.DUCKDB)) {
            oracle.execute("CREATE TABLE lake.r (a INTEGER)");
            oracle.execute("INSERT INTO lake.r VALUES (1), (2), (3)");
            oracle.execute("UPDATE lake.r SET a = 20 WHERE a = 2"); // re-inlines row id 1: the multiset holds it twice
            OracleImports.importInto(oracle, temp.resolve("multiset-copy.ducklake"), store);
        }
        try (MoraineCatalog catalog = MoraineCatalog.open(store, OpenMode.READ_WRITE)) {
            long head = catalog.headSnapshotId().orElseThrow();
            long version;
            Row headRow;
            try (CatalogSnapshot snapshot = catalog.latest()) {
                version = snapshot.inlinedDataTables(1).getFirst().getLong("schema_version");
                headRow = snapshot.snapshotRow();
            }
            io.moraine.core.inline.RowIdMultiset missingTheUpdate = new io.moraine.core.inline.RowIdMultiset().add(0).add(1).add(2);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> catalog.begin(head)
                            .insert(io.moraine.core.catalog.SnapshotRows.next(headRow, 0, 0, 0))
                            .drainInlined(1, version, head, missingTheUpdate)
                            .commit())
                    .isInstanceOf(io.moraine.core.error.CorruptionException.class)
                    .hasMessageContaining("wrote 3 row ids")
                    .hasMessageContaining("hold 4 row ids")
                    .hasMessageContaining("nothing was committed");
            assertThat(catalog.headSnapshotId()).hasValue(head);
            try (CatalogSnapshot after = catalog.latest(); RootAllocator allocator = new RootAllocator();
                    InlineScan scan = InlineReader.scan(after.reader(), 1, new InlineSelection.ForFlush(Long.MAX_VALUE), Optional.empty(), 100, allocator)) {
                assertThat(scan.selectedRows()).as("every inlined row version is still there").isEqualTo(4);
            }
            // The real flush states the row ids it wrote, {0, 1, 1, 2}, and commits.
            assertThat(InlineFlusher.flush(catalog, Optional.empty(), TestLakeFiles.FILES)).singleElement().satisfies(file -> assertThat(file.rows()).isEqualTo(4));
            assertThat(catalog.headSnapshotId()).hasValue(head + 1);
        }
    }

    /** Stats as comparable values: floats compared as numbers, since Java and DuckDB print some doubles differently. */
    private static Long count(String text)
    {
        return text == null ? null : Long.parseLong(text);
    }

    private static List<Object> statsOf(Long values, Long nulls, String min, String max, Boolean containsNan)
    {
        java.util.function.Function<String, Object> value = text -> {
            if (text == null) {
                return "NULL";
            }
            try {
                return text.matches("-?[0-9.]+(e[-+]?[0-9]+)?") && text.contains(".") ? (Object) new java.math.BigDecimal(text).stripTrailingZeros() : text;
            }
            catch (NumberFormatException e) {
                return text;
            }
        };
        return java.util.Arrays.asList(values, nulls, value.apply(min), value.apply(max), containsNan == null ? "NULL" : containsNan);
    }

    @Test
    void inlinedFileDeletesBecomeTheCumulativeDeleteFilesDuckLakeWrites()
            throws Exception
    {
        StoreUri store = StoreUri.parse(temp.resolve("deletes-store").toString());
        try (DuckLakeOracle oracle = DuckLakeOracle.create(temp.resolve("deletes-lake"), DuckLakeOracle.CatalogDatabase.DUCKDB)) {
            oracle.execute("CREATE TABLE lake.p (a INTEGER, b VARCHAR)");
            oracle.execute("INSERT INTO lake.p SELECT i, 'b' || i FROM range(2000) t(i)");
            oracle.execute("DELETE FROM lake.p WHERE a < 100");
            oracle.execute("DELETE FROM lake.p WHERE a IN (500, 501)");
            oracle.execute("DELETE FROM lake.p WHERE a = 1999");
            oracle.execute("CREATE TABLE lake.q (a INTEGER)");
            oracle.execute("INSERT INTO lake.q SELECT range FROM range(1000)");
            oracle.execute("DELETE FROM lake.q WHERE a IN (7, 8)");
            OracleImports.importInto(oracle, temp.resolve("deletes-copy.ducklake"), store);

            java.util.Set<String> ours = new java.util.TreeSet<>();
            try (MoraineCatalog catalog = MoraineCatalog.open(store, OpenMode.READ_WRITE)) {
                InlineFlusher.flush(catalog, Optional.empty(), TestLakeFiles.FILES);
                try (CatalogSnapshot after = catalog.latest()) {
                    assertThat(after.snapshotRow().getLong("snapshot_id")).isEqualTo(catalog.headSnapshotId().orElseThrow());
                    for (long table : List.of(1L, 2L)) {
                        String directory = table == 1 ? "main/p/" : "main/q/";
                        for (Row deleteFile : after.deleteFiles(table).toList()) {
                            ours.addAll(deletions(oracle, deleteFile.getLong("data_file_id"), oracle.dataPath().resolve(directory + deleteFile.getString("path")).toString()));
                        }
                    }
                    assertThat(io.moraine.core.scan.InlinedFileDeletes.positionsAt(after.reader(), 1, Long.MAX_VALUE)).isEmpty();
                    assertThat(io.moraine.core.scan.InlinedFileDeletes.positionsAt(after.reader(), 2, Long.MAX_VALUE)).isEmpty();
                    assertThat(catalog.scan(io.moraine.core.row.TableKind.FILES_SCHEDULED_FOR_DELETION, io.moraine.core.catalog.RowScope.ALL).toList())
                            .as("the replaced delete file is scheduled for deletion").hasSize(1);
                }
            }

            oracle.execute("CALL ducklake_flush_inlined_data('lake')");
            java.util.Set<String> theirs = new java.util.TreeSet<>();
            for (List<String> file : oracle.query("SELECT del.data_file_id, CASE WHEN del.table_id = 1 THEN 'main/p/' ELSE 'main/q/' END || del.path "
                    + "FROM __ducklake_metadata_lake.ducklake_delete_file del WHERE del.end_snapshot IS NULL")) {
                theirs.addAll(deletions(oracle, Long.parseLong(file.get(0)), oracle.dataPath().resolve(file.get(1)).toString()));
            }
            assertThat(ours).as("file:position@snapshot of every deleted row").isEqualTo(theirs).hasSize(105);
        }
    }

    private static List<String> deletions(DuckLakeOracle oracle, long dataFileId, String deleteFile)
            throws java.sql.SQLException
    {
        return oracle.query("SELECT '" + dataFileId + ":' || pos || '@' || _ducklake_internal_snapshot_id FROM read_parquet('" + deleteFile + "')")
                .stream().map(List::getFirst).toList();
    }

    /** The versions a delete file deletes from its data file, as "row_id/begin/end". */
    private static List<String> deletedVersions(DuckLakeOracle oracle, String dataFile, String deleteFile)
            throws java.sql.SQLException
    {
        return oracle.query("SELECT f._ducklake_internal_row_id || '/' || f._ducklake_internal_snapshot_id || '/' || d._ducklake_internal_snapshot_id "
                + "FROM read_parquet('" + dataFile + "', file_row_number = true) f JOIN read_parquet('" + deleteFile + "') d ON d.pos = f.file_row_number")
                .stream().map(List::getFirst).toList();
    }

    private static String columnsOf(DuckLakeOracle oracle, String path)
    {
        try {
            return oracle.query("SELECT string_agg(name || ':' || coalesce(field_id::VARCHAR, '-'), ',' ORDER BY name) FROM parquet_schema('"
                    + path + "')").getFirst().getFirst();
        }
        catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static long count(DuckLakeOracle oracle, String sql)
            throws Exception
    {
        return Long.parseLong(oracle.query("SELECT count(*) FROM (" + sql + ")").getFirst().getFirst());
    }
}
