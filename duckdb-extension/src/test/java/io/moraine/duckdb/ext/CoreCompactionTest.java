package io.moraine.duckdb.ext;

import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.error.CommitConflictException;
import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.error.UnsupportedFeatureException;
import io.moraine.core.io.LocalFileSystem;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreUri;
import io.moraine.core.write.CompactedFiles;
import io.moraine.core.write.RowDeletes;
import io.moraine.core.write.WriteTransaction;
import io.moraine.core.write.maintenance.AddFilesOptions;
import io.moraine.core.write.maintenance.CompactionResult;
import io.moraine.core.write.maintenance.LakeMaintenance;
import io.moraine.core.write.maintenance.MergeAdjacentOptions;
import io.moraine.testing.DuckLakeCatalogRows;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static io.moraine.duckdb.ext.ExtensionConnections.execute;
import static io.moraine.duckdb.ext.ExtensionConnections.query;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The core's compactions ({@link LakeMaintenance#mergeAdjacentFiles}, {@link LakeMaintenance#rewriteDataFiles}) commit
 * what DuckDB+DuckLake's {@code ducklake_merge_adjacent_files} / {@code ducklake_rewrite_data_files} commit: one lake
 * is built through DuckDB on a DuckDB-file catalog and on a moraine store, DuckDB compacts the first and the core the
 * second; every ducklake_* row, the table at every snapshot with row ids, and the change feed must read equal, and
 * DuckDB must keep writing both alike.
 */
class CoreCompactionTest
{
    private MaintenanceLakes lakes()
    {
        return new MaintenanceLakes(temp, INLINE_LIMIT);
    }

    private static final int INLINE_LIMIT = 5;
    private static final List<String> CATALOG = DuckLakeCatalogRows.concat(DuckLakeCatalogRows.CATALOG, List.of(
            DuckLakeCatalogRows.SCHEDULED_FOR_DELETION, "SELECT * FROM lake_meta.ducklake_file_partition_value ORDER BY ALL"));

    @TempDir
    Path temp;

