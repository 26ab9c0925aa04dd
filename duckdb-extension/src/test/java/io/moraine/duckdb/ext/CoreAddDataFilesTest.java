package io.moraine.duckdb.ext;

import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.error.NotFoundException;
import io.moraine.core.write.maintenance.AddFilesOptions;
import io.moraine.core.write.maintenance.LakeMaintenance;
import io.moraine.testing.DuckLakeCatalogRows;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;
import java.util.Map;

import static io.moraine.duckdb.ext.ExtensionConnections.execute;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The core's {@link LakeMaintenance#addDataFiles} commits what DuckDB+DuckLake's {@code ducklake_add_data_files}
 * commits: the same Parquet files (written by DuckDB, outside both lakes) are added to a DuckDB-file lake by DuckDB and
 * to a moraine store by the core; every ducklake_* row (name mappings included), the table at every snapshot with row
 * ids and the change feed must read equal, bad files must fail on both, and DuckDB must keep writing both lakes alike.
 */
class CoreAddDataFilesTest
{
    private MaintenanceLakes lakes()
    {
        return new MaintenanceLakes(temp, INLINE_LIMIT);
    }

    private static final int INLINE_LIMIT = 5;
    static final List<String> CATALOG = DuckLakeCatalogRows.CATALOG;

    @TempDir
    Path temp;

    @Test
    void addedFilesThroughTheCoreMatchDuckLakesOwnCall()
            throws Exception
    {
        Path files = temp.resolve("external");
        Files.createDirectories(files);
        String full = parquet(files, "full", "SELECT i::INTEGER AS id, 'v' || i AS v, {'a': i * 10, 'b': 'b' || i} AS s, i / 4 AS d FROM range(50) r(i)");
        String widened = parquet(files, "widened", "SELECT i::SMALLINT AS ID, 'w' || i AS V, {'a': i::INTEGER, 'b': NULL::VARCHAR} AS s, "
                + "(i / 2)::FLOAT AS d, 'extra' AS x FROM range(100, 130) r(i)");
        String missing = parquet(files, "missing", "SELECT i::INTEGER AS id, {'a': i::BIGINT, 'b': 'm'} AS s FROM range(200, 207) r(i)");
        String again = parquet(files, "again", "SELECT i::INTEGER AS id, NULL::VARCHAR AS v, {'a': NULL::BIGINT, 'b': 'x'} AS s, 0.5::DOUBLE AS d FROM range(300, 340) r(i)");
        String empty = parquet(files, "empty", "SELECT i::INTEGER AS id, 'v' AS v, {'a': 1::BIGINT, 'b': 'b'} AS s, 1.0::DOUBLE AS d FROM range(0) r(i)");
        String badType = parquet(files, "bad-type", "SELECT 'x' || i AS id, 'v' AS v, {'a': 1::BIGINT, 'b': 'b'} AS s, 1.0::DOUBLE AS d FROM range(3) r(i)");
        String unsigned = parquet(files, "unsigned", "SELECT i::UBIGINT AS id, 'v' AS v, {'a': 1::BIGINT, 'b': 'b'} AS s, 1.0::DOUBLE AS d FROM range(3) r(i)");

        try (OracleLakes lakes = OracleLakes.open(temp, INLINE_LIMIT)) {
            lakes.both("CREATE TABLE lake.main.t (id BIGINT, v VARCHAR, s STRUCT(a BIGINT, b VARCHAR), d DOUBLE)");   // 1
            lakes.both("INSERT INTO lake.main.t SELECT i, 'own' || i, {'a': i, 'b': 'o'}, i FROM range(10, 30) r(i)");  // 2: a file
            lakes.both("INSERT INTO lake.main.t VALUES (1, 'inl', {'a': 1, 'b': 'i'}, 1.5)");                           // 3: inlined
        }
        int compared = 0;

        // 4: two files in one call (one is empty and skipped), 5: widening types, another case and an extra column,
        // 6: a missing column, 7: a file whose mapping equals the first one's (reused).
        compared += add("[" + sql(full) + ", " + sql(empty) + "]", List.of(full, empty), AddFilesOptions.DEFAULTS, List.of(full));
        compared += add(sql(widened), List.of(widened), new AddFilesOptions(false, true), List.of(widened));
        compared += add(sql(missing), List.of(missing), new AddFilesOptions(true, false), List.of(missing));
        compared += add(sql(again), List.of(again), AddFilesOptions.DEFAULTS, List.of(again));

        // Bad files fail on both, with the column, the file and what to do named; nothing is committed.
        refused(widened, AddFilesOptions.DEFAULTS, InvalidArgumentException.class, "Column \"x\" exists in file", "ignore_extra_columns");
        refused(missing, AddFilesOptions.DEFAULTS, InvalidArgumentException.class, "Column \"v\" exists in table", "allow_missing");
        refused(badType, AddFilesOptions.DEFAULTS, InvalidArgumentException.class, "Failed to map column \"id\"", "found type VARCHAR");
        refused(unsigned, AddFilesOptions.DEFAULTS, InvalidArgumentException.class, "Failed to map column \"id\"", "found type UBIGINT");
        assertThatThrownBy(() -> lakes().core(m -> m.addDataFiles("main", "t", List.of(files.resolve("nope.parquet").toString()), AddFilesOptions.DEFAULTS)))
                .isInstanceOf(NotFoundException.class).hasMessageContaining("nope.parquet");
        compared += lakes().compare(CATALOG, List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L));

