package io.moraine.spark;

import io.moraine.testing.DuckDbOverStore;

import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.catalog.NewCatalog;
import io.moraine.core.store.StoreOptions;
import io.moraine.core.store.StoreUri;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Spark's writes read by DuckDB through {@code ducklake:moraine:} (every column and the rowid, as Spark reads them),
 * and DuckDB's writes to the same tables read by Spark. DuckDB runs in a JVM of its own ({@link DuckDbOverStore}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestMoraineSparkDuckDbCrossReads
{
    private static final String COLUMNS = "id BIGINT, region STRING, amount DECIMAL(10,2), d DATE, ts TIMESTAMP, flag BOOLEAN, r DOUBLE, "
            + "s STRUCT<x: INT, y: STRING>, b BINARY";
    /** Each column as text, the same in both engines: timestamps as epoch micros, binaries as hex, struct fields apart. */
    private static final String SPARK_TEXT = "id, region, CAST(amount AS STRING), CAST(d AS STRING), unix_micros(ts), flag, r, s.x, s.y, hex(b), _row_id";
    private static final String DUCKDB_TEXT = "id, region, amount, d, epoch_us(ts), flag, r, s.x, s.y, hex(b), rowid";
    private static final List<String> TABLES = List.of("plain", "parted", "copied", "small", "small_parted");

    private SparkSession spark;
    private Path store;

    @BeforeAll
    void setUp()
            throws Exception
    {
        Path directory = Files.createTempDirectory("moraine-spark-duckdb");
        Path data = directory.resolve("data");
        Files.createDirectories(data);
        store = directory.resolve("store");
        StoreUri uri = StoreUri.parse(store.toString());
        try (MoraineCatalog ignored = MoraineCatalog.openOrCreate(uri, NewCatalog.bootstrapped(data + "/"), StoreOptions.DEFAULTS)) {
            // created
        }
        spark = SparkSessions.start(uri.toString(), Map.of());
    }

    @AfterAll
    void tearDown()
    {
        if (spark != null) {
            spark.stop();
        }
    }

    @Test
    void duckDbReadsSparksWritesAndSparkReadsDuckDbs()
            throws Exception
    {
        spark.sql("CREATE TABLE lake.main.plain (" + COLUMNS + ") TBLPROPERTIES ('data_inlining_row_limit' = '0')");
        spark.sql("CREATE TABLE lake.main.parted (" + COLUMNS + ") PARTITIONED BY (region, years(d)) TBLPROPERTIES ('data_inlining_row_limit' = '0')");
        for (String table : List.of("plain", "parted")) {
            spark.sql("INSERT INTO lake.main." + table + " VALUES "
                    + "(1, 'eu', 1.50, DATE'2024-01-02', TIMESTAMP'2024-01-02 03:04:05.123456', true, 1.5, named_struct('x', 1, 'y', 'p'), X'CAFE'), "
                    + "(2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL), "
                    + "(3, 'us', -2.25, DATE'1969-12-31', TIMESTAMP'1969-12-31 23:59:59.999999', false, -0.25, named_struct('x', NULL, 'y', 'q'), X'')");
            spark.range(100, 400).selectExpr("id", "CASE id % 3 WHEN 0 THEN 'eu' WHEN 1 THEN 'us' ELSE 'apac' END AS region",
                            "CAST(id / 4 AS DECIMAL(10,2)) AS amount", "date_add(DATE'2023-12-01', CAST(id AS INT)) AS d",
                            "timestamp_micros(id * 1000003) AS ts", "id % 2 = 0 AS flag", "id * 0.5 AS r",
                            "named_struct('x', CAST(id AS INT), 'y', concat('y', id)) AS s", "unhex(hex(id)) AS b")
                    .writeTo("lake.main." + table).append();
        }
        spark.sql("CREATE TABLE lake.main.copied TBLPROPERTIES ('data_inlining_row_limit' = '0') AS SELECT * FROM lake.main.parted WHERE id < 200");
        // Appends of at most 10 rows in all are inlined; 16 rows held by 4 tasks of 4 go to a file the driver writes.
        spark.sql("CREATE TABLE lake.main.small (" + COLUMNS + ") TBLPROPERTIES ('data_inlining_row_limit' = '10')");
        spark.sql("CREATE TABLE lake.main.small_parted (" + COLUMNS + ") PARTITIONED BY (region) TBLPROPERTIES ('data_inlining_row_limit' = '10')");
        for (String table : List.of("small", "small_parted")) {
            spark.sql("INSERT INTO lake.main." + table + " SELECT * FROM lake.main.plain WHERE id <= 3");
            assertThat(TextRows.of(spark, "SELECT count(*) FROM lake.main." + table + " WHERE _file IS NULL")).as("3 rows inlined, no data file").containsExactly("3");
            spark.sql("SELECT * FROM lake.main.plain WHERE id >= 100 AND id < 116").repartition(4).writeTo("lake.main." + table).append();
            spark.sql("INSERT INTO lake.main." + table + " SELECT * FROM lake.main.plain WHERE id >= 200 AND id < 203");
            assertThat(TextRows.of(spark, "SELECT _file IS NULL, count(*) FROM lake.main." + table + " GROUP BY 1 ORDER BY 1")).containsExactly("false|16", "true|6");
        }
        List<String> statements = new ArrayList<>();
        for (String table : TABLES) {
            statements.add("SELECT " + DUCKDB_TEXT + " FROM lake.main." + table + " ORDER BY id");
        }
        for (String table : TABLES) {
            statements.add("INSERT INTO lake.main." + table + " VALUES (5000, 'eu', 9.99, DATE '2030-01-01', TIMESTAMPTZ '2030-01-01 00:00:00+00', false, 0.125, "
                    + "{'x': 7, 'y': 'z'}, '\\xAB'::BLOB)");
            statements.add("INSERT INTO lake.main." + table + " SELECT 6000 + i, 'apac', i / 8, DATE '2031-01-01' + i::INTEGER, NULL, true, i, NULL, NULL FROM range(500) t(i)");
        }
        for (String table : TABLES) {
            statements.add("SELECT " + DUCKDB_TEXT + " FROM lake.main." + table + " ORDER BY id");
        }
        List<List<String>> sparkWrote = TABLES.stream().map(this::sparkRows).toList();
        List<String> duckdb = duckDb(statements);

        for (int i = 0; i < TABLES.size(); i++) {
            assertThat(sparkWrote.get(i)).as("Spark's rows of " + TABLES.get(i)).hasSizeGreaterThan(20);
            assertThat(TextRows.ofStatement(duckdb, i)).as("DuckDB reads " + TABLES.get(i) + " as Spark wrote it").containsExactlyElementsOf(sparkWrote.get(i));
        }
        for (int i = 0; i < TABLES.size(); i++) {
            String table = TABLES.get(i);
            List<String> duckDbRows = TextRows.ofStatement(duckdb, TABLES.size() + 2 * TABLES.size() + i);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (sparkRows(table).size() != duckDbRows.size() && System.nanoTime() < deadline) {
                Thread.sleep(200);
            }
            assertThat(sparkRows(table)).as("Spark reads " + table + " after DuckDB's inserts").containsExactlyElementsOf(duckDbRows);
        }
    }

    @Test
    void listAndMapColumnsCrossRead()
            throws Exception
    {
        String columns = "id BIGINT, tags ARRAY<STRING>, scores MAP<STRING, INT>, pts ARRAY<STRUCT<x: INT, y: DOUBLE>>, m2 MAP<INT, ARRAY<BIGINT>>";
        String values = "(1, array('a', 'b'), map('a', 1, 'b', 2), array(named_struct('x', 1, 'y', 1.5), named_struct('x', 2, 'y', -0.5)), "
                + "map(1, array(10L, 11L), 2, array(20L))), (2, NULL, NULL, NULL, NULL), (3, array(), map(), array(), map(3, array()))";
        String sparkText = "id, CAST(tags AS STRING), CAST(map_keys(scores) AS STRING), CAST(map_values(scores) AS STRING), "
                + "CAST(transform(pts, p -> p.x) AS STRING), CAST(transform(pts, p -> p.y) AS STRING), CAST(map_keys(m2) AS STRING), "
                + "CAST(map_values(m2) AS STRING), _row_id";
        String duckDbText = "id, tags::VARCHAR, map_keys(scores)::VARCHAR, map_values(scores)::VARCHAR, list_transform(pts, lambda p: p.x)::VARCHAR, "
                + "list_transform(pts, lambda p: p.y)::VARCHAR, map_keys(m2)::VARCHAR, map_values(m2)::VARCHAR, rowid";
        List<String> tables = List.of("nested_files", "nested_inlined");
        spark.sql("CREATE TABLE lake.main.nested_files (" + columns + ") TBLPROPERTIES ('data_inlining_row_limit' = '0')");
        spark.sql("CREATE TABLE lake.main.nested_inlined (" + columns + ") TBLPROPERTIES ('data_inlining_row_limit' = '10')");
        for (String table : tables) {
            spark.sql("INSERT INTO lake.main." + table + " VALUES " + values);
        }
        assertThat(TextRows.of(spark, "SELECT count(*) FROM lake.main.nested_files WHERE _file IS NULL")).containsExactly("0");
        assertThat(TextRows.of(spark, "SELECT count(*) FROM lake.main.nested_inlined WHERE _file IS NULL")).containsExactly("3");
        String file = TextRows.of(spark, "SELECT DISTINCT _file FROM lake.main.nested_files").getFirst();
        try (ParquetFileReader reader = ParquetFileReader.open(HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(file), new Configuration()))) {
            MessageType schema = reader.getFooter().getFileMetaData().getSchema();
            GroupType scores = schema.getType("scores").asGroupType().getType("key_value").asGroupType();
            assertThat(Arrays.asList(schema.getType("tags").asGroupType().getType("list").asGroupType().getType("element").getId(),
                    scores.getType("key").getId(), scores.getType("value").getId()))
                    .as("list elements and map keys and values carry their column ids (" + schema + ")").doesNotContainNull();
        }

        List<List<String>> sparkWrote = tables.stream().map(table -> TextRows.of(spark, "SELECT " + sparkText + " FROM lake.main." + table + " ORDER BY id")).toList();
        List<String> statements = new ArrayList<>();
        for (String table : tables) {
            statements.add("SELECT " + duckDbText + " FROM lake.main." + table + " ORDER BY id");
        }
        for (String table : tables) {
            statements.add("INSERT INTO lake.main." + table + " VALUES (9, ['z'], MAP {'q': 5}, [{'x': 9, 'y': 0.25}], MAP {9: [90, 91]})");
        }
        for (String table : tables) {
            statements.add("SELECT " + duckDbText + " FROM lake.main." + table + " ORDER BY id");
        }
        List<String> duckdb = duckDb(statements);
        for (int i = 0; i < tables.size(); i++) {
            assertThat(sparkWrote.get(i)).as("Spark's rows of " + tables.get(i)).hasSize(3);
            assertThat(TextRows.ofStatement(duckdb, i)).as("DuckDB reads " + tables.get(i) + " as Spark wrote it").containsExactlyElementsOf(sparkWrote.get(i));
        }
        for (int i = 0; i < tables.size(); i++) {
            String table = tables.get(i);
            List<String> duckDbRows = TextRows.ofStatement(duckdb, 2 * tables.size() + i);
            assertThat(duckDbRows).hasSize(4);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            String query = "SELECT " + sparkText + " FROM lake.main." + table + " ORDER BY id";
            while (TextRows.of(spark, query).size() != duckDbRows.size() && System.nanoTime() < deadline) {
                Thread.sleep(200);
            }
            assertThat(TextRows.of(spark, query)).as("Spark reads " + table + " after DuckDB's insert").containsExactlyElementsOf(duckDbRows);
        }
    }

    @Test
    void filesAddedByDuckDbAreReadThroughTheirNameMapping()
            throws Exception
    {
        spark.sql("CREATE TABLE lake.main.added (id BIGINT, name STRING, s STRUCT<a: INT, b: STRING>, tags ARRAY<STRING>, scores MAP<STRING, INT>) "
                + "TBLPROPERTIES ('data_inlining_row_limit' = '0')");
        Path outside = Files.createDirectories(store.getParent().resolve("outside"));
        Path inOrder = outside.resolve("in_order.parquet");
        Path reordered = outside.resolve("reordered.parquet");
        String text = "id, name, s.a, s.b, %s, %s, %s, %s";
        String duckDbText = text.formatted("tags::VARCHAR", "map_keys(scores)::VARCHAR", "map_values(scores)::VARCHAR", "rowid");
        String sparkText = text.formatted("CAST(tags AS STRING)", "CAST(map_keys(scores) AS STRING)", "CAST(map_values(scores) AS STRING)", "_row_id");
        List<String> duckdb = duckDb(List.of(
                "COPY (SELECT range AS id, 'n' || range AS name, {'a': range::INTEGER, 'b': 'b' || range} AS s, ['t' || range, 'u'] AS tags, "
                        + "MAP {'k': range::INTEGER} AS scores FROM range(4)) TO '" + inOrder + "' (FORMAT parquet)",
                "COPY (SELECT MAP {'q': 9} AS scores, {'b': 'c' || range, 'a': (range * 100)::INTEGER} AS s, ['v'] AS tags, 'm' || range AS name, "
                        + "range + 10 AS id FROM range(3)) TO '" + reordered + "' (FORMAT parquet)",
                "CALL ducklake_add_data_files('lake', 'added', '" + inOrder + "')",
                "CALL ducklake_add_data_files('lake', 'added', '" + reordered + "')",
                "SELECT count(*) FROM __ducklake_metadata_lake.ducklake_data_file WHERE mapping_id IS NOT NULL AND end_snapshot IS NULL",
                "SELECT " + duckDbText + " FROM lake.main.added ORDER BY id"));
        assertThat(TextRows.ofStatement(duckdb, 4)).as("both files are read through a name mapping").containsExactly("2");
        List<String> duckDbRows = TextRows.ofStatement(duckdb, 5);
        assertThat(duckDbRows).hasSize(7).contains("11|m1|100|c1|[v]|[q]|[9]|5");
        String query = "SELECT " + sparkText + " FROM lake.main.added ORDER BY id";
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (TextRows.of(spark, query).size() != duckDbRows.size() && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        assertThat(TextRows.of(spark, query)).as("Spark reads the added files as DuckDB does").containsExactlyElementsOf(duckDbRows);
        assertThat(TextRows.of(spark, "SELECT id, s.b FROM lake.main.added WHERE id = 11 OR s.a = 3")).containsExactlyInAnyOrder("3|b3", "11|c1");
    }

    /**
     * Overwrites by a condition (static) and of the partitions written (dynamic) each replace exactly their rows in one
     * commit; the rows they leave keep their row ids, and DuckDB reads the result as Spark does.
     */
    @Test
    void overwritesReplaceTheirRowsInOneCommit()
            throws Exception
    {
        String table = "lake.main.ow";
        spark.sql("CREATE TABLE " + table + " (id BIGINT, region STRING, v BIGINT) PARTITIONED BY (region) TBLPROPERTIES ('data_inlining_row_limit' = '10')");
        spark.range(0, 300).selectExpr("id", "CASE id % 3 WHEN 0 THEN 'eu' WHEN 1 THEN 'us' ELSE 'apac' END AS region", "id % 7 AS v")
                .writeTo(table).append();
        spark.sql("INSERT INTO " + table + " VALUES (1000, 'eu', 1), (1001, 'us', 2), (1002, 'apac', 3), (1003, NULL, 4)");
        assertThat(TextRows.of(spark, "SELECT count(*) FROM " + table + " WHERE _file IS NULL")).as("the small insert is inlined").containsExactly("4");
        String rows = "SELECT id, region, v, _row_id FROM " + table + " ORDER BY id";
        List<String> before = TextRows.of(spark, rows);
        long snapshot = newestSnapshot();

        // by a condition: the eu rows (files and the inlined one) go, the new ones come, in one snapshot
        spark.range(2000, 2005).selectExpr("id", "'eu' AS region", "id AS v").writeTo(table).overwrite(org.apache.spark.sql.functions.col("region").equalTo("eu"));
        assertThat(newestSnapshot()).as("one commit").isEqualTo(snapshot + 1);
        assertThat(TextRows.of(spark, "SELECT region, count(*), min(id) FROM " + table + " GROUP BY region ORDER BY region"))
                .containsExactly("null|1|1003", "apac|101|2", "eu|5|2000", "us|101|1");
        assertThat(TextRows.of(spark, rows).stream().filter(row -> !row.contains("|eu|")).toList()).as("the other rows keep their row ids")
                .containsExactlyElementsOf(before.stream().filter(row -> !row.contains("|eu|")).toList());

        // INSERT OVERWRITE with a static partition value; then a condition the core cannot decide from the catalog
        spark.sql("INSERT OVERWRITE " + table + " PARTITION (region = 'us') SELECT id + 3000 AS id, v FROM " + table + " WHERE region = 'eu'");
        assertThat(TextRows.of(spark, "SELECT count(*), min(id) FROM " + table + " WHERE region = 'us'")).containsExactly("5|5000");
        long beforeRefusals = newestSnapshot();
        assertThatThrownBy(() -> spark.range(1).selectExpr("id", "'apac' AS region", "id AS v").writeTo(table)
                .overwrite(org.apache.spark.sql.functions.col("v").gt(3)))
                .hasMessageContaining("where v > 3").hasMessageContaining("may hold rows that match it and rows that do not");
        assertThatThrownBy(() -> spark.range(1).selectExpr("id", "'apac' AS region", "id AS v").writeTo(table)
                .overwrite(org.apache.spark.sql.functions.expr("id % 2 = 0")))
                .hasMessageContaining("cannot overwrite the rows of " + table + " where");
        assertThat(newestSnapshot()).as("a refused overwrite commits nothing").isEqualTo(beforeRefusals);

        // dynamic: only the partitions the rows fall in are replaced (a new one is added)
        List<String> apacAndNull = TextRows.of(spark, "SELECT id, region, v, _row_id FROM " + table + " WHERE region IS NULL OR region = 'apac' ORDER BY id");
        spark.range(4000, 4003).selectExpr("id", "CASE WHEN id = 4000 THEN 'us' ELSE 'latam' END AS region", "id AS v").writeTo(table).overwritePartitions();
        assertThat(newestSnapshot()).isEqualTo(beforeRefusals + 1);
        spark.conf().set("spark.sql.sources.partitionOverwriteMode", "dynamic");
        try {
            spark.sql("INSERT OVERWRITE " + table + " VALUES (4100, 'eu', 0)");
        }
        finally {
            spark.conf().unset("spark.sql.sources.partitionOverwriteMode");
        }
        assertThat(TextRows.of(spark, "SELECT region, count(*), min(id) FROM " + table + " GROUP BY region ORDER BY region"))
                .containsExactly("null|1|1003", "apac|101|2", "eu|1|4100", "latam|2|4001", "us|1|4000");
        assertThat(TextRows.of(spark, "SELECT id, region, v, _row_id FROM " + table + " WHERE region IS NULL OR region = 'apac' ORDER BY id"))
                .as("untouched partitions keep their rows and row ids").containsExactlyElementsOf(apacAndNull);

        List<String> sparkRows = TextRows.of(spark, rows);
        List<String> duckdb = duckDb(List.of("SELECT id, coalesce(region, 'null'), v, rowid FROM lake.main.ow ORDER BY id"));
        assertThat(TextRows.ofStatement(duckdb, 0)).as("DuckDB reads the overwritten table as Spark does").containsExactlyElementsOf(sparkRows);
    }

    /**
     * DuckDB keeps writing tables Spark's DELETE, UPDATE and MERGE changed (file rows and inlined rows), and Spark reads
     * DuckDB's inserts, updates and deletes as DuckDB does, row ids included.
     */
    @Test
    void duckDbKeepsWritingTablesSparksRowLevelWritesChanged()
            throws Exception
    {
        List<String> tables = List.of("dml_files", "dml_inlined");
        spark.sql("CREATE TABLE lake.main.dml_files (id BIGINT, region STRING, v BIGINT) TBLPROPERTIES ('data_inlining_row_limit' = '0')");
        spark.sql("CREATE TABLE lake.main.dml_inlined (id BIGINT, region STRING, v BIGINT) TBLPROPERTIES ('data_inlining_row_limit' = '50')");
        spark.range(0, 40).selectExpr("id", "CASE id % 2 WHEN 0 THEN 'eu' ELSE 'us' END AS region", "id * 10 AS v").createOrReplaceTempView("dml_source");
        for (String table : tables) {
            String name = "lake.main." + table;
            spark.sql("INSERT INTO " + name + " SELECT * FROM dml_source");
            spark.sql("DELETE FROM " + name + " WHERE id % 5 = 0");
            spark.sql("UPDATE " + name + " SET v = v + 1 WHERE region = 'eu'");
            spark.sql("MERGE INTO " + name + " t USING (SELECT id, 'apac' AS region, -id AS v FROM range(30, 45)) s ON t.id = s.id "
                    + "WHEN MATCHED AND t.id % 2 = 0 THEN DELETE WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT *");
        }
        String sparkText = "SELECT id, region, v, _row_id FROM lake.main.%s ORDER BY id";
        String duckDbText = "SELECT id, region, v, rowid FROM lake.main.%s ORDER BY id";
        List<List<String>> sparkWrote = tables.stream().map(table -> TextRows.of(spark, sparkText.formatted(table))).toList();
        List<String> statements = new ArrayList<>();
        for (String table : tables) {
            statements.add(duckDbText.formatted(table));
        }
        for (String table : tables) {
            statements.add("INSERT INTO lake.main." + table + " VALUES (100, 'eu', 1000), (101, 'latam', 1010)");
            statements.add("UPDATE lake.main." + table + " SET v = v * 2 WHERE region = 'us' OR id = 100");
            statements.add("DELETE FROM lake.main." + table + " WHERE id IN (1, 2, 3, 101) OR region = 'apac' AND id > 40");
        }
        for (String table : tables) {
            statements.add(duckDbText.formatted(table));
        }
        List<String> duckdb = duckDb(statements);
        for (int i = 0; i < tables.size(); i++) {
            assertThat(sparkWrote.get(i)).as("Spark's rows of " + tables.get(i)).hasSizeGreaterThan(30);
            assertThat(TextRows.ofStatement(duckdb, i)).as("DuckDB reads " + tables.get(i) + " as Spark left it").containsExactlyElementsOf(sparkWrote.get(i));
        }
        for (int i = 0; i < tables.size(); i++) {
            String table = tables.get(i);
            List<String> duckDbRows = TextRows.ofStatement(duckdb, tables.size() + 3 * tables.size() + i);
            assertThat(duckDbRows).as("DuckDB inserted and updated " + table).anyMatch(row -> row.startsWith("100|eu|2000|"))
                    .noneMatch(row -> row.startsWith("101|") || row.startsWith("1|"));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!TextRows.of(spark, sparkText.formatted(table)).equals(duckDbRows) && System.nanoTime() < deadline) {
                Thread.sleep(200);
            }
            assertThat(TextRows.of(spark, sparkText.formatted(table))).as("Spark reads DuckDB's writes to " + table).containsExactlyElementsOf(duckDbRows);
        }
    }

    private long newestSnapshot()
    {
        // the store this driver's catalog writes through (shared; not closed here)
        MoraineCatalog catalog = OpenStores.writer(MoraineSettings.from(new org.apache.spark.sql.util.CaseInsensitiveStringMap(
                Map.of("store", StoreUri.parse(store.toString()).toString())), "test"));
        try (io.moraine.core.catalog.CatalogSnapshot latest = catalog.latest()) {
            return latest.id();
        }
    }

    private List<String> sparkRows(String table)
    {
        return TextRows.of(spark, "SELECT " + SPARK_TEXT + " FROM lake.main." + table + " ORDER BY id");
    }



    /** Runs {@code statements} in a DuckDB process attached to the store and returns its {@code ROW} lines. */
    private List<String> duckDb(List<String> statements)
            throws Exception
    {
        return DuckDbOverStore.run(StoreUri.parse(store.toString()), statements.toArray(String[]::new));
    }
}