    @Test
    void mergedFilesThroughTheCoreMatchDuckLakesOwnMerge()
            throws Exception
    {
        try (OracleLakes lakes = OracleLakes.open(temp, INLINE_LIMIT)) {
            for (String statement : List.of(
                    "CREATE TABLE lake.main.t (id INTEGER, v VARCHAR, s STRUCT(a INTEGER, b VARCHAR), d DOUBLE)",             // 1
                    "INSERT INTO lake.main.t SELECT i, 'a' || i, {'a': i, 'b': NULL}, i / 3 FROM range(0, 20) r(i)",          // 2: A
                    "INSERT INTO lake.main.t SELECT i, NULL, {'a': NULL, 'b': 'b' || i}, i FROM range(20, 40) r(i)",         // 3: B, adjacent
                    "INSERT INTO lake.main.t VALUES (1000, 'inl', NULL, 1), (1001, 'inl', {'a': 1, 'b': 'x'}, 2)",           // 4: inlined
                    "INSERT INTO lake.main.t SELECT i, 'c' || i, NULL, -i FROM range(40, 60) r(i)",                          // 5: C
                    "INSERT INTO lake.main.t SELECT i, 'd' || i, {'a': i, 'b': 'd'}, i FROM range(60, 80) r(i)",              // 6: D
                    "DELETE FROM lake.main.t WHERE id = 65",                                                                 // 7: D has deletes
                    "INSERT INTO lake.main.t SELECT i, 'e' || i, {'a': i, 'b': 'e'}, i FROM range(80, 100) r(i)")) {         // 8: E
                lakes.both(statement);
            }
        }
        // 9: A, B, C and E merge (D has a delete file); their row ids are not contiguous, so they go into the file.
        int compared = merge(MergeAdjacentOptions.DEFAULTS, List.of(new CompactionResult("main", "t", 4, 1)));
        try (OracleLakes lakes = OracleLakes.open(temp, INLINE_LIMIT)) {
            lakes.both("ALTER TABLE lake.main.t ADD COLUMN w BIGINT");                                                     // 10
            lakes.both("INSERT INTO lake.main.t SELECT i, 'f' || i, NULL, i, i * 2 FROM range(100, 130) r(i)");           // 11: F
            lakes.both("INSERT INTO lake.main.t SELECT i, 'g' || i, {'a': 7, 'b': 'g'}, i, NULL FROM range(130, 150) r(i)"); // 12: G
            lakes.both("INSERT INTO lake.main.t SELECT i, 'h' || i, NULL, i, 1 FROM range(150, 160) r(i)");               // 13: H
        }
        // 14: F, G and H merge, adjacent (row_id_start kept; max_compacted_files counts merges); the merged file of
        // snapshot 9 is alone in its schema version.
        compared += merge(new MergeAdjacentOptions(null, null, 1L), List.of(new CompactionResult("main", "t", 3, 1)));
        // Nothing is left to merge: no snapshot.
        compared += merge(MergeAdjacentOptions.DEFAULTS, List.of());
        compared += lakes().compare(CATALOG, LongStream.rangeClosed(1, 14).boxed().toList());

        try (OracleLakes lakes = OracleLakes.open(temp, INLINE_LIMIT)) {
            lakes.both("DELETE FROM lake.main.t WHERE id % 4 = 0");
            lakes.both("UPDATE lake.main.t SET v = 'u' WHERE id BETWEEN 10 AND 30 OR id BETWEEN 125 AND 135");
            lakes.both("INSERT INTO lake.main.t SELECT i, 'late', NULL, i, i FROM range(200, 230) r(i)");
        }
        compared += lakes().compare(CATALOG, LongStream.rangeClosed(1, 17).boxed().toList());

        // The merged sources were scheduled where DuckLake schedules them: cleaning up leaves the same files on disk.
        List<String> removed = lakes().core(m -> m.cleanupAllOldFiles(false));
        List<List<String>> oracleRemoved = lakes().onOracle("SELECT path FROM ducklake_cleanup_old_files('lake', cleanup_all => true)");
        assertThat(removed).hasSameSizeAs(oracleRemoved).hasSizeGreaterThanOrEqualTo(7);
        assertThat(parquetFiles(temp.resolve("data"))).isEqualTo(parquetFiles(temp.resolve("oracle-data"))).isPositive();
        compared += sameNow();
        System.out.println("CoreCompactionTest: merge, " + compared + " oracle comparisons equal");
        assertThat(compared).isEqualTo(3 * (CATALOG.size() + 1) + (CATALOG.size() + 14 + 1) + (CATALOG.size() + 17 + 1) + (CATALOG.size() + 1));
    }

    @Test
    void mergesAndRewritesOfAPartitionedTableMatchDuckLakes()
            throws Exception
    {
        try (OracleLakes lakes = OracleLakes.open(temp, INLINE_LIMIT)) {
            lakes.both("CREATE TABLE lake.main.t (id INTEGER, part VARCHAR, v VARCHAR)");
            lakes.both("ALTER TABLE lake.main.t SET PARTITIONED BY (part)");
            for (int round = 0; round < 3; round++) {
                lakes.both("INSERT INTO lake.main.t SELECT i, 'p' || (i % 2), 'r" + round + "' FROM range(" + (round * 20) + ", " + (round * 20 + 20) + ") r(i)");
            }
            lakes.both("DELETE FROM lake.main.t WHERE id < 40 AND part = 'p0' AND id > 4");
        }
        // The p1 files merge into p1's directory; p0's have deletes (the second one's every row: it was retired).
        int compared = merge(MergeAdjacentOptions.DEFAULTS, List.of(new CompactionResult("main", "t", 3, 1)));
        // p0's first file lost 7 of 10 rows.
        compared += rewrite(0.5, List.of(new CompactionResult("main", "t", 1, 1)));
        long head = head();
        compared += lakes().compare(CATALOG, LongStream.rangeClosed(2, head).boxed().toList());
        System.out.println("CoreCompactionTest: partitioned, " + compared + " oracle comparisons equal");
        assertThat(compared).isEqualTo(2 * (CATALOG.size() + 1) + CATALOG.size() + (head - 1) + 1);
    }

