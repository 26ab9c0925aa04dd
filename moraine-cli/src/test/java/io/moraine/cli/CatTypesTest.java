package io.moraine.cli;

import io.moraine.cli.DuckLakeAnswers.Answer;
import io.moraine.core.store.StoreUri;
import io.moraine.cli.DuckLakeAnswers.Answer;
import io.moraine.importer.CatalogImporter;
import io.moraine.importer.DuckLakeSource;
import io.moraine.testing.DuckLakeOracle;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code bin/moraine cat} prints every DuckLake type as DuckDB does, edge values included (NULLs, empty and quoted
 * strings inside nested values, BC dates, infinities, NaN, negative intervals, unsigned and 128-bit integers), read
 * once from a Parquet file and once from inlined rows.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CatTypesTest
{
    private static final String COLUMNS = "b BOOLEAN, i8 TINYINT, i16 SMALLINT, i32 INTEGER, i64 BIGINT, i128 HUGEINT, "
            + "u8 UTINYINT, u16 USMALLINT, u32 UINTEGER, u64 UBIGINT, u128 UHUGEINT, f32 FLOAT, f64 DOUBLE, "
            + "d41 DECIMAL(4, 1), d183 DECIMAL(18, 3), d3810 DECIMAL(38, 10), dt DATE, t TIME, ttz TIMETZ, ts TIMESTAMP, "
            + "ts_s TIMESTAMP_S, ts_ms TIMESTAMP_MS, ts_ns TIMESTAMP_NS, tstz TIMESTAMPTZ, iv INTERVAL, s VARCHAR, bl BLOB, "
            + "j JSON, u UUID, strings VARCHAR[], stamps TIMESTAMP[], waits INTERVAL[], amounts DECIMAL(9, 2)[], reals DOUBLE[], "
            + "nested STRUCT(\"a b\" VARCHAR, \"it's\" INTEGER[], m MAP(VARCHAR, INTEGER)), lists INTEGER[][], "
            + "by_key MAP(INTEGER, VARCHAR), records STRUCT(x INTEGER, y VARCHAR)[]";

    /** The rows, with two TIMETZ values put in. */
    private static final List<String> ROWS = List.of(
            "(true, -128, -32768, -2147483648, -9223372036854775808, -1180591620717411303424, "
                    + "0, 0, 0, 0, 0, 0.1, 0.1, -1.5, 0.001, -12345678901234567890.0123456789, DATE '2024-01-15', TIME '01:02:03.25', "
                    + "%1$s, TIMESTAMP '2024-01-15 12:30:00.123456', TIMESTAMP_S '2024-01-15 12:30:01', "
                    + "TIMESTAMP_MS '2024-01-15 12:30:00.5', TIMESTAMP_NS '2024-01-15 12:30:00.123456789', "
                    + "TIMESTAMPTZ '2024-01-15 12:30:00.1+02', INTERVAL '1 year 2 months 3 days 04:05:06.789', '', '\\x00\\xFF'::BLOB, "
                    + "'{\"a\": [1, 2]}', '00000000-0000-0000-0000-000000000001', ['', 'a b', 'x,y', NULL, 'NULL', 'it''s', ' lead', 'trail '], "
                    + "[TIMESTAMP '2020-01-01 00:00:00'], [INTERVAL 1 DAY, INTERVAL 1 HOUR], [1.50, -0.01], [1e20, 0.5, -0.0], "
                    + "{'a b': 'x:y', 'it''s': [1, NULL], 'm': MAP {'k=v': 1, '': NULL}}, [[1, 2], [], NULL], MAP {1: 'one', 2: NULL}, "
                    + "[{'x': 1, 'y': 'a'}, NULL])",
            "(false, 127, 32767, 2147483647, 9223372036854775807, 1180591620717411303424, "
                    + "255, 65535, 4294967295, 18446744073709551615, 42, 'nan', 'inf', 99.9, "
                    + "-999999999999999.999, 0, DATE '0001-01-01' - 1, TIME '23:59:59.999999', %2$s, "
                    + "TIMESTAMP '0001-01-01 00:00:00' - INTERVAL 1 DAY, TIMESTAMP_S '1970-01-01 00:00:00', TIMESTAMP_MS '1969-12-31 23:59:59.999', "
                    + "TIMESTAMP_NS '1969-12-31 23:59:59.999999999', TIMESTAMPTZ '1900-01-01 00:00:00+00', INTERVAL '14 months 40 days 25:00:00.5', "
                    + "'null', 'a''b\"c\\x5Cd~'::BLOB, '[]', 'ffffffff-ffff-ffff-ffff-ffffffffffff', [], [], [], [], [], "
                    + "{'a b': NULL, 'it''s': [], 'm': MAP {}}, [], MAP {}, [])",
            "(NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 1e-5, 1e16, NULL, NULL, NULL, 'infinity', NULL, NULL, "
                    + "'infinity', NULL, NULL, NULL, '-infinity', INTERVAL 0 DAY, 'a,b\"c\nd', NULL, NULL, NULL, NULL, NULL, NULL, NULL, "
                    + "['nan'::DOUBLE, 'inf'::DOUBLE, 1e-7, 123456789.0], NULL, NULL, NULL, NULL)",
            "(NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 3.4e38, -1.5e300, NULL, NULL, NULL, '-infinity', NULL, NULL, "
                    + "'-infinity', NULL, NULL, NULL, 'infinity', INTERVAL 90000 SECOND, 'ünï ☃', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "
                    + "NULL, NULL, NULL)");

    @TempDir
    static Path directory;

    private DuckLakeOracle oracle;
    private StoreUri store;
    private List<Answer> answers;

    @BeforeAll
    void setUp()
            throws Exception
    {
        oracle = DuckLakeOracle.create(directory.resolve("lake"), DuckLakeOracle.CatalogDatabase.DUCKDB);
        oracle.execute("CREATE TABLE lake.main.in_files (" + COLUMNS + ")");
        oracle.execute("CREATE TABLE lake.main.inlined (" + COLUMNS + ")");
        // Three copies of the rows are more than the inlining limit of ten: a Parquet file.
        oracle.execute("INSERT INTO lake.main.in_files SELECT v.* FROM (VALUES " + rows("TIMETZ '01:02:03+05:30'", "TIMETZ '23:59:59-08'") + ") v, range(3)");
        // The import keeps only the time of an inlined TIMETZ (DuckDB's Arrow export drops the offset): UTC ones survive.
        oracle.execute("INSERT INTO lake.main.inlined VALUES " + rows("TIMETZ '01:02:03+00'", "TIMETZ '23:59:59+00'"));
        // Parquet cannot hold negative intervals; inlined rows can.
        oracle.execute("INSERT INTO lake.main.inlined (iv) VALUES (INTERVAL '-1 year -2 months -3 days -04:05:06.789'), (INTERVAL '-1 microsecond')");
        // The same rows in a file DuckDB wrote outside the lake (no field ids, two columns moved to the end) and added:
        // read through its name mapping.
        oracle.execute("CREATE TABLE lake.main.added (b BOOLEAN, i64 BIGINT, d183 DECIMAL(18, 3), dt DATE, ts TIMESTAMP, s VARCHAR, bl BLOB, "
                + "strings VARCHAR[], nested STRUCT(\"a b\" VARCHAR, \"it's\" INTEGER[], m MAP(VARCHAR, INTEGER)), lists INTEGER[][], "
                + "by_key MAP(INTEGER, VARCHAR), records STRUCT(x INTEGER, y VARCHAR)[])");
        Path outside = directory.resolve("outside.parquet");
        oracle.execute("COPY (SELECT records, nested, s, dt, by_key, lists, bl, ts, strings, d183, i64, b FROM lake.main.in_files) TO '" + outside
                + "' (FORMAT parquet)");
        oracle.execute("CALL ducklake_add_data_files('lake', 'added', '" + outside + "')");
        String copy = oracle.catalogCopy(directory.resolve("catalog-copy.ducklake"));
        store = StoreUri.parse(directory.resolve("store").toString());
        CatalogImporter.importCatalog(DuckLakeSource.parse(copy), store, Optional.empty(), CatalogImporter.Progress.SILENT);
        answers = DuckLakeAnswers.everyTableAtEverySnapshot(oracle);
    }

    private static String rows(String firstTimeWithOffset, String secondTimeWithOffset)
    {
        return String.join(", ", ROWS.stream().map(row -> row.formatted(firstTimeWithOffset, secondTimeWithOffset)).toList());
    }

    @AfterAll
    void tearDown()
            throws Exception
    {
        if (oracle != null) {
            oracle.close();
        }
    }

    @Test
    void valuesReadFromAParquetFilePrintAsDuckDbPrintsThem()
    {
        assertSameAsDuckDb("main.in_files");
    }

    @Test
    void valuesReadFromAFileAddedWithANameMappingPrintAsDuckDbPrintsThem()
    {
        assertSameAsDuckDb("main.added");
    }

    @Test
    void valuesReadFromInlinedRowsPrintAsDuckDbPrintsThem()
    {
        assertSameAsDuckDb("main.inlined");
    }

    private void assertSameAsDuckDb(String table)
    {
        Answer newest = answers.stream().filter(answer -> answer.table().equals(table)).reduce((first, second) -> second).orElseThrow();
        assertThat(newest.lines()).as("DuckDB's rows").hasSizeGreaterThan(ROWS.size());
        StringWriter out = new StringWriter();
        CatCommand.run(new String[] {"--store", store.toString(), table}, out);
        assertThat(DuckLakeAnswers.lines(out.toString())).containsExactlyElementsOf(newest.lines());
    }
}
