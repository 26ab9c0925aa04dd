package io.moraine.duckdb.ext;

import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.error.NotFoundException;
import io.moraine.core.error.UnsupportedFeatureException;
import io.moraine.core.write.maintenance.AddFilesOptions;
import io.moraine.core.write.maintenance.LakeMaintenance;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;

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
    static final List<String> CATALOG = List.of(
            "SELECT snapshot_id, schema_version, next_catalog_id, next_file_id FROM lake_meta.ducklake_snapshot ORDER BY ALL",
            "SELECT * FROM lake_meta.ducklake_snapshot_changes ORDER BY ALL",
            "SELECT table_id, begin_snapshot, end_snapshot, schema_id, table_name, path, path_is_relative FROM lake_meta.ducklake_table ORDER BY ALL",
            "SELECT * FROM lake_meta.ducklake_column ORDER BY ALL",
            "SELECT data_file_id, table_id, begin_snapshot, end_snapshot, file_order, regexp_replace(path, 'ducklake-.*', ''), path_is_relative, "
                    + "file_format, record_count, file_size_bytes, footer_size, row_id_start, partition_id, mapping_id, partial_max FROM lake_meta.ducklake_data_file "
                    + "WHERE path NOT LIKE '%ducklake-%' ORDER BY ALL",
            "SELECT data_file_id, table_id, begin_snapshot, end_snapshot, file_order, regexp_replace(path, 'ducklake-.*', ''), path_is_relative, "
                    + "file_format, record_count, row_id_start, partition_id, mapping_id, partial_max FROM lake_meta.ducklake_data_file ORDER BY ALL",
            "SELECT delete_file_id, table_id, begin_snapshot, end_snapshot, data_file_id, regexp_replace(path, 'ducklake-.*', ''), path_is_relative, "
                    + "format, delete_count, partial_max FROM lake_meta.ducklake_delete_file ORDER BY ALL",
            "SELECT data_file_id, table_id, column_id, value_count, null_count, min_value, max_value, contains_nan FROM lake_meta.ducklake_file_column_stats ORDER BY ALL",
            "SELECT table_id, record_count, next_row_id FROM lake_meta.ducklake_table_stats ORDER BY ALL",
            "SELECT * FROM lake_meta.ducklake_table_column_stats ORDER BY ALL",
            "SELECT * FROM lake_meta.ducklake_column_mapping ORDER BY ALL",
            "SELECT * FROM lake_meta.ducklake_name_mapping ORDER BY ALL",
            "SELECT * FROM lake_meta.ducklake_inlined_data_tables ORDER BY ALL",
            "SELECT * FROM lake_meta.ducklake_schema_versions ORDER BY ALL");

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

    @Test
    void partitionedTablesAndHivePathsAreRefusedWithAClearError()
            throws Exception
    {
        Path hive = temp.resolve("external/id=3");
        Files.createDirectories(hive);
        String file = parquet(hive, "h", "SELECT 'v' AS v FROM range(2)");
        try (OracleLakes lakes = OracleLakes.open(temp, INLINE_LIMIT)) {
            lakes.both("CREATE TABLE lake.main.t (id INTEGER, v VARCHAR)");
            lakes.both("CREATE TABLE lake.main.p (id INTEGER, v VARCHAR)");
            lakes.both("ALTER TABLE lake.main.p SET PARTITIONED BY (id)");
        }
        assertThatThrownBy(() -> lakes().core(m -> m.addDataFiles("main", "t", List.of(file), AddFilesOptions.DEFAULTS)))
                .isInstanceOf(UnsupportedFeatureException.class).hasMessageContaining("id=3").hasMessageContaining("ducklake_add_data_files");
        assertThatThrownBy(() -> lakes().core(m -> m.addDataFiles("main", "p", List.of(file), AddFilesOptions.DEFAULTS)))
                .isInstanceOf(UnsupportedFeatureException.class).hasMessageContaining("partitioned");
        assertThatThrownBy(() -> lakes().core(m -> m.addDataFiles("main", "nope", List.of(file), AddFilesOptions.DEFAULTS)))
                .isInstanceOf(NotFoundException.class).hasMessageContaining("main.nope");
    }

    /** Adds {@code paths} through DuckDB on the oracle and through the core on the store; compares everything. */
    private int add(String oracleList, List<String> paths, AddFilesOptions options, List<String> expectedAdded)
            throws Exception
    {
        lakes().onOracle("CALL ducklake_add_data_files('lake', 't', " + oracleList + ", allow_missing => " + options.allowMissing()
                + ", ignore_extra_columns => " + options.ignoreExtraColumns() + ")");
        List<String> added = lakes().core(m -> m.addDataFiles("main", "t", paths, options));
        assertThat(added).isEqualTo(expectedAdded);
        try (OracleLakes lakes = OracleLakes.open(temp, INLINE_LIMIT)) {
            long head = Long.parseLong(lakes.same("SELECT max(snapshot_id) FROM lake_meta.ducklake_snapshot").getFirst().getFirst());
            for (String sql : CATALOG) {
                lakes.same(sql);
            }
            lakes.same("SELECT *, rowid FROM lake.main.t AT (VERSION => " + head + ") ORDER BY ALL");
        }
        return CATALOG.size() + 1;
    }

    /** The file fails on the oracle and on the core (with {@code type}), both naming {@code text} and {@code hint}. */
    private void refused(String path, AddFilesOptions options, Class<? extends Exception> type, String text, String hint)
            throws Exception
    {
        String oracleCall = "CALL ducklake_add_data_files('lake', 't', " + sql(path) + ", allow_missing => " + options.allowMissing()
                + ", ignore_extra_columns => " + options.ignoreExtraColumns() + ")";
        var oracleFailure = assertThatThrownBy(() -> lakes().onOracle(oracleCall));
        var coreFailure = assertThatThrownBy(() -> lakes().core(m -> m.addDataFiles("main", "t", List.of(path), options)));
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

    private static String sql(String path)
    {
        return "'" + path.replace("'", "''") + "'";
    }
}