    /**
     * A table sorted by (k DESC NULLS FIRST, n ASC NULLS LAST): its merges and rewrites write their rows in that order,
     * NULLs, NaN, -0.0 and strings by their bytes as DuckDB orders them. DuckDB's sort is not stable, so the rows of
     * equal keys are compared as sets (with their row ids) and the keys in file order; where DuckLake gives the output
     * positional row ids (an adjacent merge), equal keys hold equal rows.
     */
    @Test
    void mergesAndRewritesOfASortedTableWriteTheRowsInItsOrder()
            throws Exception
    {
        String keyOf = "CASE i % 5 WHEN 0 THEN NULL WHEN 1 THEN 'B' WHEN 2 THEN 'a' WHEN 3 THEN 'ab' ELSE 'é' END";
        try (OracleLakes lakes = OracleLakes.open(temp, INLINE_LIMIT)) {
            lakes.both("CREATE TABLE lake.main.t (k VARCHAR, n DOUBLE, v INTEGER)");                                        // 1
            // rows i and i + 10 of a file are equal, and the files share no key: ties of the adjacent merge hold equal rows
            lakes.both("INSERT INTO lake.main.t SELECT " + keyOf + ", CASE (i % 10) // 5 WHEN 0 THEN 1.5 ELSE NULL END, i % 10 "    // 2
                    + "FROM range(0, 20) r(i)");
            lakes.both("INSERT INTO lake.main.t SELECT " + keyOf + ", CASE (i % 10) // 5 WHEN 0 THEN 2.5 ELSE -1 END, i % 10 + 10 "   // 3
                    + "FROM range(20, 40) r(i)");
            lakes.both("ALTER TABLE lake.main.t SET SORTED BY (k DESC NULLS FIRST, n)");                                   // 4
        }
        // 5: adjacent, so DuckLake writes no row ids: the sorted rows take row ids by position.
        int compared = merge(MergeAdjacentOptions.DEFAULTS, List.of(new CompactionResult("main", "t", 2, 1)));
        compared += sameFileOrder();
        try (OracleLakes lakes = OracleLakes.open(temp, INLINE_LIMIT)) {
            // 6, 7: a file whose rows are all deleted again (it ends) takes row ids between the merged file and the next ones
            lakes.both("INSERT INTO lake.main.t SELECT 'x', i, i FROM range(1000, 1010) r(i)");
            lakes.both("DELETE FROM lake.main.t WHERE v >= 1000");
            for (int from : new int[] {40, 70}) {                                                                          // 8, 9
                lakes.both("INSERT INTO lake.main.t SELECT " + keyOf + ", CASE i % 6 WHEN 0 THEN 'nan'::DOUBLE WHEN 1 THEN -0.0 WHEN 2 THEN 0.0 "
                        + "WHEN 3 THEN NULL WHEN 4 THEN '-inf'::DOUBLE ELSE i % 3 END, i FROM range(" + from + ", " + (from + 30) + ") r(i)");
            }
        }
        // 10: not adjacent: the rows keep their row ids in the file.
        compared += merge(MergeAdjacentOptions.DEFAULTS, List.of(new CompactionResult("main", "t", 3, 1)));
        compared += sameFileOrder();
        try (OracleLakes lakes = OracleLakes.open(temp, INLINE_LIMIT)) {
            lakes.both("DELETE FROM lake.main.t WHERE v % 3 <> 0");                                                          // 11
        }
        // 12
        compared += rewrite(0.5, List.of(new CompactionResult("main", "t", 1, 1)));
        compared += sameFileOrder();
        compared += lakes().compare(CATALOG, LongStream.rangeClosed(1, 12).boxed().toList());
        System.out.println("CoreCompactionTest: sorted, " + compared + " oracle comparisons equal");
        assertThat(compared).isEqualTo(3 * (CATALOG.size() + 2) + CATALOG.size() + 12 + 1);

        // A sort expression the core does not evaluate is refused, named, with DuckDB's call to use instead.
        try (OracleLakes lakes = OracleLakes.open(temp, INLINE_LIMIT)) {
            lakes.both("ALTER TABLE lake.main.t SET SORTED BY (lower(k))");
            lakes.both("INSERT INTO lake.main.t SELECT 'y', i, i FROM range(2000, 2010) r(i)");
        }
        assertThatThrownBy(() -> lakes().core(m -> m.mergeAdjacentFiles("main", "t", MergeAdjacentOptions.DEFAULTS)))
                .isInstanceOf(UnsupportedFeatureException.class).hasMessageContaining("lower(k)").hasMessageContaining("ducklake_merge_adjacent_files");
    }

