package io.moraine.inline.flush;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.row.Row;
import io.moraine.core.catalog.RowCursor;
import io.moraine.core.error.UnsupportedFeatureException;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreUri;
import io.moraine.importer.OracleImports;
import io.moraine.testing.DuckLakeOracle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The Java flush of partitioned and sorted tables writes the files DuckLake's own flush writes: per partition value
 * tuple the same hive directory, partition values, rows and deleted row versions, and for sorted tables the same row
 * order; and DuckDB reading our flushed files sees the table's contents.
 */
class InlineFlushPartitionedTest
{
    @TempDir
    Path temp;

    @Test
    void identityPartitionsWithNullsAndEscapedStrings()
            throws Exception
    {
        compareFlushes("ident", List.of(
                "CREATE TABLE lake.ident (id INTEGER, region VARCHAR, v INTEGER)",
                "ALTER TABLE lake.ident SET PARTITIONED BY (region)",
                "INSERT INTO lake.ident VALUES (1, 'eu', 10), (2, 'us west/2=%é~-_.:+', 20), (3, NULL, 30), (4, 'eu', 40)",
                "INSERT INTO lake.ident VALUES (5, NULL, 50), (6, 'us west/2=%é~-_.:+', 60)",
                "DELETE FROM lake.ident WHERE id IN (1, 5)",
                "UPDATE lake.ident SET region = 'eu' WHERE id = 3"), false);
    }

    @Test
    void calendarTransformsOfTimestampsAndDates()
            throws Exception
    {
        compareFlushes("temporal", List.of(
                "CREATE TABLE lake.temporal (id INTEGER, ts TIMESTAMP, tz TIMESTAMPTZ, d DATE)",
                "ALTER TABLE lake.temporal SET PARTITIONED BY (year(ts), month(ts), day(tz), hour(tz), year(d))",
                "INSERT INTO lake.temporal VALUES (1, TIMESTAMP '2025-01-31 23:59:59.5', TIMESTAMPTZ '2025-01-31 23:30:00+00', DATE '2024-02-29'), "
                        + "(2, TIMESTAMP '2025-01-01 00:00:00', TIMESTAMPTZ '2025-01-31 23:45:00+00', DATE '2024-12-31'), "
                        + "(3, TIMESTAMP '1969-12-31 23:00:00', TIMESTAMPTZ '1969-12-31 22:59:59.999999+00', DATE '1969-07-20'), "
                        + "(4, NULL, NULL, NULL), (5, TIMESTAMP '2025-02-01 00:00:00', TIMESTAMPTZ '2025-02-01 00:00:00+00', DATE '2025-02-01')",
                "DELETE FROM lake.temporal WHERE id = 2",
                "UPDATE lake.temporal SET tz = TIMESTAMPTZ '2026-06-15 13:00:00+00' WHERE id = 1"), false);
    }

    @Test
    void bucketPartitions()
            throws Exception
    {
        compareFlushes("buck", List.of(
                "CREATE TABLE lake.buck (id BIGINT, name VARCHAR, small INTEGER, d DATE, ts TIMESTAMP)",
                "ALTER TABLE lake.buck SET PARTITIONED BY (bucket(4, id), bucket(3, name), bucket(2, small), bucket(3, d), bucket(5, ts))",
                "INSERT INTO lake.buck VALUES (1, 'apple', -1, DATE '2025-03-04', TIMESTAMP '2025-03-04 05:06:07'), (2, 'pear', 7, DATE '1970-01-01', NULL), "
                        + "(-3, 'zebra', 123456, NULL, TIMESTAMP '1999-12-31 23:59:59.999999'), (4, NULL, NULL, DATE '2000-01-01', TIMESTAMP '2000-01-01 00:00:00')",
                "INSERT INTO lake.buck VALUES (5, 'kiwi', 5, DATE '2025-03-05', TIMESTAMP '2025-03-05 00:00:00'), (6, 'apple', -1, DATE '2025-03-04', TIMESTAMP '2025-03-04 05:06:07')",
                "DELETE FROM lake.buck WHERE id = 2",
                "UPDATE lake.buck SET name = 'fig' WHERE id = 5"), false);
    }

    @Test
    void partitioningChangedBetweenInserts()
            throws Exception
    {
        compareFlushes("evolve", List.of(
                "CREATE TABLE lake.evolve (id INTEGER, cat VARCHAR, n INTEGER)",
                "ALTER TABLE lake.evolve SET PARTITIONED BY (cat)",
                "INSERT INTO lake.evolve VALUES (1, 'a', 1), (2, 'b', 2), (3, 'a', 3)",
                "ALTER TABLE lake.evolve SET PARTITIONED BY (bucket(2, n))",
                "INSERT INTO lake.evolve VALUES (4, 'a', 4), (5, 'c', 5), (6, NULL, NULL)",
                "DELETE FROM lake.evolve WHERE id IN (2, 5)"), false);
    }

