package io.moraine.duckdb.ext;

import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.error.UnsupportedFeatureException;
import io.moraine.core.io.LocalFileSystem;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreUri;
import io.moraine.importer.CatalogImporter;
import io.moraine.importer.DuckLakeSource;
import io.moraine.inline.flush.InlineFlusher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;
import java.util.Optional;

import static io.moraine.duckdb.ext.ExtensionConnections.count;
import static io.moraine.duckdb.ext.ExtensionConnections.execute;
import static io.moraine.duckdb.ext.ExtensionConnections.query;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * HUGEINT and UHUGEINT values in inlined tables (DuckLake's {@code all_types_column_default_stats.test}): DuckDB's
 * default Arrow export turns both into DECIMAL(38,0), which cannot hold a UHUGEINT above 10^38 (the commit failed on
 * the cast) and read back as DECIMAL. They now cross the bridge as 16-byte integers and are stored in DuckDB's lossless
 * form ({@code arrow.opaque} hugeint / uhugeint), so that their full range, their type and their statistics equal a
 * DuckDB-file catalog's, moraine's flush writes them to Parquet exactly, and an imported lake keeps them whole.
 */
class DuckLakeInlinedHugeintTest
{
    private static final String HUGEINT_MIN = "-170141183460469231731687303715884105728";
    private static final String HUGEINT_MAX = "170141183460469231731687303715884105727";
    private static final String UHUGEINT_MAX = "340282366920938463463374607431768211455";
    /** 10^38, the first integer DECIMAL(38,0) cannot hold. */
    private static final String TEN_TO_38 = "100000000000000000000000000000000000000";

    private static final String READ = "SELECT id, h, u, s::VARCHAR, l::VARCHAR, m::VARCHAR, typeof(h), typeof(u), typeof(s), typeof(l), typeof(m) "
            + "FROM lake.wide ORDER BY id";

    private static final String TABLE_STATS = "SELECT column_id, contains_null, min_value, max_value FROM lake_meta.ducklake_table_column_stats "
            + "ORDER BY ALL";

    @TempDir
    Path temp;

    @Test
    void inlinedHugeintAndUhugeintKeepTheirRangeTypeAndStatsAsOnADuckDbFileCatalog()
            throws Exception
    {
        try (OracleLakes lakes = OracleLakes.open(temp, 100)) {
            lakes.both("CREATE TABLE lake.wide (id INTEGER, h HUGEINT, u UHUGEINT, s STRUCT(h HUGEINT, u UHUGEINT), l HUGEINT[], "
                    + "m MAP(VARCHAR, HUGEINT))");
            lakes.both("INSERT INTO lake.wide VALUES "
                    + "(1, " + HUGEINT_MIN + ", 0, {'h': " + HUGEINT_MIN + ", 'u': 0}, [" + HUGEINT_MIN + ", " + HUGEINT_MAX + "], MAP {'min': " + HUGEINT_MIN + "}), "
                    + "(2, " + HUGEINT_MAX + ", " + UHUGEINT_MAX + ", {'h': " + HUGEINT_MAX + ", 'u': " + UHUGEINT_MAX + "}, [NULL], "
                    + "MAP {'max': " + HUGEINT_MAX + ", 'null': NULL}), "
                    + "(3, NULL, NULL, NULL, NULL, NULL), "
                    + "(4, -1, " + TEN_TO_38 + ", {'h': NULL, 'u': " + TEN_TO_38 + "}, [], MAP {})");
            List<List<String>> rows = lakes.same(READ);
            assertThat(rows).hasSize(4);
            assertThat(rows.get(0).subList(0, 3)).containsExactly("1", HUGEINT_MIN, "0");
            assertThat(rows.get(1).subList(0, 3)).containsExactly("2", HUGEINT_MAX, UHUGEINT_MAX);
            assertThat(rows.get(3).get(2)).isEqualTo(TEN_TO_38);
            assertThat(rows.get(0).subList(6, 11)).containsExactly("HUGEINT", "UHUGEINT", "STRUCT(h HUGEINT, u UHUGEINT)", "HUGEINT[]",
                    "MAP(VARCHAR, HUGEINT)");

            // The inlined table holds them with their own types, not as DECIMAL(38,0).
            String inlinedColumns = "SELECT column_name, data_type FROM duckdb_columns() WHERE database_name = 'lake_meta' "
                    + "AND table_name LIKE 'ducklake_inlined_data_%' AND column_name IN ('h', 'u', 's', 'l', 'm') ORDER BY column_index";
            assertThat(lakes.same(inlinedColumns)).containsExactly(List.of("h", "HUGEINT"), List.of("u", "UHUGEINT"),
                    List.of("s", "STRUCT(h HUGEINT, u UHUGEINT)"), List.of("l", "HUGEINT[]"), List.of("m", "MAP(VARCHAR, HUGEINT)"));
            String inlinedTable = query(lakes.moraine(), "SELECT table_name FROM lake_meta.ducklake_inlined_data_tables").getFirst().getFirst();
            lakes.same("SELECT row_id, begin_snapshot, end_snapshot, h, u, s::VARCHAR, l::VARCHAR, m::VARCHAR FROM lake_meta." + inlinedTable
                    + " ORDER BY row_id");

            String stats = "SELECT c.column_name, s.contains_null, s.min_value, s.max_value FROM lake_meta.ducklake_table_column_stats s "
                    + "JOIN lake_meta.ducklake_column c USING (table_id, column_id) WHERE c.end_snapshot IS NULL ORDER BY c.column_id";
            assertThat(lakes.same(stats)).contains(List.of("h", "true", HUGEINT_MIN, HUGEINT_MAX), List.of("u", "true", "0", UHUGEINT_MAX));

            lakes.same("SELECT id FROM lake.wide WHERE u > " + HUGEINT_MAX + "::UHUGEINT ORDER BY id");
            lakes.same("SELECT id FROM lake.wide WHERE h = " + HUGEINT_MIN + " OR s.u = " + TEN_TO_38 + " ORDER BY id");
            lakes.same("SELECT min(h), max(h), min(u), max(u), sum(u) FROM lake.wide");

            // UPDATE and DELETE of inlined rows, and rows inserted after them.
            lakes.both("UPDATE lake.wide SET h = h + 1 WHERE id = 1");
            lakes.both("UPDATE lake.wide SET u = u - 1 WHERE id = 2");
            lakes.both("DELETE FROM lake.wide WHERE id = 4");
            lakes.both("INSERT INTO lake.wide (id, h, u) VALUES (5, " + HUGEINT_MAX + ", " + UHUGEINT_MAX + ")");
            assertThat(lakes.same(READ)).hasSize(4);
            lakes.same(stats);
            assertThat(lakes.same(READ.replace("FROM lake.wide", "FROM lake.wide AT (VERSION => 2)"))).hasSize(4);
        }
        // A fresh attach of both lakes reads the same.
        try (OracleLakes lakes = OracleLakes.open(temp, 100)) {
            assertThat(lakes.same(READ)).hasSize(4);
        }
    }

    @Test
    void duckLakesOwnFlushOfInlinedHugeintsWritesWhatItWritesOnADuckDbFileCatalog()
            throws Exception
    {
        try (OracleLakes lakes = OracleLakes.open(temp, 100)) {
            lakes.both("CREATE TABLE lake.f (id INTEGER, h HUGEINT, u UHUGEINT)");
            // DuckDB's Parquet writer turns both types into DOUBLE: values a double holds exactly read back on both catalogs.
            lakes.both("INSERT INTO lake.f VALUES (1, -1267650600228229401496703205376, 1329227995784915872903807060280344576), "
                    + "(2, 0, 0), (3, NULL, NULL), (4, 12345, 18446744073709551616)");
            String read = "SELECT id, h, u, typeof(h), typeof(u) FROM lake.f ORDER BY id";
            List<List<String>> inlined = lakes.same(read);
            lakes.same("SELECT table_name, rows_flushed FROM ducklake_flush_inlined_data('lake')");
            assertThat(lakes.same(read)).isEqualTo(inlined);
            lakes.same("SELECT column_id, value_count, null_count, min_value, max_value FROM lake_meta.ducklake_file_column_stats ORDER BY ALL");
            lakes.same("SELECT column_id, contains_null, min_value, max_value FROM lake_meta.ducklake_table_column_stats ORDER BY ALL");
            assertThat(parquetTypes(lakes.moraine(), temp.resolve("data"))).isEqualTo(parquetTypes(lakes.oracle(), temp.resolve("oracle-data")))
                    .contains(List.of("h", "DOUBLE"), List.of("u", "DOUBLE"));
        }
    }

    @Test
    void moraineFlushWritesEveryHugeintExactlyWithDuckLakesStatistics()
            throws Exception
    {
        String read = "SELECT id, h, u, s::VARCHAR, typeof(h), typeof(u) FROM lake.k ORDER BY id";
        List<List<String>> inlined;
        List<List<String>> tableStats;
        try (OracleLakes lakes = OracleLakes.open(temp, 100)) {
            lakes.both("CREATE TABLE lake.k (id INTEGER, h HUGEINT, u UHUGEINT, s STRUCT(h HUGEINT))");
            lakes.both("INSERT INTO lake.k VALUES (1, " + HUGEINT_MIN + ", 0, {'h': " + HUGEINT_MIN + "}), "
                    + "(2, " + HUGEINT_MAX + ", " + HUGEINT_MAX + ", {'h': " + HUGEINT_MAX + "}), (3, NULL, NULL, NULL), "
                    + "(4, " + TEN_TO_38 + ", " + TEN_TO_38 + ", {'h': NULL})");
            inlined = lakes.same(read);
            // DuckLake's own flush of the DuckDB-file catalog, for its file statistics (its DOUBLE columns cannot be read
            // back as these extremes: DuckDB refuses to cast -1.7e38 to HUGEINT).
            lakes.oracle().createStatement().execute("CALL ducklake_flush_inlined_data('lake')");
            tableStats = query(lakes.moraine(), TABLE_STATS);
        }
        flushWithMoraine();
        try (OracleLakes lakes = OracleLakes.open(temp, 100)) {
            assertThat(query(lakes.moraine(), read)).as("every value exactly as inlined").isEqualTo(inlined);
            assertThat(query(lakes.moraine(), "SELECT record_count FROM lake_meta.ducklake_data_file")).as("one file holds every row")
                    .containsExactly(List.of("4"));
            // The file's statistics as DuckLake's flush writes them: counts, and no bounds for either type.
            lakes.same("SELECT column_id, value_count, null_count, min_value, max_value FROM lake_meta.ducklake_file_column_stats ORDER BY ALL");
            // moraine's flush leaves the table's statistics as they were (DuckLake's own flush drops the bounds of both
            // columns there, since its file statistics have none).
            assertThat(query(lakes.moraine(), TABLE_STATS)).isEqualTo(tableStats).contains(List.of("2", "true", HUGEINT_MIN, HUGEINT_MAX));
            assertThat(parquetTypes(lakes.moraine(), temp.resolve("data"))).contains(List.of("h", "FIXED_LEN_BYTE_ARRAY DECIMAL(38,0)"),
                    List.of("u", "FIXED_LEN_BYTE_ARRAY DECIMAL(38,0)"));
        }
    }

    @Test
    void moraineFlushRefusesAUhugeintFrom2To127OnAndLeavesTheRowsInlined()
            throws Exception
    {
        String read = "SELECT id, u FROM lake.big ORDER BY id";
        List<List<String>> inlined;
        try (OracleLakes lakes = OracleLakes.open(temp, 100)) {
            lakes.both("CREATE TABLE lake.big (id INTEGER, u UHUGEINT)");
            lakes.both("INSERT INTO lake.big VALUES (1, " + UHUGEINT_MAX + "), (2, 1)");
            inlined = lakes.same(read);
        }
        assertThatThrownBy(this::flushWithMoraine)
                .isInstanceOf(UnsupportedFeatureException.class)
                .hasMessageContaining("UHUGEINT value " + UHUGEINT_MAX + " is 2^127 or more");
        try (OracleLakes lakes = OracleLakes.open(temp, 100)) {
            assertThat(lakes.same(read)).isEqualTo(inlined);
            assertThat(count(lakes.moraine(), "SELECT count(*) FROM lake_meta.ducklake_data_file")).isZero();
        }
    }

    @Test
    void anImportedLakeKeepsItsInlinedHugeintsWhole()
            throws Exception
    {
        String read = "SELECT id, h, u, s::VARCHAR, typeof(h), typeof(u), typeof(s) FROM lake.imported ORDER BY id";
        List<List<String>> source;
        try (Connection connection = ExtensionConnections.open()) {
            execute(connection, "LOAD ducklake");
            execute(connection, "ATTACH 'ducklake:" + temp.resolve("source.ducklake") + "' AS lake (DATA_PATH '" + temp.resolve("source-data")
                    + "/', DATA_INLINING_ROW_LIMIT 100)");
            execute(connection, "CREATE TABLE lake.imported (id INTEGER, h HUGEINT, u UHUGEINT, s STRUCT(u UHUGEINT))");
            execute(connection, "INSERT INTO lake.imported VALUES (1, " + HUGEINT_MIN + ", " + UHUGEINT_MAX + ", {'u': " + UHUGEINT_MAX + "}), "
                    + "(2, " + HUGEINT_MAX + ", " + TEN_TO_38 + ", {'u': NULL}), (3, NULL, NULL, NULL)");
            source = query(connection, read);
        }
        StoreUri store = StoreUri.parse(temp.resolve("imported").toString());
        CatalogImporter.importCatalog(DuckLakeSource.parse("ducklake:" + temp.resolve("source.ducklake")), store, Optional.empty(),
                CatalogImporter.Progress.SILENT);
        try (Connection connection = ExtensionConnections.open()) {
            execute(connection, "LOAD ducklake");
            execute(connection, "ATTACH 'ducklake:moraine:" + temp.resolve("imported") + "' AS lake (METADATA_CATALOG 'lake_meta')");
            assertThat(query(connection, read)).isEqualTo(source).hasSize(3);
            assertThat(query(connection, "SELECT column_name, data_type FROM duckdb_columns() WHERE database_name = 'lake_meta' "
                    + "AND table_name LIKE 'ducklake_inlined_data_%' AND column_name IN ('h', 'u', 's') ORDER BY column_index"))
                    .containsExactly(List.of("h", "HUGEINT"), List.of("u", "UHUGEINT"), List.of("s", "STRUCT(u UHUGEINT)"));
        }
    }

    private void flushWithMoraine()
            throws Exception
    {
        try (MoraineCatalog catalog = MoraineCatalog.open(StoreUri.parse(temp.resolve("store").toString()), OpenMode.READ_WRITE)) {
            InlineFlusher.flush(catalog, Optional.empty(), LocalFileSystem.INSTANCE);
        }
    }

    /** Each user column of the lake's data files with its Parquet type (and logical type, if any). */
    private static List<List<String>> parquetTypes(java.sql.Connection connection, Path dataPath)
            throws Exception
    {
        return query(connection, "SELECT DISTINCT name, type || coalesce(' ' || CASE WHEN logical_type LIKE 'DecimalType%' "
                + "THEN 'DECIMAL(' || precision || ',' || scale || ')' END, '') FROM parquet_schema('" + dataPath + "/**/*.parquet') "
                + "WHERE name IN ('id', 'h', 'u') ORDER BY ALL");
    }
}
