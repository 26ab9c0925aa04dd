package io.moraine.core.write.files;


import io.moraine.core.catalog.LakeSchema;
import io.moraine.core.catalog.LakeTable;
import io.moraine.core.catalog.PartitionSpec;
import io.moraine.core.catalog.TableDefinition;
import io.moraine.core.io.LocalFileSystem;
import io.moraine.core.io.ParquetReaders;
import io.moraine.core.row.ColumnNode;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.types.DuckLakeType;
import io.moraine.core.types.DuckLakeValues;
import io.moraine.core.types.PrimitiveKind;
import io.moraine.core.types.TableColumn;
import io.moraine.core.types.TableSchema;
import io.moraine.testing.DuckDbTesting;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * DuckDB 1.5.5 + DuckLake writes data files into a DuckDB-file catalog, for tables of every type DuckLake writes and
 * partitioned tables of every transform; for every file it wrote, {@link ParquetFileStatistics#fromFooter} on the
 * footer parquet-java reads must give DuckDB's {@code ducklake_file_column_stats} rows field for field,
 * {@link ParquetFooters} its {@code footer_size}, and {@link DataFileLayout} the file's Parquet schema (names, field
 * ids, repetition, physical and logical types), its hive directory and its partition values. The only differences
 * allowed are the ones {@link ParquetFileStatistics} documents, each listed here as it is met.
 */
class DataFileOracleTest
{
    private final List<String> failures = new ArrayList<>();
    private final List<String> expectedDifferences = new ArrayList<>();
    private int statComparisons;
    private int schemaComparisons;
    private int layoutComparisons;
    private int files;

    @Test
    void duckDbFilesAgreeWithTheCore(@TempDir Path directory)
            throws Exception
    {
        Path dataPath = directory.resolve("data");
        try (Connection connection = DuckDbTesting.openWithDuckLake(); Statement statement = connection.createStatement()) {
            statement.execute("SET TimeZone = 'UTC'");
            statement.execute("ATTACH 'ducklake:" + directory.resolve("lake.ducklake") + "' AS lake (DATA_PATH '" + dataPath + "/', DATA_INLINING_ROW_LIMIT 0)");
            writeTables(statement);
            Map<String, String> options = globalOptions(statement);
            try (ResultSet tables = query(statement, "SELECT t.table_id, t.table_name, t.path, t.path_is_relative, s.schema_id, s.path, s.path_is_relative "
                    + "FROM __ducklake_metadata_lake.ducklake_table t JOIN __ducklake_metadata_lake.ducklake_schema s USING (schema_id) "
                    + "WHERE t.end_snapshot IS NULL ORDER BY t.table_id")) {
                List<Object[]> rows = new ArrayList<>();
                while (tables.next()) {
                    rows.add(new Object[] {tables.getLong(1), tables.getString(2), tables.getString(3), tables.getBoolean(4), tables.getLong(5),
                            tables.getString(6), tables.getBoolean(7)});
                }
                for (Object[] table : rows) {
                    LakeSchema schema = new LakeSchema((Long) table[4], new UUID(0, 0), "main", Optional.of((String) table[5]), (Boolean) table[6]);
                    LakeTable lakeTable = new LakeTable((Long) table[0], new UUID(0, 0), schema, (String) table[1], Optional.of((String) table[2]), (Boolean) table[3]);
                    checkTable(connection, lakeTable, dataPath + "/", options);
                }
            }
        }
        System.out.printf("DataFileOracleTest: %d files, %d statistics fields, %d schema nodes, %d layout comparisons, %d expected differences%n",
                files, statComparisons, schemaComparisons, layoutComparisons, expectedDifferences.size());
        expectedDifferences.forEach(difference -> System.out.println("  expected difference: " + difference));
        assertThat(failures).as("differences from DuckDB").isEmpty();
        assertThat(files).as("data files compared").isGreaterThanOrEqualTo(60);
        assertThat(statComparisons).as("statistics fields compared").isGreaterThanOrEqualTo(2000);
        assertThat(schemaComparisons).as("schema nodes compared").isGreaterThanOrEqualTo(300);
        assertThat(layoutComparisons).as("layout comparisons").isGreaterThanOrEqualTo(400);
        assertThat(expectedDifferences).as("the documented differences were met (NaN bounds)").isNotEmpty();
    }