    @Test
    void sortedTableRowsAndDeletePositionsFollowTheCurrentSortOrder()
            throws Exception
    {
        compareFlushes("srt", List.of(
                "CREATE TABLE lake.srt (id INTEGER, name VARCHAR, score INTEGER)",
                "INSERT INTO lake.srt VALUES (1, 'b', 5), (2, NULL, 1), (3, 'a', NULL), (4, 'b', 2), (5, 'Z', 9)",
                "INSERT INTO lake.srt VALUES (6, 'b', 5), (7, NULL, NULL), (8, 'é', 3), (9, 'a', 7)",
                "DELETE FROM lake.srt WHERE id IN (4, 7)",
                "UPDATE lake.srt SET score = 0 WHERE id = 1",
                "UPDATE lake.srt SET name = 'c' WHERE id = 9",
                "ALTER TABLE lake.srt SET SORTED BY (name DESC NULLS FIRST, \"score\" ASC NULLS LAST)"), true);
    }

    @Test
    void sortedAndPartitionedTable()
            throws Exception
    {
        compareFlushes("both", List.of(
                "CREATE TABLE lake.both (id INTEGER, grp VARCHAR, score INTEGER)",
                "ALTER TABLE lake.both SET PARTITIONED BY (grp)",
                "ALTER TABLE lake.both SET SORTED BY (score DESC NULLS LAST)",
                "INSERT INTO lake.both VALUES (1, 'x', 5), (2, 'y', 1), (3, 'x', NULL), (4, 'x', 9), (5, 'y', 7)",
                "INSERT INTO lake.both VALUES (6, 'x', 6), (7, 'y', 2)",
                "DELETE FROM lake.both WHERE id IN (4, 2)",
                "UPDATE lake.both SET score = 0 WHERE id = 6"), true);
    }

    @Test
    void filesGoToTheTableDirectoryWhenHiveFilePatternIsOff()
            throws Exception
    {
        // DuckLake 1.5.5's flush ignores the option (fixed upstream by "fix: add hive_file_pattern option to flush"),
        // so only the directories are not compared with its output.
        Map<String, FlushedFile> ours = compareFlushes("flat", List.of(
                "CREATE TABLE lake.flat (id INTEGER, region VARCHAR)",
                "CALL lake.set_option('hive_file_pattern', false, table_name => 'flat')",
                "ALTER TABLE lake.flat SET PARTITIONED BY (region)",
                "INSERT INTO lake.flat VALUES (1, 'eu'), (2, 'us'), (3, 'eu')"), false, false);
        assertThat(ours).hasSize(2).allSatisfy((key, file) -> assertThat(file.directory()).isEmpty());
    }

    @Test
    void aSortExpressionThatIsNotAColumnNameIsRefused()
            throws Exception
    {
        StoreUri store = StoreUri.parse(temp.resolve("expr-store").toString());
        try (DuckLakeOracle oracle = DuckLakeOracle.create(temp.resolve("expr-lake"), DuckLakeOracle.CatalogDatabase.DUCKDB)) {
            oracle.execute("CREATE TABLE lake.e (id INTEGER, name VARCHAR)");
            oracle.execute("INSERT INTO lake.e VALUES (1, 'B'), (2, 'a')");
            oracle.execute("ALTER TABLE lake.e SET SORTED BY (lower(name) ASC)");
            OracleImports.importInto(oracle, temp.resolve("expr-copy.ducklake"), store);
        }
        try (MoraineCatalog catalog = MoraineCatalog.open(store, OpenMode.READ_WRITE)) {
            long head = catalog.headSnapshotId().orElseThrow();
            assertThatThrownBy(() -> InlineFlusher.flush(catalog, Optional.empty(), TestLakeFiles.FILES))
                    .isInstanceOf(UnsupportedFeatureException.class)
                    .hasMessageContaining("lower(\"name\")")
                    .hasMessageContaining("CALL ducklake_flush_inlined_data");
            assertThat(catalog.headSnapshotId()).hasValue(head);
        }
    }

    /** One flushed data file, keyed by its partition spec and value tuple. */
    private record FlushedFile(String directory, String dataFile, String deleteFile, Map<Long, String> stats) {}

    private void compareFlushes(String table, List<String> workload, boolean compareRowOrder)
            throws Exception
    {
        compareFlushes(table, workload, compareRowOrder, true);
    }