    /**
     * Files added with ducklake_add_data_files (read through their name mappings: other names, narrower types, an extra
     * and a missing column, a reordered struct) merge with the table's own files into DuckDB's layout; the calls
     * without a table compact every table of the lake in one snapshot, skipping a table whose auto_compact is false.
     */
    @Test
    void addedFilesMergeAndTheWholeLakeCompactsAsDuckLakes()
            throws Exception
    {
        Path external = temp.resolve("external");
        Files.createDirectories(external);
        String widened = parquet(external, "widened", "SELECT i::SMALLINT AS ID, 'w' || i AS V, {'a': i::INTEGER, 'b': NULL::VARCHAR} AS s, "
                + "'extra' AS x FROM range(100, 130) r(i)");
        String missing = parquet(external, "missing", "SELECT i::INTEGER AS id, {'b': 'm' || i, 'a': i::BIGINT} AS s FROM range(200, 220) r(i)");
        try (OracleLakes lakes = OracleLakes.open(temp, INLINE_LIMIT)) {
            lakes.both("CREATE TABLE lake.main.t (id BIGINT, v VARCHAR, s STRUCT(a BIGINT, b VARCHAR))");                             // 1
        }
        // 2, 4: added files, the first one first, so the merge's output goes into the table's directory, not the file's
        // (no DOUBLE column: the core's ducklake_add_data_files sets a DOUBLE column's table-wide contains_nan where DuckDB leaves it NULL)
        for (var added : List.of(List.of(widened, "false", "true", "0"), List.of(missing, "true", "false", "20"))) {
            AddFilesOptions options = new AddFilesOptions(Boolean.parseBoolean(added.get(1)), Boolean.parseBoolean(added.get(2)));
            lakes().onOracle("CALL ducklake_add_data_files('lake', 't', '" + added.get(0) + "', allow_missing => " + options.allowMissing()
                    + ", ignore_extra_columns => " + options.ignoreExtraColumns() + ")");
            lakes().core(m -> m.addDataFiles("main", "t", List.of(added.get(0)), options));
            try (OracleLakes lakes = OracleLakes.open(temp, INLINE_LIMIT)) {                                                         // 3, 5
                lakes.both("INSERT INTO lake.main.t SELECT i, 'own' || i, {'a': i, 'b': 'o'} FROM range(" + added.get(3) + ", " + added.get(3) + " + 20) r(i)");
            }
        }
        try (OracleLakes lakes = OracleLakes.open(temp, INLINE_LIMIT)) {
            lakes.both("CREATE TABLE lake.main.u (k INTEGER)");                                                                       // 6
            lakes.both("CREATE TABLE lake.main.skipped (k INTEGER)");                                                                 // 7
            for (String table : List.of("u", "skipped")) {                                                                            // 8-11
                lakes.both("INSERT INTO lake.main." + table + " SELECT i FROM range(0, 10) r(i)");
                lakes.both("INSERT INTO lake.main." + table + " SELECT i FROM range(10, 20) r(i)");
            }
            lakes.both("CALL ducklake_set_option('lake', 'auto_compact', false, table_name => 'skipped')");                          // (no snapshot)
        }
        // 12: t's four files (two read by name) and u's two merge, in one snapshot; 'skipped' stays as it is.
        int compared = mergeLake(List.of(new CompactionResult("main", "t", 4, 1), new CompactionResult("main", "u", 2, 1)));
        try (OracleLakes lakes = OracleLakes.open(temp, INLINE_LIMIT)) {
            lakes.both("DELETE FROM lake.main.t WHERE id % 10 <> 0");                                                                  // 13
            lakes.both("DELETE FROM lake.main.u WHERE k < 15");                                                                        // 14
        }
        // 15: both merged files lost most of their rows
        List<List<String>> oracle = lakes().onOracle("SELECT schema_name, table_name, files_processed, files_created FROM ducklake_rewrite_data_files('lake', "
                + "delete_threshold => 0.5) ORDER BY ALL");
        List<CompactionResult> results = lakes().core(m -> m.rewriteDataFiles(0.5));
        assertThat(results).isEqualTo(List.of(new CompactionResult("main", "t", 1, 1), new CompactionResult("main", "u", 1, 1)));
        assertThat(oracle).isEqualTo(rows(results));
        compared += sameNow();
        assertThat(head()).isEqualTo(15);
        compared += lakes().compare(CATALOG, LongStream.rangeClosed(1, 15).boxed().toList());
        System.out.println("CoreCompactionTest: added files and the whole lake, " + compared + " oracle comparisons equal");
        assertThat(compared).isEqualTo(2 * (CATALOG.size() + 1) + CATALOG.size() + 15 + 1);
    }

