package io.moraine.duckdb.ext;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.inline.InlineArrow;
import io.moraine.core.keyspace.InlineKeys;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreUri;
import io.moraine.core.write.ColumnDefinition;
import io.moraine.core.write.InlinedArrowSchema;
import io.moraine.core.write.NewTable;
import org.apache.arrow.vector.PeriodDuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.Period;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.moraine.duckdb.ext.ExtensionConnections.execute;
import static io.moraine.duckdb.ext.WriteOracleStep.duckDbOnBoth;
import static io.moraine.duckdb.ext.WriteOracleStep.step;
import static io.moraine.core.write.ColumnDefinition.of;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The core's write API against DuckDB+DuckLake 1.5.5 ({@link WriteOracle}): the same workload written by DuckDB on a
 * DuckDB-file catalog and by the core on a moraine store leaves equal catalog rows, equal tables at every snapshot and
 * equal change feeds; then DuckDB keeps writing both and they stay equal. To extend it, add {@link WriteOracleStep}s to
 * {@link #CORE_STEPS} (each as DuckDB SQL and as core calls) or to {@link #DUCKDB_AFTERWARDS}, and raise the expected
 * counts.
 */
class CoreWriteOracleTest
{
    private static final String SCALAR_COLUMNS_SQL = "i8 TINYINT, i16 SMALLINT, i32 INTEGER NOT NULL, i64 BIGINT DEFAULT 42, i128 HUGEINT, u8 UTINYINT, "
            + "u16 USMALLINT, u32 UINTEGER, u64 UBIGINT, u128 UHUGEINT, f32 FLOAT, f64 DOUBLE, dec4 DECIMAL(4,1), dec9 DECIMAL(9,2), dec18 DECIMAL(18,3), "
            + "dec38 DECIMAL(38,5), d DATE, t TIME, ts TIMESTAMP, ts_s TIMESTAMP_S, ts_ms TIMESTAMP_MS, ts_ns TIMESTAMP_NS, tstz TIMESTAMPTZ, iv INTERVAL, "
            + "v VARCHAR, b BLOB, u UUID, bo BOOLEAN, j JSON";

    private static final List<ColumnDefinition> SCALAR_COLUMNS = List.of(of("i8", "int8"), of("i16", "int16"), of("i32", "int32").notNull(),
            of("i64", "int64").withDefault("42"), of("i128", "int128"), of("u8", "uint8"), of("u16", "uint16"), of("u32", "uint32"), of("u64", "uint64"),
            of("u128", "uint128"), of("f32", "float32"), of("f64", "float64"), of("dec4", "decimal(4,1)"), of("dec9", "decimal(9,2)"),
            of("dec18", "decimal(18,3)"), of("dec38", "decimal(38,5)"), of("d", "date"), of("t", "time"), of("ts", "timestamp"), of("ts_s", "timestamp_s"),
            of("ts_ms", "timestamp_ms"), of("ts_ns", "timestamp_ns"), of("tstz", "timestamptz"), of("iv", "interval"), of("v", "varchar"), of("b", "blob"),
            of("u", "uuid"), of("bo", "boolean"), of("j", "json"));

    private static final String MAX_ROW_SQL = "(127, 32767, 2147483647, 9223372036854775807, 170141183460469231731687303715884105727, 255, 65535, 4294967295, "
            + "18446744073709551615, 340282366920938463463374607431768211455, 3.25, 'inf'::DOUBLE, 999.9, 9999999.99, 999999999999999.999, "
            + "123456789012345678901234567890.12345, DATE '2024-02-29', TIME '23:59:59.999999', TIMESTAMP '2024-05-06 07:08:09.123456', "
            + "TIMESTAMP_S '2024-05-06 07:08:09', TIMESTAMP_MS '2024-05-06 07:08:09.123', TIMESTAMP_NS '2024-05-06 07:08:09.123456789', "
            + "TIMESTAMPTZ '2024-05-06 07:08:09.123456+00', INTERVAL '1 year 2 months 3 days 04:05:06.789', 'grüße, 世界 🦆', '\\xAA\\xBB'::BLOB, "
            + "'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', true, '{\"k\": [1, 2]}')";
    private static final List<Object> MAX_ROW = Arrays.asList(127, 32767, 2147483647, Long.MAX_VALUE, new BigInteger("170141183460469231731687303715884105727"),
            255, 65535, 4294967295L, new BigInteger("18446744073709551615"), new BigInteger("340282366920938463463374607431768211455"), 3.25f,
            Double.POSITIVE_INFINITY, new BigDecimal("999.9"), new BigDecimal("9999999.99"), new BigDecimal("999999999999999.999"),
            new BigDecimal("123456789012345678901234567890.12345"), LocalDate.of(2024, 2, 29), LocalTime.of(23, 59, 59, 999_999_000),
            LocalDateTime.of(2024, 5, 6, 7, 8, 9, 123_456_000), LocalDateTime.of(2024, 5, 6, 7, 8, 9), LocalDateTime.of(2024, 5, 6, 7, 8, 9, 123_000_000),
            LocalDateTime.of(2024, 5, 6, 7, 8, 9, 123_456_789), Instant.parse("2024-05-06T07:08:09.123456Z"),
            new PeriodDuration(Period.of(1, 2, 3), Duration.ofHours(4).plusMinutes(5).plusSeconds(6).plusMillis(789)), "grüße, 世界 🦆",
            new byte[] {(byte) 0xAA, (byte) 0xBB}, "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", true, "{\"k\": [1, 2]}");

    private static final String MIN_ROW_SQL = "(-128, -32768, -2147483648, -9223372036854775808, -170141183460469231731687303715884105728, 0, 0, 0, 0, 0, "
            + "'-inf'::FLOAT, 'nan'::DOUBLE, -999.9, -0.01, 0, -0.00001, DATE '1970-01-01', TIME '00:00:00', TIMESTAMP '1969-12-31 23:59:59.999999', "
            + "TIMESTAMP_S '1900-01-01 00:00:00', TIMESTAMP_MS '1970-01-01 00:00:00', TIMESTAMP_NS '1970-01-01 00:00:00.000000001', "
            + "TIMESTAMPTZ '1999-12-31 23:00:00-05', INTERVAL '-1 day', '', ''::BLOB, '00000000-0000-0000-0000-000000000000', false, '[]')";
    private static final List<Object> MIN_ROW = Arrays.asList(-128, -32768, Integer.MIN_VALUE, Long.MIN_VALUE,
            new BigInteger("-170141183460469231731687303715884105728"), 0, 0, 0, BigInteger.ZERO, BigInteger.ZERO, Float.NEGATIVE_INFINITY, Double.NaN,
            new BigDecimal("-999.9"), new BigDecimal("-0.01"), new BigDecimal("0.000"), new BigDecimal("-0.00001"), LocalDate.of(1970, 1, 1), LocalTime.MIDNIGHT,
            LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_000), LocalDateTime.of(1900, 1, 1, 0, 0), LocalDateTime.of(1970, 1, 1, 0, 0),
            LocalDateTime.of(1970, 1, 1, 0, 0, 0, 1), Instant.parse("2000-01-01T04:00:00Z"), new PeriodDuration(Period.ofDays(-1), Duration.ZERO), "",
            new byte[0], "00000000-0000-0000-0000-000000000000", false, "[]");

    private static final String NULL_ROW_SQL = "(NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "
            + "NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)";
    private static final List<Object> NULL_ROW = nullRow();

    private static List<Object> nullRow()
    {
        Object[] row = new Object[29];
        row[2] = 0;
        return Arrays.asList(row);
    }

    private static final String NESTED_SQL = "id INTEGER, st STRUCT(a INTEGER, b VARCHAR), li INTEGER[], mp MAP(VARCHAR, INTEGER), "
            + "deep STRUCT(x VARCHAR[], y MAP(INTEGER, STRUCT(q DOUBLE)))";
    private static final List<ColumnDefinition> NESTED_COLUMNS = List.of(of("id", "int32"),
            ColumnDefinition.struct("st", List.of(of("a", "int32"), of("b", "varchar"))),
            ColumnDefinition.list("li", of("element", "int32")),
            ColumnDefinition.map("mp", of("key", "varchar"), of("value", "int32")),
            ColumnDefinition.struct("deep", List.of(ColumnDefinition.list("x", of("element", "varchar")),
                    ColumnDefinition.map("y", of("key", "int32"), ColumnDefinition.struct("value", List.of(of("q", "float64")))))));

    private static final List<WriteOracleStep> CORE_STEPS = List.of(
            step("create schema", core -> core.tx().createSchema("s1"), "CREATE SCHEMA lake.s1"),
            step("create a table of every scalar type", core -> core.tx().createTable(NewTable.of("main", "scalars", SCALAR_COLUMNS)),
                    "CREATE TABLE lake.main.scalars (" + SCALAR_COLUMNS_SQL + ")"),
            step("insert extremes, NaN and infinities, NULLs", core -> core.insert("main", "scalars", List.of(MAX_ROW, MIN_ROW, NULL_ROW)),
                    "INSERT INTO lake.main.scalars VALUES " + MAX_ROW_SQL + ", " + MIN_ROW_SQL + ", " + NULL_ROW_SQL),
            step("create a table of nested types", core -> core.tx().createTable(NewTable.of("s1", "nested", NESTED_COLUMNS)),
                    "CREATE TABLE lake.s1.nested (" + NESTED_SQL + ")"),
            step("insert nested values", core -> core.insert("s1", "nested", List.of(
                            Arrays.asList(1, struct("a", 1, "b", "x"), Arrays.asList(1, 2, null), map("k1", 1, "k2", null),
                                    struct("x", Arrays.asList("p", null), "y", map(7, struct("q", 1.5)))),
                            Arrays.asList(2, null, null, null, null),
                            Arrays.asList(3, struct("a", null, "b", null), List.of(), map(), struct("x", List.of(), "y", map())))),
                    "INSERT INTO lake.s1.nested VALUES (1, {'a': 1, 'b': 'x'}, [1, 2, NULL], MAP {'k1': 1, 'k2': NULL}, {'x': ['p', NULL], 'y': MAP {7: {'q': 1.5}}}), "
                            + "(2, NULL, NULL, NULL, NULL), (3, {'a': NULL, 'b': NULL}, [], MAP {}, {'x': [], 'y': MAP {}})"),
            step("several inserts in one transaction", core -> core.insert("main", "scalars", List.of(MIN_ROW)).insert("main", "scalars", List.of(NULL_ROW, MAX_ROW))
                            .insert("s1", "nested", List.<List<Object>>of(Arrays.asList(4, struct("a", -4, "b", "vier"), List.of(4), map("four", 4), null))),
                    "BEGIN", "INSERT INTO lake.main.scalars VALUES " + MIN_ROW_SQL, "INSERT INTO lake.main.scalars VALUES " + NULL_ROW_SQL + ", " + MAX_ROW_SQL,
                    "INSERT INTO lake.s1.nested VALUES (4, {'a': -4, 'b': 'vier'}, [4], MAP {'four': 4}, NULL)", "COMMIT"),
            step("create a table with a comment", core -> core.tx().createTable(NewTable.of("s1", "commented", List.of(of("k", "int64"), of("note", "varchar")))
                            .withComment("a table's comment")),
                    "BEGIN", "CREATE TABLE lake.s1.commented (k BIGINT, note VARCHAR)", "COMMENT ON TABLE lake.s1.commented IS 'a table''s comment'", "COMMIT"),
            step("insert, then rename", core -> core.insertRows("s1", "commented", new Object[] {1L, "one"}, new Object[] {2L, null}),
                    "INSERT INTO lake.s1.commented VALUES (1, 'one'), (2, NULL)"),
            step("rename a table", core -> core.tx().renameTable("s1", "commented", "renamed"), "ALTER TABLE lake.s1.commented RENAME TO renamed"),
            step("insert into the renamed table", core -> core.insertRows("s1", "renamed", new Object[] {3L, "three"}),
                    "INSERT INTO lake.s1.renamed VALUES (3, 'three')"),
            step("create a table to drop", core -> core.createTable(NewTable.of("main", "doomed", List.of(of("x", "int32"))))
                            .insertRows("main", "doomed", new Object[] {1}, new Object[] {2}),
                    "BEGIN", "CREATE TABLE lake.main.doomed (x INTEGER)", "INSERT INTO lake.main.doomed VALUES (1), (2)", "COMMIT"),
            step("drop a table", core -> core.tx().dropTable("main", "doomed"), "DROP TABLE lake.main.doomed"),
            duckDbOnBoth("lower the inlining limit", "CALL lake.set_option('data_inlining_row_limit', 4)"),
            step("insert under the lowered limit", core -> core.insertRows("s1", "renamed", new Object[] {4L, "a"}, new Object[] {5L, "b"},
                            new Object[] {6L, "c"}, new Object[] {7L, "d"}),
                    "INSERT INTO lake.s1.renamed VALUES (4, 'a'), (5, 'b'), (6, 'c'), (7, 'd')"),
            step("comment on an existing table", core -> core.tx().setComment("s1", "renamed", "a note"), "COMMENT ON TABLE lake.s1.renamed IS 'a note'"),
            step("set a default", core -> core.tx().setColumnDefault("s1", "renamed", List.of("note"), "dflt"),
                    "ALTER TABLE lake.s1.renamed ALTER COLUMN note SET DEFAULT 'dflt'"),
            step("insert after setting a default", core -> core.insertRows("s1", "renamed", new Object[] {8L, "e"}),
                    "INSERT INTO lake.s1.renamed VALUES (8, 'e')"),
            step("add a column", core -> core.tx().addColumn("s1", "renamed", of("extra", "float64")), "ALTER TABLE lake.s1.renamed ADD COLUMN extra DOUBLE"),
            step("widen a column", core -> core.tx().setColumnType("s1", "renamed", List.of("k"), "int128"),
                    "ALTER TABLE lake.s1.renamed ALTER COLUMN k TYPE HUGEINT"),
            step("insert after the alters", core -> core.insertRows("s1", "renamed", new Object[] {new java.math.BigInteger("9"), "f", 9.5}),
                    "INSERT INTO lake.s1.renamed VALUES (9, 'f', 9.5)"),
            step("create a schema and a table in it and insert, in one transaction", core -> {
                        core.tx().createSchema("s2");
                        core.createTable(NewTable.of("s2", "fresh", List.of(of("id", "int32"), of("label", "varchar"))))
                                .insertRows("s2", "fresh", new Object[] {1, "uno"}, new Object[] {2, "dos"});
                    },
                    "BEGIN", "CREATE SCHEMA lake.s2", "CREATE TABLE lake.s2.fresh (id INTEGER, label VARCHAR)", "INSERT INTO lake.s2.fresh VALUES (1, 'uno'), (2, 'dos')",
                    "COMMIT"));

    /** What DuckDB writes afterwards on both lakes: the core-written one must take it as the DuckDB-written one does. */
    private static final List<WriteOracleStep> DUCKDB_AFTERWARDS = List.of(
            duckDbOnBoth("insert scalars", "INSERT INTO lake.main.scalars VALUES " + MAX_ROW_SQL),
            duckDbOnBoth("insert nested", "INSERT INTO lake.s1.nested VALUES (5, {'a': 5, 'b': 'five'}, [5, 5], MAP {'five': 5}, {'x': ['v'], 'y': MAP {}})"),
            duckDbOnBoth("delete inlined rows", "DELETE FROM lake.main.scalars WHERE i8 = -128"),
            duckDbOnBoth("update inlined rows", "UPDATE lake.s1.renamed SET note = 'changed' WHERE k <= 3"),
            duckDbOnBoth("add a column", "ALTER TABLE lake.s2.fresh ADD COLUMN extra DOUBLE"),
            duckDbOnBoth("insert after the alter", "INSERT INTO lake.s2.fresh VALUES (3, 'tres', 3.5)"),
            duckDbOnBoth("insert over the limit (a data file)", "INSERT INTO lake.s2.fresh SELECT i, 'n' || i, i / 2 FROM range(10, 20) t(i)"),
            duckDbOnBoth("drop a core-created table", "DROP TABLE lake.s1.nested"));

    @TempDir
    Path temp;

    @Test
    void theCoreWritesTheCatalogRowsDuckDbWrites()
            throws Exception
    {
        try (WriteOracle oracle = WriteOracle.create(temp, "DATA_INLINING_ROW_LIMIT 50")) {
            oracle.run(CORE_STEPS);
            assertThat(oracle.coreCommits()).isEqualTo(CORE_STEPS.stream().filter(WriteOracleStep::throughCore).count());
            WriteOracle.Comparisons written = oracle.compare();
            // Every step is a snapshot but set_option, which only writes ducklake_metadata.
            assertAtLeast(written, CORE_STEPS.size());

            oracle.run(DUCKDB_AFTERWARDS);
            WriteOracle.Comparisons continued = oracle.compare();
            assertAtLeast(continued, CORE_STEPS.size() + DUCKDB_AFTERWARDS.size());
            assertThat(continued.total()).isGreaterThan(written.total());
        }
    }

    /** Fails when fewer comparisons ran than the workload makes: each of {@code snapshots} (the lake's first one included) per table. */
    private static void assertAtLeast(WriteOracle.Comparisons comparisons, int snapshots)
    {
        int tableNames = 6; // main.scalars, s1.nested, s1.commented, s1.renamed, main.doomed, s2.fresh
        assertThat(comparisons.catalogTables()).as("ducklake_* tables compared").isGreaterThanOrEqualTo(28 + 5);
        assertThat(comparisons.tableSnapshots()).as("tables at snapshots compared").isEqualTo((long) snapshots * tableNames);
        assertThat(comparisons.changeFeeds()).as("change feeds compared").isEqualTo((long) snapshots * tableNames);
        assertThat(comparisons.tableRows()).as("rows compared").isGreaterThan(100);
        assertThat(comparisons.changeRows()).as("change rows compared").isGreaterThan(20);
    }

    /** InlinedArrowSchema is the Arrow schema DuckDB registers for an inlined-data table, for every type. */
    @Test
    void inlinedArrowSchemaIsWhatDuckDbRegisters()
            throws Exception
    {
        Path store = temp.resolve("store");
        Path data = Files.createDirectories(temp.resolve("data"));
        try (Connection connection = ExtensionConnections.open()) {
            execute(connection, "LOAD ducklake");
            execute(connection, "ATTACH 'ducklake:moraine:" + store + "' AS lake (DATA_PATH '" + data + "/')");
            execute(connection, "CREATE TABLE lake.scalars (" + SCALAR_COLUMNS_SQL + ", tz TIMETZ)");
            execute(connection, "CREATE TABLE lake.nested (" + NESTED_SQL + ")");
            execute(connection, "INSERT INTO lake.scalars (i32) VALUES (1)");
            execute(connection, "INSERT INTO lake.nested (id) VALUES (1)");
        }
        int fields = 0;
        try (MoraineCatalog catalog = MoraineCatalog.open(StoreUri.parse(store.toString()), OpenMode.READ_ONLY);
                CatalogSnapshot head = catalog.latest()) {
            for (String name : List.of("scalars", "nested")) {
                var table = head.model().table("main", name).orElseThrow();
                long version = head.inlinedDataTables(table.id()).getFirst().getLong("schema_version");
                byte[] key = InlineKeys.schema(table.id(), version);
                var registered = InlineArrow.decodeSchema(key, head.reader().get(key));
                var core = InlinedArrowSchema.of(head.model().columns(table).columns());
                for (int i = 0; i < registered.getFields().size(); i++) {
                    assertThat(core.getFields().get(i)).as(name + " column " + i).isEqualTo(registered.getFields().get(i));
                    fields++;
                }
                assertThat(core.getFields()).hasSameSizeAs(registered.getFields());
            }
        }
        assertThat(fields).isEqualTo(30 + 5);
    }

    /** A struct value: field names and values alternating (NULLs allowed). */
    private static Map<String, Object> struct(Object... namesAndValues)
    {
        Map<String, Object> struct = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            struct.put((String) namesAndValues[i], namesAndValues[i + 1]);
        }
        return struct;
    }

    /** A map value: keys and values alternating, in order. */
    private static Map<Object, Object> map(Object... keysAndValues)
    {
        Map<Object, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }
}