    private static void writeTables(Statement statement)
            throws SQLException
    {
        statement.execute("""
                CREATE TABLE lake.scalars (b BOOLEAN, i8 TINYINT, i16 SMALLINT, i32 INTEGER, i64 BIGINT, h HUGEINT, u8 UTINYINT, u16 USMALLINT,
                  u32 UINTEGER, u64 UBIGINT, uh UHUGEINT, f FLOAT, d DOUBLE, d4 DECIMAL(4,1), d9 DECIMAL(9,2), d18 DECIMAL(18,3), d20 DECIMAL(20,2),
                  d38 DECIMAL(38,5), dt DATE, tm TIME, ts TIMESTAMP, tss TIMESTAMP_S, tsms TIMESTAMP_MS, tsns TIMESTAMP_NS, tz TIMESTAMPTZ, ttz TIMETZ,
                  iv INTERVAL, v VARCHAR, bl BLOB, u UUID, j JSON, allnull INTEGER)""");
        statement.execute("""
                INSERT INTO lake.scalars VALUES
                (false, -128, -32768, -2147483648, -9223372036854775808, -170141183460469231731687303715884105728, 0, 0, 0, 0, 0, -1.5, -2.25,
                 -999.9, -9999999.99, -999999999999999.999, -999999999999999999.99, -123456789012345678901234567890123.45678, DATE '1970-01-01',
                 TIME '00:00:00', TIMESTAMP '1970-01-01 00:00:00', TIMESTAMP_S '1970-01-01 00:00:00', TIMESTAMP_MS '1970-01-01 00:00:00',
                 TIMESTAMP_NS '1970-01-01 00:00:00', TIMESTAMPTZ '1970-01-01 00:00:00+00', TIMETZ '00:00:00+00', INTERVAL 1 DAY, '', ''::BLOB,
                 '00000000-0000-0000-0000-000000000000', '[]', NULL),
                (true, 127, 32767, 2147483647, 9223372036854775807, 170141183460469231731687303715884105727, 255, 65535, 4294967295,
                 18446744073709551615, 340282366920938463463374607431768211455, 3.25, 1e300, 999.9, 9999999.99, 999999999999999.999,
                 999999999999999999.99, 123456789012345678901234567890123.45678, DATE '2262-04-11', TIME '23:59:59.999999',
                 TIMESTAMP '2262-04-11 23:47:16.854775', TIMESTAMP_S '2262-04-11 23:47:16', TIMESTAMP_MS '2262-04-11 23:47:16.854',
                 TIMESTAMP_NS '2262-04-11 23:47:16.8547758', TIMESTAMPTZ '2024-06-30 23:59:59.123+05:30', TIMETZ '23:59:59+05:30',
                 INTERVAL '1 year 2 months', 'zz', '\\xFF\\xFF'::BLOB, 'ffffffff-ffff-ffff-ffff-ffffffffffff', '{"k": [1, 2]}', NULL),
                (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                 NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)""");
        statement.execute("""
                INSERT INTO lake.scalars VALUES
                (true, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0.1, 0.1, 0.5, 1.25, 2.125, 3.5, 4.00001, DATE '2024-02-29', TIME '10:00:00.5',
                 TIMESTAMP '2024-01-01 10:00:00.5', TIMESTAMP_S '2024-01-01 10:00:00', TIMESTAMP_MS '2024-01-01 10:00:00.12',
                 TIMESTAMP_NS '2024-01-01 10:00:00.5', TIMESTAMPTZ '2024-01-01 10:00:00.000001-08', TIMETZ '10:00:00-08', INTERVAL 90 MINUTE,
                 'héllo wörld', '\\x00\\x41'::BLOB, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '{"a": "é"}', NULL),
                (true, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 123456.79, 123456.789, 0.5, 1.25, 2.125, 3.5, 4.00001, DATE '0001-01-01', TIME '10:00:00.000001',
                 TIMESTAMP '1900-01-01 00:00:00.000001', TIMESTAMP_S '1900-01-01 00:00:00', TIMESTAMP_MS '1900-01-01 00:00:00.001',
                 TIMESTAMP_NS '1900-01-01 00:00:00.000000001', TIMESTAMPTZ '1900-01-01 00:00:00+00', TIMETZ '10:00:00', INTERVAL 0 DAY,
                 'a', '\\x7F'::BLOB, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a12', 'null', NULL)""");
        statement.execute("INSERT INTO lake.scalars (allnull) VALUES (NULL), (NULL)");

        statement.execute("CREATE TABLE lake.floats (f FLOAT, d DOUBLE)");
        String[][] floatFiles = {
                {"0.1", "1e10"}, {"1e16", "1e-5"}, {"1.5e-7", "123456.789"}, {"1e20", "-1e-20"}, {"0.0", "1.0"}, {"-1.0", "0.0"},
                {"'inf'", "'-inf'"}, {"3.4e38", "1e-300"}, {"0.3", "2.5"}, {"100.0", "1e15"}, {"0.0001", "0.00001"}, {"NULL", "NULL"},
                {"'nan'", "1.5"}, {"'nan'", "'nan'"}, {"'inf'", "'nan'"}, {"-0.0", "-2.0"}};
        for (String[] values : floatFiles) {
            statement.execute("INSERT INTO lake.floats VALUES (" + values[0] + ", " + values[0] + "), (" + values[1] + ", " + values[1] + ")");
        }

        statement.execute("CREATE TABLE lake.strings (v VARCHAR, bl BLOB, j JSON)");
        statement.execute("INSERT INTO lake.strings VALUES (repeat('z', 300), repeat('\\xFE'::BLOB, 300), '\"' || repeat('z', 300) || '\"'), ('a', '\\x00'::BLOB, '1')");
        statement.execute("INSERT INTO lake.strings VALUES (repeat('a', 255) || 'é' || 'x', repeat('\\xFF'::BLOB, 300), NULL), "
                + "(repeat('a', 254) || 'é' || repeat('b', 10), repeat('\\x01'::BLOB, 257), NULL)");
        statement.execute("INSERT INTO lake.strings VALUES (repeat('é', 200), NULL, NULL), ('b', NULL, NULL)");
        statement.execute("INSERT INTO lake.strings VALUES ('a' || repeat(chr(127), 300), NULL, NULL), ('a', NULL, NULL)");
        statement.execute("INSERT INTO lake.strings VALUES ('x' || chr(0) || 'y', NULL, NULL), ('zz', NULL, NULL)");
        statement.execute("INSERT INTO lake.strings VALUES ('日本語', NULL, NULL), ('Ünïcödé', NULL, NULL)");

        statement.execute("""
                CREATE TABLE lake.nested (st STRUCT(a INTEGER, b VARCHAR, sub STRUCT(x DOUBLE, y DATE)), l INTEGER[], ll INTEGER[][],
                  m MAP(VARCHAR, INTEGER), ls STRUCT(x INTEGER, y VARCHAR)[], ml MAP(INTEGER, VARCHAR[]), empty INTEGER[], never STRUCT(a INTEGER))""");
        statement.execute("""
                INSERT INTO lake.nested VALUES
                ({'a': 1, 'b': 'x', 'sub': {'x': 1.5, 'y': DATE '2024-01-01'}}, [1, 2, NULL], [[1], [], NULL, [2, 3]], MAP {'k': 1, 'l': NULL},
                 [{'x': 1, 'y': 'a'}, NULL, {'x': NULL, 'y': 'b'}], MAP {1: ['a', NULL], 2: []}, [], NULL),
                (NULL, NULL, NULL, NULL, NULL, NULL, [], NULL),
                ({'a': NULL, 'b': NULL, 'sub': NULL}, [], [], MAP {}, [], MAP {}, [], NULL),
                ({'a': -5, 'b': 'zz', 'sub': {'x': 'nan', 'y': NULL}}, [7], [[NULL]], MAP {'a': 9}, [NULL], MAP {3: NULL}, [], NULL)""");
        statement.execute("INSERT INTO lake.nested (l) VALUES ([10, 20]), (NULL), ([])");

        statement.execute("CREATE TABLE lake.big (i BIGINT, v VARCHAR, d DOUBLE, s STRUCT(a INTEGER))");
        statement.execute("INSERT INTO lake.big SELECT i, 'v' || (i % 1000), CASE WHEN i % 7 = 0 THEN NULL ELSE i / 3 END, {'a': i % 5} FROM range(300000) t(i)");

        statement.execute("CREATE TABLE lake.p_identity (s VARCHAR, n INTEGER, ts TIMESTAMP, x INTEGER)");
        statement.execute("ALTER TABLE lake.p_identity SET PARTITIONED BY (s, n, ts)");
        statement.execute("""
                INSERT INTO lake.p_identity VALUES ('a b/c', 1, TIMESTAMP '2024-03-05 10:00:00', 1), ('ü=%?#&', NULL, NULL, 2), (NULL, -3, TIMESTAMP '2024-03-05 10:00:00.5', 3),
                ('', 4, TIMESTAMP '1999-12-31 23:59:59', 4), ('a b/c', 1, TIMESTAMP '2024-03-05 10:00:00', 5), ('plain', 0, TIMESTAMP '2024-01-01', 6)""");
        statement.execute("CREATE TABLE lake.p_time (ts TIMESTAMP, tz TIMESTAMPTZ, dt DATE, x INTEGER)");
        statement.execute("ALTER TABLE lake.p_time SET PARTITIONED BY (year(ts), month(ts), day(ts), hour(ts), year(tz), month(dt))");
        statement.execute("""
                INSERT INTO lake.p_time VALUES (TIMESTAMP '2024-03-05 10:30:00', TIMESTAMPTZ '2024-12-31 23:30:00+00', DATE '2024-02-29', 1),
                (TIMESTAMP '2023-12-31 23:59:59', TIMESTAMPTZ '2023-01-01 00:00:00+00', DATE '2023-11-01', 2), (NULL, NULL, NULL, 3),
                (TIMESTAMP '1969-07-20 20:17:40', TIMESTAMPTZ '1969-07-20 20:17:40+00', DATE '1969-07-20', 4),
                (TIMESTAMP '2024-03-05 10:59:59', TIMESTAMPTZ '2024-12-31 23:59:59+00', DATE '2024-02-01', 5)""");
        statement.execute("CREATE TABLE lake.p_bucket (id INTEGER, s VARCHAR, b BIGINT)");
        statement.execute("ALTER TABLE lake.p_bucket SET PARTITIONED BY (bucket(4, id), bucket(3, s), bucket(5, b))");
        statement.execute("INSERT INTO lake.p_bucket SELECT i, 'str' || i, i * 1000003 FROM range(40) t(i)");
        statement.execute("INSERT INTO lake.p_bucket VALUES (NULL, NULL, NULL), (-7, 'ünï', -9)");
        statement.execute("CREATE TABLE lake.p_nohive (k INTEGER, v VARCHAR)");
        statement.execute("ALTER TABLE lake.p_nohive SET PARTITIONED BY (k)");
        statement.execute("CALL lake.set_option('hive_file_pattern', false, table_name => 'p_nohive')");
        statement.execute("INSERT INTO lake.p_nohive VALUES (1, 'a'), (2, 'b'), (NULL, 'c')");
    }