        // DuckDB keeps writing both lakes alike: deletes and updates of rows of added files, a new column, more rows.
        try (OracleLakes lakes = OracleLakes.open(temp, INLINE_LIMIT)) {
            lakes.both("DELETE FROM lake.main.t WHERE id % 5 = 0");
            lakes.both("UPDATE lake.main.t SET v = 'u' WHERE id BETWEEN 100 AND 110");
            lakes.both("ALTER TABLE lake.main.t ADD COLUMN z INTEGER DEFAULT 7");
            lakes.both("INSERT INTO lake.main.t SELECT i, 'late', {'a': i, 'b': 'l'}, i, i FROM range(400, 420) r(i)");
        }
        compared += lakes().compare(CATALOG, List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L));
        System.out.println("CoreAddDataFilesTest: " + compared + " oracle comparisons equal");
        assertThat(compared).isEqualTo(4 * (CATALOG.size() + 1) + 2 * (CATALOG.size() + 1) + 7 + 11);
    }

    static final List<String> PARTITIONED_CATALOG = DuckLakeCatalogRows.PARTITIONED;

    @Test
    void hiveDirectoriesPartitionedTablesListsMapsAndGlobsMatchDuckLakesOwnCall()
            throws Exception
    {
        Path root = temp.resolve("external");
        String a = root.resolve("k=1/year=2024/a.parquet").toString();
        String b = root.resolve("k=2/year=2023/b.parquet").toString();
        String c = root.resolve("k=2/year=2023/c.parquet").toString();
        String noYear = root.resolve("k=3/no-year.parquet").toString();
        String hive = temp.resolve("other/k=7/year=2023/u.parquet").toString();
        String nested = root.resolve("nested.parquet").toString();
        String day = temp.resolve("events/year=2024/month=1/day=1/e.parquet").toString();
        String noDate = temp.resolve("events/year=2024/month=2/day=10/f.parquet").toString();
        parquets(Map.of(
                a, "SELECT DATE '2024-03-01' + i::INTEGER AS d, 'a' || i AS v FROM range(5) r(i)",            // k only in the path
                b, "SELECT 99 AS k, DATE '2023-03-01' + i::INTEGER AS d, 'b' || i AS v FROM range(3) r(i)",  // the path's k wins
                c, "SELECT DATE '2023-06-01' + i::INTEGER AS d, NULL::VARCHAR AS v FROM range(4) r(i)",
                noYear, "SELECT DATE '2023-03-01' AS d, 'x' AS v",
                hive, "SELECT i::INTEGER AS id, 'u' || i AS v FROM range(6) r(i)",
                nested, "SELECT i AS id, [i, i + 1] AS l, MAP {'a': i, 'b': NULL} AS mp, [{'x': i, 'y': 'y' || i}, NULL] AS ls, [[i], []] AS ll "
                        + "FROM range(8) r(i)",
                day, "SELECT 11 AS id, DATE '2024-01-01' AS dt",
                noDate, "SELECT 12 AS id"));
        try (OracleLakes lakes = OracleLakes.open(temp, INLINE_LIMIT)) {
            lakes.both("CREATE TABLE lake.main.p (k INTEGER, d DATE, v VARCHAR)");                                   // 1
            lakes.both("ALTER TABLE lake.main.p SET PARTITIONED BY (k, year(d))");                                  // 2
            lakes.both("CREATE TABLE lake.main.u (id INTEGER, k VARCHAR, v VARCHAR)");                              // 3
            lakes.both("CREATE TABLE lake.main.n (id BIGINT, l BIGINT[], mp MAP(VARCHAR, BIGINT), ls STRUCT(x BIGINT, y VARCHAR)[], ll BIGINT[][])"); // 4
            lakes.both("CREATE TABLE lake.main.e (id INTEGER, dt DATE)");                                             // 5
            lakes.both("ALTER TABLE lake.main.e SET PARTITIONED BY (year(dt), month(dt), day(dt))");                 // 6
        }
        int compared = 0;
        // 7: a glob over the partitioned table's hive directories (identity k, year(d)), 8: the same file's directories
        // on an unpartitioned table (k from the path, year names no column), 9: the same without hive partitioning,
        // 10: lists (of structs, of lists) and maps, 11: three keys on one column (DuckLake stores every value under
        // the last key's index), one file lacking that column (its statistics then come from the year directory).
        compared += add("p", sql(root + "/k=*/year=*/*.parquet"), List.of(root + "/k=*/year=*/*.parquet"), AddFilesOptions.DEFAULTS, List.of(a, b, c));
        compared += add("u", sql(hive), List.of(hive), AddFilesOptions.DEFAULTS, List.of(hive));
        compared += add("u", sql(hive) + ", hive_partitioning => false", List.of(hive), new AddFilesOptions(true, false, false), List.of(hive));
        compared += add("n", sql(nested), List.of(nested), AddFilesOptions.DEFAULTS, List.of(nested));
        compared += add("e", sql(temp + "/events/**/*.parquet"), List.of(temp + "/events/**/*.parquet"), new AddFilesOptions(true, false),
                List.of(day, noDate));

        // A partitioned table's file must lie in a directory per key; a glob matching nothing fails: on both, naming it.
        refused("p", noYear, AddFilesOptions.DEFAULTS, InvalidArgumentException.class, "contains an invalid partition value", noYear);
        refused("p", root + "/k=*/nothing-*.parquet", AddFilesOptions.DEFAULTS, NotFoundException.class, "No files found that match the pattern",
                "nothing-*.parquet");

        // DuckDB reads and keeps writing both lakes alike: partitioned inserts, deletes and updates of added rows.
        try (OracleLakes lakes = OracleLakes.open(temp, INLINE_LIMIT)) {
            lakes.both("INSERT INTO lake.main.p SELECT i % 3, DATE '2023-12-30' + i::INTEGER, 'late' FROM range(10) r(i)");
            lakes.both("DELETE FROM lake.main.p WHERE v = 'a1' OR k = 2 AND d = DATE '2023-06-02'");
            lakes.both("UPDATE lake.main.u SET v = 'x' WHERE id < 3");
            lakes.both("DELETE FROM lake.main.n WHERE id % 3 = 0");
            lakes.both("INSERT INTO lake.main.n VALUES (100, [1], MAP {'z': 1}, [{'x': 1, 'y': 'z'}], [[1, 2]])");
            lakes.both("INSERT INTO lake.main.e SELECT i, DATE '2024-01-01' + i::INTEGER * 20 FROM range(20, 30) r(i)");
            for (String sql : PARTITIONED_CATALOG) {
                lakes.same(sql);
                compared++;
            }
            for (String table : List.of("p", "u", "n", "e")) {
                lakes.same("SELECT *, rowid FROM lake.main." + table + " ORDER BY ALL");
                lakes.same("SELECT * FROM ducklake_table_changes('lake', 'main', '" + table + "', 1, 17) ORDER BY ALL");
                compared += 2;
            }
            assertThat(lakes.same("SELECT k, count(*) FROM lake.main.p WHERE year(d) = 2023 GROUP BY k ORDER BY k"))
                    .containsExactly(List.of("0", "1"), List.of("1", "1"), List.of("2", "6")); // b and c (7 rows, k from the path, not b's 99), one deleted
        }
        System.out.println("CoreAddDataFilesTest: " + compared + " oracle comparisons equal (hive, partitioned, nested, globs)");
        assertThat(compared).isEqualTo(5 * (PARTITIONED_CATALOG.size() + 1) + PARTITIONED_CATALOG.size() + 8);
    }

    @Test
    void missingTablesAndUnreadableHiveValuesAreRefusedWithAClearError()
            throws Exception
    {
        Path directory = temp.resolve("external/id=x");
        Files.createDirectories(directory);
        String file = parquet(directory, "h", "SELECT 'v' AS v FROM range(2)");
        try (OracleLakes lakes = OracleLakes.open(temp, INLINE_LIMIT)) {
            lakes.both("CREATE TABLE lake.main.t (id INTEGER, v VARCHAR)");
        }
        refused("t", file, AddFilesOptions.DEFAULTS, InvalidArgumentException.class, "Unable to cast 'x' (from hive partition column 'ID')", "to: 'INTEGER'");
        assertThatThrownBy(() -> lakes().core(m -> m.addDataFiles("main", "nope", List.of(file), AddFilesOptions.DEFAULTS)))
                .isInstanceOf(NotFoundException.class).hasMessageContaining("main.nope");
    }

    /** Adds {@code paths} through DuckDB on the oracle and through the core on the store; compares everything. */
    private int add(String oracleList, List<String> paths, AddFilesOptions options, List<String> expectedAdded)
            throws Exception
    {
        return add("t", oracleList, paths, options, expectedAdded);
    }

    private int add(String table, String oracleList, List<String> paths, AddFilesOptions options, List<String> expectedAdded)
            throws Exception
    {
        List<String> catalog = table.equals("t") ? CATALOG : PARTITIONED_CATALOG;
        lakes().onOracle("CALL ducklake_add_data_files('lake', '" + table + "', " + oracleList + ", allow_missing => " + options.allowMissing()
                + ", ignore_extra_columns => " + options.ignoreExtraColumns() + ")");
        List<String> added = lakes().core(m -> m.addDataFiles("main", table, paths, options));
        assertThat(added).isEqualTo(expectedAdded);
        try (OracleLakes lakes = OracleLakes.open(temp, INLINE_LIMIT)) {
            long head = Long.parseLong(lakes.same("SELECT max(snapshot_id) FROM lake_meta.ducklake_snapshot").getFirst().getFirst());
            for (String sql : catalog) {
                lakes.same(sql);
            }
            lakes.same("SELECT *, rowid FROM lake.main." + table + " AT (VERSION => " + head + ") ORDER BY ALL");
        }
        return catalog.size() + 1;
    }

    /** The file fails on the oracle and on the core (with {@code type}), both naming {@code text} and {@code hint}. */
    private void refused(String path, AddFilesOptions options, Class<? extends Exception> type, String text, String hint)
            throws Exception
    {
        refused("t", path, options, type, text, hint);
    }

    private void refused(String table, String path, AddFilesOptions options, Class<? extends Exception> type, String text, String hint)
            throws Exception
    {
        String oracleCall = "CALL ducklake_add_data_files('lake', '" + table + "', " + sql(path) + ", allow_missing => " + options.allowMissing()
                + ", ignore_extra_columns => " + options.ignoreExtraColumns() + ")";
        var oracleFailure = assertThatThrownBy(() -> lakes().onOracle(oracleCall));
        var coreFailure = assertThatThrownBy(() -> lakes().core(m -> m.addDataFiles("main", table, List.of(path), options)));
        oracleFailure.hasMessageContaining(text).hasMessageContaining(hint);
        coreFailure.isInstanceOf(type).hasMessageContaining(text).hasMessageContaining(hint).hasMessageContaining(path);
    }

    private String parquet(Path directory, String name, String select)
            throws Exception
    {
        Path file = directory.resolve(name + ".parquet");
        try (Connection connection = ExtensionConnections.open()) {
            execute(connection, "COPY (" + select + ") TO '" + file + "' (FORMAT parquet)");
        }
        return file.toString();
    }

    /** Writes each query's rows to its file (directories created), on one DuckDB connection. */
    private static void parquets(Map<String, String> selects)
            throws Exception
    {
        try (Connection connection = ExtensionConnections.open()) {
            for (Map.Entry<String, String> file : selects.entrySet()) {
                Files.createDirectories(Path.of(file.getKey()).getParent());
                execute(connection, "COPY (" + file.getValue() + ") TO '" + file.getKey() + "' (FORMAT parquet)");
            }
        }
    }

    private static String sql(String path)
    {
        return "'" + path.replace("'", "''") + "'";
    }
}