    /** Returns our flushed files by partition spec and value tuple. */
    private Map<String, FlushedFile> compareFlushes(String table, List<String> workload, boolean compareRowOrder, boolean compareDirectories)
            throws Exception
    {
        StoreUri store = StoreUri.parse(temp.resolve(table + "-store").toString());
        try (DuckLakeOracle oracle = DuckLakeOracle.create(temp.resolve(table + "-lake"), DuckLakeOracle.CatalogDatabase.DUCKDB)) {
            for (String step : workload) {
                oracle.execute(step);
            }
            long tableId = Long.parseLong(oracle.query("SELECT table_id FROM __ducklake_metadata_lake.ducklake_table WHERE table_name = '"
                    + table + "' AND end_snapshot IS NULL").getFirst().getFirst());
            Path tableDirectory = oracle.dataPath().resolve("main/" + table);
            OracleImports.importInto(oracle, temp.resolve(table + "-copy.ducklake"), store);

            Map<String, FlushedFile> ours = new TreeMap<>();
            try (MoraineCatalog catalog = MoraineCatalog.open(store, OpenMode.READ_WRITE)) {
                assertThat(InlineFlusher.flush(catalog, Optional.empty(), TestLakeFiles.FILES)).isNotEmpty();
                try (CatalogSnapshot after = catalog.latest()) {
                    Map<Long, TreeMap<Long, String>> values = new HashMap<>();
                    try (RowCursor rows = after.filePartitionValues(tableId)) {
                        rows.forEachRemaining(row -> values.computeIfAbsent(row.getLong("data_file_id"), id -> new TreeMap<>())
                                .put(row.getLong("partition_key_index"), row.getString("partition_value")));
                    }
                    Map<Long, String> deletes = new HashMap<>();
                    after.deleteFiles(tableId).forEachRemaining(row -> deletes.put(row.getLong("data_file_id"), row.getString("path")));
                    Map<Long, Map<Long, String>> stats = new HashMap<>();
                    try (RowCursor rows = after.fileColumnStats(tableId)) {
                        rows.forEachRemaining(row -> stats.computeIfAbsent(row.getLong("data_file_id"), id -> new TreeMap<>()).put(row.getLong("column_id"),
                                row.getLong("value_count") + "/" + row.getLong("null_count") + "/" + row.getString("min_value") + "/" + row.getString("max_value")));
                    }
                    for (Row file : after.dataFiles(tableId).toList()) {
                        long id = file.getLong("data_file_id");
                        List<String> tuple = new ArrayList<>(values.getOrDefault(id, new TreeMap<>()).values());
                        String key = file.get("partition_id") + ":" + String.join("|", tuple.stream().map(v -> v == null ? "<NULL>" : v).toList());
                        assertThat(ours).as("one file per partition value tuple").doesNotContainKey(key);
                        ours.put(key, flushedFile(tableDirectory, file.getString("path"), deletes.get(id), stats.getOrDefault(id, Map.of())));
                    }
                }
            }
            List<List<String>> expectedContents = oracle.query("SELECT count(*) FROM lake." + table);

            oracle.execute("CALL ducklake_flush_inlined_data('lake')");
            Map<String, FlushedFile> theirs = new TreeMap<>();
            for (List<String> row : oracle.query("SELECT d.partition_id, (SELECT coalesce(string_agg(coalesce(v.partition_value, '<NULL>'), '|' "
                    + "ORDER BY v.partition_key_index), '') FROM __ducklake_metadata_lake.ducklake_file_partition_value v WHERE v.data_file_id = d.data_file_id), "
                    + "d.path, del.path FROM __ducklake_metadata_lake.ducklake_data_file d LEFT JOIN __ducklake_metadata_lake.ducklake_delete_file del "
                    + "ON del.data_file_id = d.data_file_id AND del.end_snapshot IS NULL WHERE d.table_id = " + tableId + " AND d.end_snapshot IS NULL")) {
                Map<Long, String> stats = new TreeMap<>();
                for (List<String> stat : oracle.query("SELECT s.column_id, s.value_count || '/' || s.null_count || '/' || coalesce(s.min_value, 'null') || '/' "
                        + "|| coalesce(s.max_value, 'null') FROM __ducklake_metadata_lake.ducklake_file_column_stats s JOIN __ducklake_metadata_lake.ducklake_data_file d "
                        + "USING (data_file_id) WHERE d.table_id = " + tableId + " AND d.path = '" + row.get(2).replace("'", "''") + "'")) {
                    stats.put(Long.parseLong(stat.get(0)), stat.get(1));
                }
                theirs.put(row.get(0) + ":" + row.get(1), flushedFile(tableDirectory, row.get(2), row.get(3), stats));
            }
            assertThat(ours.keySet()).as("partition spec and value tuple of each flushed file").isEqualTo(theirs.keySet());
            long deletedTotal = 0;
            for (Map.Entry<String, FlushedFile> entry : ours.entrySet()) {
                FlushedFile mine = entry.getValue();
                FlushedFile other = theirs.get(entry.getKey());
                if (compareDirectories) {
                    assertThat(mine.directory()).as("hive directory of " + entry.getKey()).isEqualTo(other.directory());
                }
                String ourRows = "SELECT * FROM read_parquet('" + mine.dataFile() + "', hive_partitioning = false)";
                String theirRows = "SELECT * FROM read_parquet('" + other.dataFile() + "', hive_partitioning = false)";
                assertThat(count(oracle, ourRows + " EXCEPT ALL " + theirRows)).as("rows only in our " + entry.getKey()).isZero();
                assertThat(count(oracle, theirRows + " EXCEPT ALL " + ourRows)).as("rows only in their " + entry.getKey()).isZero();
                List<String> deleted = deletedVersions(oracle, mine);
                assertThat(deleted).as("deleted versions of " + entry.getKey()).containsExactlyInAnyOrderElementsOf(deletedVersions(oracle, other));
                deletedTotal += deleted.size();
                assertThat(mine.stats()).as("column stats of " + entry.getKey()).isEqualTo(other.stats());
                if (compareRowOrder) {
                    assertThat(rowOrder(oracle, mine.dataFile())).as("row order of " + entry.getKey()).isEqualTo(rowOrder(oracle, other.dataFile()));
                }
            }
            boolean endsVersions = workload.stream().anyMatch(step -> step.startsWith("DELETE") || step.startsWith("UPDATE"));
            assertThat(deletedTotal > 0).as("the delete files name ended row versions").isEqualTo(endsVersions);
            assertTableContents(oracle, table, ours.values());
            assertThat(oracle.query("SELECT count(*) FROM lake." + table)).isEqualTo(expectedContents);
            return ours;
        }
    }