    private static Map<String, String> globalOptions(Statement statement)
            throws SQLException
    {
        Map<String, String> options = new HashMap<>();
        try (ResultSet rows = query(statement, "SELECT key, value, scope, scope_id FROM __ducklake_metadata_lake.ducklake_metadata")) {
            while (rows.next()) {
                String scope = rows.getString(3);
                options.put((scope == null ? "" : scope + ":" + rows.getLong(4) + ":") + rows.getString(1), rows.getString(2));
            }
        }
        return options;
    }

    private void checkTable(Connection connection, LakeTable table, String dataPath, Map<String, String> options)
            throws Exception
    {
        List<ColumnNode> columnTree = columnTree(connection, table.id());
        TableSchema columns = TableSchema.of(columnTree);
        Optional<PartitionSpec> spec = partitionSpec(connection, table.id(), columnTree);
        TableDefinition definition = new TableDefinition(table, columns, spec, Optional.empty(), Map.of());
        String tablePath = table.resolvedPath(dataPath);
        DataFileLayout layout = DataFileLayout.of(tablePath, definition, false, key -> Optional.ofNullable(options.get("table:" + table.id() + ":" + key))
                .or(() -> Optional.ofNullable(options.get("schema:" + table.schema().id() + ":" + key)))
                .or(() -> Optional.ofNullable(options.get(key))));
        check(table.name(), "target file size", DataFileWriterSettings.DEFAULT_TARGET_FILE_SIZE, layout.settings().targetFileSizeBytes());
        check(table.name(), "roll over", spec.isEmpty(), layout.settings().rollOver());

        Map<Long, Map<Long, Map<String, Object>>> statsByFile = fileColumnStats(connection, table.id());
        Map<Long, List<String>> partitionValuesByFile = partitionValues(connection, table.id());
        try (Statement statement = connection.createStatement();
                ResultSet dataFiles = query(statement, "SELECT data_file_id, path, path_is_relative, footer_size, partition_id, file_size_bytes "
                        + "FROM __ducklake_metadata_lake.ducklake_data_file WHERE table_id = " + table.id() + " ORDER BY data_file_id")) {
            while (dataFiles.next()) {
                files++;
                long fileId = dataFiles.getLong(1);
                String path = dataFiles.getString(2);
                String where = table.name() + " file " + fileId;
                check(where, "path_is_relative", true, dataFiles.getBoolean(3));
                String location = tablePath + path;
                InputFile input = LocalFileSystem.INSTANCE.newInputFile(location, OptionalLong.empty());
                check(where, "footer_size", dataFiles.getLong(4), ParquetFooters.footerSize(input));
                ParquetMetadata footer;
                try (ParquetFileReader reader = ParquetReaders.open(input)) {
                    footer = reader.getFooter();
                }
                compareStatistics(where, columns, footer, statsByFile.getOrDefault(fileId, Map.of()));
                compareSchema(where, layout.schema(false), footer.getFileMetaData().getSchema());
                List<String> values = partitionValuesByFile.getOrDefault(fileId, List.of());
                DataFileTarget target = layout.target(values, false);
                check(where, "partition_id", dataFiles.getObject(5) == null ? OptionalLong.empty() : OptionalLong.of(dataFiles.getLong(5)), target.partitionId());
                String directory = path.contains("/") ? path.substring(0, path.lastIndexOf('/') + 1) : "";
                check(where, "hive directory", directory, target.hiveDirectory());
                check(where, "file name pattern", true, path.substring(directory.length()).matches("ducklake-[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\\.parquet"));
                check(where, "target file name pattern", true, target.path().substring(directory.length())
                        .matches("ducklake-[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\\.parquet"));
                check(where, "target location", tablePath + target.path(), target.location());
                if (spec.isPresent()) {
                    comparePartitionValuesOfRows(connection, where, location, columns, layout, values);
                }
            }
        }
    }