    /** The lake-wide merge on both lakes (results compared in table order: DuckDB lists them in its catalog's hash order). */
    private int mergeLake(List<CompactionResult> expected)
            throws Exception
    {
        List<List<String>> oracle = lakes().onOracle("SELECT schema_name, table_name, files_processed, files_created FROM ducklake_merge_adjacent_files('lake') "
                + "ORDER BY ALL");
        List<CompactionResult> results = lakes().core(m -> m.mergeAdjacentFiles(MergeAdjacentOptions.DEFAULTS));
        assertThat(results).isEqualTo(expected);
        assertThat(oracle).isEqualTo(rows(results));
        return sameNow();
    }

    private static List<List<String>> rows(List<CompactionResult> results)
    {
        return results.stream().map(r -> List.of(r.schemaName(), r.tableName(), String.valueOf(r.filesProcessed()), String.valueOf(r.filesCreated()))).toList();
    }

    private static String parquet(Path directory, String name, String select)
            throws Exception
    {
        Path file = directory.resolve(name + ".parquet");
        try (Connection connection = ExtensionConnections.open()) {
            execute(connection, "COPY (" + select + ") TO '" + file + "' (FORMAT parquet)");
        }
        return file.toString();
    }

    /** The sort keys of the table's current files, file by file in row order (equal on both lakes, and more than a few). */
    private int sameFileOrder()
            throws Exception
    {
        try (OracleLakes lakes = OracleLakes.open(temp, INLINE_LIMIT)) {
            List<List<String>> rows = lakes.same("SELECT f.data_file_id, t.k, t.n FROM lake.main.t t JOIN lake_meta.ducklake_data_file f "
                    + "ON t.filename LIKE '%/' || f.path WHERE f.end_snapshot IS NULL ORDER BY f.data_file_id, t.file_row_number");
            assertThat(rows).hasSizeGreaterThan(10);
        }
        return 1;
    }