    /** DuckDB reading our files, minus the positions of our delete files, sees exactly the table DuckLake shows. */
    private static void assertTableContents(DuckLakeOracle oracle, String table, java.util.Collection<FlushedFile> files)
            throws SQLException
    {
        List<String> scans = new ArrayList<>();
        for (FlushedFile file : files) {
            String live = file.deleteFile() == null ? "" : " WHERE file_row_number NOT IN (SELECT pos FROM read_parquet('" + file.deleteFile() + "'))";
            scans.add("SELECT * EXCLUDE (_ducklake_internal_row_id, _ducklake_internal_snapshot_id, file_row_number) FROM read_parquet('"
                    + file.dataFile() + "', hive_partitioning = false, file_row_number = true)" + live);
        }
        String ours = String.join(" UNION ALL ", scans);
        assertThat(count(oracle, "(" + ours + ") EXCEPT ALL SELECT * FROM lake." + table)).as("rows only in our flushed files").isZero();
        assertThat(count(oracle, "SELECT * FROM lake." + table + " EXCEPT ALL (" + ours + ")")).as("rows missing from our flushed files").isZero();
    }

    private static FlushedFile flushedFile(Path tableDirectory, String path, String deletePath, Map<Long, String> stats)
    {
        int slash = path.lastIndexOf('/');
        return new FlushedFile(slash < 0 ? "" : path.substring(0, slash + 1), tableDirectory.resolve(path).toString(),
                deletePath == null ? null : tableDirectory.resolve(deletePath).toString(), stats);
    }

    /** The versions a file's delete file deletes, as "row_id/begin/end". */
    private static List<String> deletedVersions(DuckLakeOracle oracle, FlushedFile file)
            throws SQLException
    {
        if (file.deleteFile() == null) {
            return List.of();
        }
        return oracle.query("SELECT f._ducklake_internal_row_id || '/' || f._ducklake_internal_snapshot_id || '/' || d._ducklake_internal_snapshot_id "
                + "FROM read_parquet('" + file.dataFile() + "', file_row_number = true, hive_partitioning = false) f JOIN read_parquet('" + file.deleteFile()
                + "') d ON d.pos = f.file_row_number").stream().map(List::getFirst).toList();
    }

    private static List<String> rowOrder(DuckLakeOracle oracle, String dataFile)
            throws SQLException
    {
        return oracle.query("SELECT _ducklake_internal_row_id || '/' || _ducklake_internal_snapshot_id FROM read_parquet('" + dataFile
                + "', file_row_number = true, hive_partitioning = false) ORDER BY file_row_number").stream().map(List::getFirst).toList();
    }

    private static long count(DuckLakeOracle oracle, String sql)
            throws SQLException
    {
        return Long.parseLong(oracle.query("SELECT count(*) FROM (" + sql + ")").getFirst().getFirst());
    }
}