    private void compareStatistics(String where, TableSchema columns, ParquetMetadata footer, Map<Long, Map<String, Object>> expected)
    {
        List<FileColumnStatistics> actual = ParquetFileStatistics.fromFooter(footer, columns.columns());
        Map<Long, FileColumnStatistics> byId = new LinkedHashMap<>();
        actual.forEach(statistics -> byId.put(statistics.columnId(), statistics));
        check(where, "statistics column ids", expected.keySet().stream().sorted().toList(), List.copyOf(byId.keySet()));
        for (Map.Entry<Long, Map<String, Object>> entry : expected.entrySet()) {
            FileColumnStatistics ours = byId.get(entry.getKey());
            if (ours == null) {
                continue;
            }
            Map<String, Object> row = entry.getValue();
            TableColumn column = columns.column(entry.getKey()).orElseThrow();
            String at = where + " column " + column.name() + " (" + column.type().duckLakeName() + ")";
            compareField(at, "column_size_bytes", row.get("column_size_bytes"), ours.columnSizeBytes());
            compareField(at, "value_count", row.get("value_count"), ours.valueCount());
            compareField(at, "null_count", row.get("null_count"), ours.nullCount());
            compareField(at, "extra_stats", row.get("extra_stats"), ours.extraStats());
            boolean floating = column.type() instanceof DuckLakeType.Primitive primitive && primitive.kind().isFloatingPoint();
            Object duckMin = row.get("min_value");
            Object duckMax = row.get("max_value");
            if (floating && Boolean.TRUE.equals(row.get("contains_nan")) && ours.minValue() == null && ours.maxValue() == null && duckMin != null) {
                // ParquetFileStatistics: DuckDB's max is NaN when the file holds one; parquet-java drops such bounds.
                expectedDifferences.add(at + ": DuckDB min/max " + duckMin + "/" + duckMax + " of the non-NaN values, none from the footer (NaN bound dropped by parquet-java)");
                statComparisons += 2;
            }
            else {
                compareField(at, "min_value", duckMin, ours.minValue());
                compareField(at, "max_value", duckMax, ours.maxValue());
            }
            compareField(at, "contains_nan", row.get("contains_nan"), ours.containsNan());
        }
    }