    @Test
    void aCompactionOfFilesDeletedFromSinceItBeganIsAConflict()
            throws Exception
    {
        List<Long> fileIds;
        try (OracleLakes lakes = OracleLakes.open(temp, INLINE_LIMIT)) {
            lakes.both("CREATE TABLE lake.main.t (id INTEGER)");
            lakes.both("INSERT INTO lake.main.t SELECT i FROM range(0, 20) r(i)");
            lakes.both("INSERT INTO lake.main.t SELECT i FROM range(20, 40) r(i)");
            fileIds = query(lakes.moraine(), "SELECT data_file_id FROM lake_meta.ducklake_data_file ORDER BY 1").stream()
                    .map(row -> Long.parseLong(row.getFirst())).toList();
        }
        assertThat(fileIds).hasSize(2);
        try (MoraineCatalog catalog = MoraineCatalog.open(StoreUri.parse(temp.resolve("store").toString()), OpenMode.READ_WRITE)) {
            WriteTransaction compaction = WriteTransaction.begin(catalog, LocalFileSystem.INSTANCE);
            WriteTransaction.begin(catalog, LocalFileSystem.INSTANCE).deleteRows("main", "t", RowDeletes.create().fileRow(fileIds.getFirst(), 3)).commit();
            List<CompactedFiles.Source> sources = fileIds.stream().map(id -> new CompactedFiles.Source(id, null, 0, "x", true)).toList();
            compaction.compact("main", "t", new CompactedFiles(CompactedFiles.Kind.MERGE_ADJACENT, sources, null, null, 1L, 3L));
            assertThatThrownBy(compaction::commit).isInstanceOf(CommitConflictException.class).hasMessageContaining("conflict");
        }
        try (OracleLakes lakes = OracleLakes.open(temp, INLINE_LIMIT)) {
            assertThat(query(lakes.moraine(), "SELECT count(*) FROM lake.main.t")).isEqualTo(List.of(List.of("39")));
            assertThat(query(lakes.moraine(), "SELECT count(*) FROM lake_meta.ducklake_files_scheduled_for_deletion")).isEqualTo(List.of(List.of("0")));
        }
    }

    @Test
    void rewrittenFilesThroughTheCoreMatchDuckLakesOwnRewrite()
            throws Exception
    {
        try (OracleLakes lakes = OracleLakes.open(temp, INLINE_LIMIT)) {
            for (String statement : List.of(
                    "CREATE TABLE lake.main.t (id INTEGER, v VARCHAR, s STRUCT(a INTEGER, b VARCHAR))",                  // 1
                    "INSERT INTO lake.main.t SELECT i, 'a' || i, {'a': i, 'b': NULL} FROM range(0, 20) r(i)",           // 2: A
                    "INSERT INTO lake.main.t SELECT i, 'b' || i, NULL FROM range(20, 40) r(i)",                         // 3: B
                    "INSERT INTO lake.main.t SELECT i, NULL, {'a': NULL, 'b': 'c'} FROM range(40, 60) r(i)",             // 4: C
                    "INSERT INTO lake.main.t SELECT i, 'd' || i, NULL FROM range(60, 80) r(i)",                         // 5: D
                    "DELETE FROM lake.main.t WHERE id < 18",                                                            // 6: 90% of A
                    "DELETE FROM lake.main.t WHERE id BETWEEN 20 AND 39",                                               // 7: all of B
                    "DELETE FROM lake.main.t WHERE id BETWEEN 40 AND 49",                                               // 8: half of C
                    "DELETE FROM lake.main.t WHERE id IN (61, 63)",                                                     // 9: 10% of D
                    "INSERT INTO lake.main.t VALUES (1000, 'inl', NULL)")) {                                            // 10
                lakes.both(statement);
            }
        }
        // The lake's default threshold (0.95) finds no file; 0.5 rewrites A and C into one file, keeping their row ids.
        int compared = rewrite(null, List.of());
        compared += rewrite(0.5, List.of(new CompactionResult("main", "t", 2, 1)));                                     
        try (OracleLakes lakes = OracleLakes.open(temp, INLINE_LIMIT)) {
            lakes.both("DELETE FROM lake.main.t WHERE id BETWEEN 50 AND 57");                                           
            lakes.both("CALL ducklake_set_option('lake', 'rewrite_delete_threshold', 0.2)");                            
        }
        // The rewritten file (row ids inside) loses 8 of 12 rows; D (10%) stays: the lake's option applies.
        compared += rewrite(null, List.of(new CompactionResult("main", "t", 1, 1)));                                    
        try (OracleLakes lakes = OracleLakes.open(temp, INLINE_LIMIT)) {
            lakes.both("DELETE FROM lake.main.t WHERE id < 60");                                                        
        }
        // A bad threshold is refused as DuckLake refuses it.
        assertThatThrownBy(() -> lakes().core(m -> m.rewriteDataFiles("main", "t", 1.5))).isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("between 0 and 1");
        assertThatThrownBy(() -> lakes().onOracle("CALL ducklake_rewrite_data_files('lake', 't', delete_threshold => 1.5)")).hasMessageContaining("between 0 and 1");
        // Every row of the file is deleted: the file and its delete file end, no file is written.
        compared += rewrite(0.9, List.of(new CompactionResult("main", "t", 1, 0)));                                     
        long head = head();
        compared += lakes().compare(CATALOG, LongStream.rangeClosed(1, head).boxed().toList());
        try (OracleLakes lakes = OracleLakes.open(temp, INLINE_LIMIT)) {
            lakes.both("UPDATE lake.main.t SET v = 'u' WHERE id > 60");
            lakes.both("INSERT INTO lake.main.t SELECT i, 'late', NULL FROM range(200, 230) r(i)");
        }
        assertThat(head()).isEqualTo(head + 2);
        compared += lakes().compare(CATALOG, LongStream.rangeClosed(1, head + 2).boxed().toList());
        System.out.println("CoreCompactionTest: rewrite, " + compared + " oracle comparisons equal");
        assertThat(compared).isEqualTo(4 * (CATALOG.size() + 1) + (CATALOG.size() + head + 1) + (CATALOG.size() + head + 2 + 1));
    }