    private void compareField(String where, String field, Object expected, Object actual)
    {
        statComparisons++;
        check(where, field, expected, actual);
    }

    private void compareSchema(String where, org.apache.parquet.schema.MessageType expected, org.apache.parquet.schema.MessageType actual)
    {
        check(where, "schema root", actual.getName(), expected.getName());
        compareFields(where, actual, expected);
    }

    /** {@code file} is DuckDB's node, {@code layout} the core's. */
    private void compareFields(String where, GroupType file, GroupType layout)
    {
        check(where + " " + file.getName(), "field count", file.getFieldCount(), layout.getFieldCount());
        for (int i = 0; i < Math.min(file.getFieldCount(), layout.getFieldCount()); i++) {
            Type fileField = file.getType(i);
            Type layoutField = layout.getType(i);
            String at = where + " field " + fileField.getName();
            schemaComparisons++;
            check(at, "name", fileField.getName(), layoutField.getName());
            check(at, "field id", fileField.getId(), layoutField.getId());
            check(at, "repetition", fileField.getRepetition(), layoutField.getRepetition());
            check(at, "logical type", fileField.getLogicalTypeAnnotation(), layoutField.getLogicalTypeAnnotation());
            check(at, "primitive", fileField.isPrimitive(), layoutField.isPrimitive());
            if (fileField.isPrimitive() && layoutField.isPrimitive()) {
                PrimitiveType filePrimitive = fileField.asPrimitiveType();
                PrimitiveType layoutPrimitive = layoutField.asPrimitiveType();
                check(at, "physical type", filePrimitive.getPrimitiveTypeName(), layoutPrimitive.getPrimitiveTypeName());
                check(at, "type length", filePrimitive.getTypeLength(), layoutPrimitive.getTypeLength());
            }
            else if (!fileField.isPrimitive() && !layoutField.isPrimitive()) {
                compareFields(at, fileField.asGroupType(), layoutField.asGroupType());
            }
        }
    }

    /** Every row of the file has the file's partition values, as the layout computes them from the row's column values. */
    private void comparePartitionValuesOfRows(Connection connection, String where, String location, TableSchema columns, DataFileLayout layout,
            List<String> fileValues)
            throws SQLException
    {
        try (Statement statement = connection.createStatement(); ResultSet rows = query(statement, "SELECT * FROM read_parquet('" + location + "', hive_partitioning = false)")) {
            while (rows.next()) {
                Map<Long, Object> values = new HashMap<>();
                for (TableColumn column : columns.columns()) {
                    values.put(column.columnId(), value(rows, column));
                }
                layoutComparisons++;
                check(where, "partition values of a row", fileValues, layout.partitionValues(values::get));
            }
        }
    }

    private static Object value(ResultSet rows, TableColumn column)
            throws SQLException
    {
        if (rows.getObject(column.name()) == null) {
            return null;
        }
        if (column.type().is(PrimitiveKind.TIMESTAMP)) {
            return rows.getObject(column.name(), LocalDateTime.class);
        }
        if (column.type().is(PrimitiveKind.TIMESTAMPTZ)) {
            return rows.getObject(column.name(), OffsetDateTime.class).toInstant();
        }
        if (column.type().is(PrimitiveKind.DATE)) {
            return rows.getObject(column.name(), java.time.LocalDate.class);
        }
        return DuckLakeValues.normalize(column.type(), rows.getObject(column.name())).orElseThrow();
    }

    private void check(String where, String what, Object expected, Object actual)
    {
        if (what.startsWith("partition") || what.startsWith("hive") || what.startsWith("target") || what.startsWith("file name")) {
            layoutComparisons++;
        }
        if (!Objects.equals(expected, actual)) {
            failures.add(where + ": " + what + " is " + visible(actual) + ", DuckDB " + visible(expected));
        }
    }

    private static String visible(Object value)
    {
        return value == null ? "null" : value.toString().replace("\0", "\\0");
    }