    private int rewrite(Double threshold, List<CompactionResult> expected)
            throws Exception
    {
        List<List<String>> oracle = lakes().onOracle("SELECT schema_name, table_name, files_processed, files_created FROM ducklake_rewrite_data_files('lake', 't'"
                + (threshold == null ? "" : ", delete_threshold => " + threshold) + ")");
        List<CompactionResult> results = lakes().core(m -> m.rewriteDataFiles("main", "t", threshold));
        assertThat(results).isEqualTo(expected);
        assertThat(oracle).isEqualTo(results.stream().map(r -> List.of(r.schemaName(), r.tableName(), String.valueOf(r.filesProcessed()),
                String.valueOf(r.filesCreated()))).toList());
        return sameNow();
    }

    private int merge(MergeAdjacentOptions options, List<CompactionResult> expected)
            throws Exception
    {
        List<List<String>> oracle = lakes().onOracle("SELECT schema_name, table_name, files_processed, files_created FROM ducklake_merge_adjacent_files('lake', 't'"
                + (options.maxCompactedFiles() == null ? "" : ", max_compacted_files => " + options.maxCompactedFiles()) + ")");
        List<CompactionResult> results = lakes().core(m -> m.mergeAdjacentFiles("main", "t", options));
        assertThat(results).isEqualTo(expected);
        assertThat(oracle).isEqualTo(results.stream().map(r -> List.of(r.schemaName(), r.tableName(), String.valueOf(r.filesProcessed()),
                String.valueOf(r.filesCreated()))).toList());
        return sameNow();
    }

    private long head()
            throws Exception
    {
        try (OracleLakes lakes = OracleLakes.open(temp, INLINE_LIMIT)) {
            return Long.parseLong(lakes.same("SELECT max(snapshot_id) FROM lake_meta.ducklake_snapshot").getFirst().getFirst());
        }
    }

    private int sameNow()
            throws Exception
    {
        try (OracleLakes lakes = OracleLakes.open(temp, INLINE_LIMIT)) {
            long head = Long.parseLong(lakes.same("SELECT max(snapshot_id) FROM lake_meta.ducklake_snapshot").getFirst().getFirst());
            for (String sql : CATALOG) {
                lakes.same(sql);
            }
            lakes.same("SELECT *, rowid FROM lake.main.t AT (VERSION => " + head + ") ORDER BY ALL");
        }
        return CATALOG.size() + 1;
    }

    static long parquetFiles(Path directory)
            throws Exception
    {
        try (Stream<Path> files = Files.walk(directory)) {
            return files.filter(file -> file.toString().endsWith(".parquet")).count();
        }
    }
}