    private static List<ColumnNode> columnTree(Connection connection, long tableId)
            throws SQLException
    {
        List<Row> rows = new ArrayList<>();
        try (Statement statement = connection.createStatement();
                ResultSet columns = query(statement, "SELECT column_id, column_name, column_type, nulls_allowed, parent_column, column_order, initial_default "
                        + "FROM __ducklake_metadata_lake.ducklake_column WHERE table_id = " + tableId + " AND end_snapshot IS NULL ORDER BY column_id")) {
            while (columns.next()) {
                Map<String, Object> cells = new HashMap<>();
                cells.put("column_id", columns.getLong(1));
                cells.put("begin_snapshot", 0L);
                cells.put("table_id", tableId);
                cells.put("column_name", columns.getString(2));
                cells.put("column_type", columns.getString(3));
                cells.put("nulls_allowed", columns.getBoolean(4));
                cells.put("parent_column", columns.getObject(5) == null ? null : columns.getLong(5));
                cells.put("column_order", columns.getLong(6));
                cells.put("initial_default", columns.getString(7));
                rows.add(Row.ofMap(TableKind.COLUMN, cells));
            }
        }
        return ColumnNode.assemble(rows);
    }

    private static Optional<PartitionSpec> partitionSpec(Connection connection, long tableId, List<ColumnNode> columnTree)
            throws SQLException
    {
        List<Row> rows = new ArrayList<>();
        Long partitionId = null;
        try (Statement statement = connection.createStatement();
                ResultSet keys = query(statement, "SELECT c.partition_id, c.partition_key_index, c.column_id, c.transform "
                        + "FROM __ducklake_metadata_lake.ducklake_partition_column c JOIN __ducklake_metadata_lake.ducklake_partition_info i "
                        + "USING (partition_id, table_id) WHERE c.table_id = " + tableId + " AND i.end_snapshot IS NULL")) {
            while (keys.next()) {
                partitionId = keys.getLong(1);
                rows.add(Row.of(TableKind.PARTITION_COLUMN, keys.getLong(1), tableId, keys.getLong(2), keys.getLong(3), keys.getString(4)));
            }
        }
        return partitionId == null ? Optional.empty() : Optional.of(PartitionSpec.of(partitionId, rows, columnTree));
    }

    private static Map<Long, Map<Long, Map<String, Object>>> fileColumnStats(Connection connection, long tableId)
            throws SQLException
    {
        Map<Long, Map<Long, Map<String, Object>>> byFile = new HashMap<>();
        try (Statement statement = connection.createStatement();
                ResultSet stats = query(statement, "SELECT data_file_id, column_id, column_size_bytes, value_count, null_count, min_value, max_value, "
                        + "contains_nan, extra_stats FROM __ducklake_metadata_lake.ducklake_file_column_stats WHERE table_id = " + tableId)) {
            while (stats.next()) {
                Map<String, Object> row = new HashMap<>();
                row.put("column_size_bytes", (Long) stats.getObject(3));
                row.put("value_count", (Long) stats.getObject(4));
                row.put("null_count", (Long) stats.getObject(5));
                row.put("min_value", stats.getString(6));
                row.put("max_value", stats.getString(7));
                row.put("contains_nan", (Boolean) stats.getObject(8));
                row.put("extra_stats", stats.getString(9));
                byFile.computeIfAbsent(stats.getLong(1), ignored -> new HashMap<>()).put(stats.getLong(2), row);
            }
        }
        return byFile;
    }

    private static Map<Long, List<String>> partitionValues(Connection connection, long tableId)
            throws SQLException
    {
        Map<Long, List<String>> byFile = new HashMap<>();
        try (Statement statement = connection.createStatement();
                ResultSet values = query(statement, "SELECT data_file_id, partition_key_index, partition_value FROM "
                        + "__ducklake_metadata_lake.ducklake_file_partition_value WHERE table_id = " + tableId + " ORDER BY data_file_id, partition_key_index")) {
            while (values.next()) {
                byFile.computeIfAbsent(values.getLong(1), ignored -> new ArrayList<>()).add(values.getString(3));
            }
        }
        return byFile;
    }

    private static ResultSet query(Statement statement, String sql)
            throws SQLException
    {
        return statement.executeQuery(sql);
    }
}
