package io.moraine.spark;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.write.SortField;
import io.moraine.core.write.WriteTransaction;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** DDL and appends through the Spark catalog on a new lake, each one commit through the core's write API. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestMoraineSparkWrites
{
    private SparkSession spark;
    private String store;
    private Path data;

    @BeforeAll
    void setUp()
            throws Exception
    {
        Path directory = Files.createTempDirectory("moraine-spark-writes");
        data = directory.resolve("data");
        store = SparkSessions.createEmptyLake(directory.resolve("store"), data);
        spark = SparkSessions.start(store, Map.of());
    }

    @AfterAll
    void tearDown()
    {
        if (spark != null) {
            spark.stop();
        }
    }

    @Test
    void namespacesAndTablesAreCreatedAlteredAndDropped()
    {
        spark.sql("CREATE NAMESPACE lake.ddl");
        assertThat(rows("SHOW NAMESPACES IN lake")).contains(List.of("ddl"));
        spark.sql("CREATE TABLE lake.ddl.t (id INT NOT NULL, name STRING, amount DECIMAL(10,2), s STRUCT<x: INT, y: STRING>, d DATE, ts TIMESTAMP) "
                + "COMMENT 'the table' TBLPROPERTIES ('data_inlining_row_limit' = '0')");
        spark.sql("ALTER TABLE lake.ddl.t ADD COLUMN extra BIGINT COMMENT 'added'");
        spark.sql("ALTER TABLE lake.ddl.t ALTER COLUMN id TYPE BIGINT");
        spark.sql("ALTER TABLE lake.ddl.t RENAME COLUMN name TO label");
        spark.sql("ALTER TABLE lake.ddl.t DROP COLUMN d");
        spark.sql("ALTER TABLE lake.ddl.t ADD COLUMN s.z DOUBLE");
        assertThat(spark.table("lake.ddl.t").schema().simpleString())
                .isEqualTo("struct<id:bigint,label:string,amount:decimal(10,2),s:struct<x:int,y:string,z:double>,ts:timestamp,extra:bigint>");
        try (CatalogSnapshot snapshot = catalog().latest()) {
            var table = snapshot.model().table("ddl", "t").orElseThrow();
            assertThat(snapshot.option("data_inlining_row_limit", table.schema().id(), table.id())).contains("0");
        }
        assertThatThrownBy(() -> spark.sql("ALTER TABLE lake.ddl.t ALTER COLUMN label TYPE INT"))
                .hasMessageContaining("label");
        assertThatThrownBy(() -> spark.sql("CREATE TABLE lake.ddl.bad (a INT) TBLPROPERTIES ('foo' = 'bar')"))
                .hasMessageContaining("table property 'foo'");
        assertThatThrownBy(() -> spark.sql("CREATE TABLE lake.ddl.bad (a INT, b INT) PARTITIONED BY (truncate(b, 3))"))
                .hasMessageContaining("has no DuckLake partition transform");
        spark.sql("DROP TABLE lake.ddl.t");
        assertThat(rows("SHOW TABLES IN lake.ddl")).isEmpty();
        spark.sql("DROP NAMESPACE lake.ddl");
        assertThat(rows("SHOW NAMESPACES IN lake")).doesNotContain(List.of("ddl"));
    }

    @Test
    void partitionTransformsMapToDuckLakeCalendarFields()
    {
        spark.sql("CREATE TABLE lake.main.parts (id BIGINT, d DATE, ts TIMESTAMP) PARTITIONED BY (months(d), bucket(4, id), hours(ts))");
        try (CatalogSnapshot snapshot = catalog().latest()) {
            var table = snapshot.model().table("main", "parts").orElseThrow();
            var definition = snapshot.model().definition(table);
            assertThat(definition.partitionSpec().orElseThrow().keys().stream().map(key -> key.transform().text()).toList())
                    .containsExactly("year", "month", "bucket(4)", "year", "month", "day", "hour");
        }
    }

    @Test
    void appendsLandAsDataFilesAndReadBack()
            throws Exception
    {
        spark.sql("CREATE TABLE lake.main.events (id BIGINT, name STRING, amount DECIMAL(10,2), d DATE, ts TIMESTAMP, s STRUCT<x: INT, y: STRING>) "
                + "PARTITIONED BY (years(d))");
        spark.sql("INSERT INTO lake.main.events VALUES (1, 'a', 1.50, DATE'2024-01-02', TIMESTAMP'2024-01-02 03:04:05', named_struct('x', 1, 'y', 'p')), "
                + "(2, NULL, NULL, DATE'2025-06-07', NULL, NULL), (3, 'c', -2.25, NULL, TIMESTAMP'2023-12-31 23:59:59', named_struct('x', NULL, 'y', 'q'))");
        spark.range(100, 1100).selectExpr("id", "concat('n', id) AS name", "CAST(id / 10 AS DECIMAL(10,2)) AS amount",
                "date_add(DATE'2024-01-01', CAST(id AS INT)) AS d", "CAST(NULL AS TIMESTAMP) AS ts", "named_struct('x', CAST(id AS INT), 'y', 'w') AS s")
                .writeTo("lake.main.events").append();
        assertThat(spark.sql("SELECT count(*), sum(id), count(name), sum(amount), count(d), count(ts), sum(s.x) FROM lake.main.events").first().toString())
                .isEqualTo("[1003,599506,1002,59949.25,1002,2,599501]");
        assertThat(rows("SELECT id, name, amount, d, s.y FROM lake.main.events WHERE id <= 3 ORDER BY id")).containsExactly(
                List.of("1", "a", "1.50", "2024-01-02", "p"), List.of("2", "null", "null", "2025-06-07", "null"), List.of("3", "c", "-2.25", "null", "q"));
        try (CatalogSnapshot snapshot = catalog().latest()) {
            var table = snapshot.model().table("main", "events").orElseThrow();
            assertThat(table.id()).isPositive();
        }

        spark.sql("CREATE TABLE lake.main.copy AS SELECT id, name FROM lake.main.events WHERE id < 200");
        assertThat(spark.sql("SELECT count(*), sum(id) FROM lake.main.copy").first().toString()).isEqualTo("[103,14956]");

        // An overwrite deletes the table's rows and adds the new ones in one snapshot (small ones inlined, large ones in files).
        long before;
        try (CatalogSnapshot snapshot = catalog().latest()) {
            before = snapshot.id();
        }
        spark.sql("INSERT OVERWRITE lake.main.copy SELECT id, name FROM lake.main.events WHERE id BETWEEN 500 AND 504");
        assertThat(spark.sql("SELECT count(*), sum(id) FROM lake.main.copy").first().toString()).isEqualTo("[5,2510]");
        spark.range(0, 300).selectExpr("id", "'big' AS name").writeTo("lake.main.copy").overwrite(org.apache.spark.sql.functions.lit(true));
        assertThat(spark.sql("SELECT count(*), sum(id), min(name) FROM lake.main.copy").first().toString()).isEqualTo("[300,44850,big]");
        try (CatalogSnapshot snapshot = catalog().latest()) {
            assertThat(snapshot.id()).as("one snapshot per overwrite").isEqualTo(before + 2);
        }
        assertThat(spark.sql("SELECT count(*) FROM lake.main.copy VERSION AS OF " + (before + 1)).first().getLong(0)).isEqualTo(5);
    }

    /** CTAS, RTAS and DataFrameWriterV2's create / createOrReplace commit the table and its rows as one snapshot; a failing query leaves nothing. */
    @Test
    void createAndReplaceAsSelectAreOneCommit()
            throws Exception
    {
        long before = newest();
        spark.sql("CREATE TABLE lake.main.ctas AS SELECT id, concat('r', id) AS name FROM range(0, 50)");
        assertThat(newest()).as("table and rows in one snapshot").isEqualTo(before + 1);
        assertThat(spark.sql("SELECT count(*), sum(id) FROM lake.main.ctas VERSION AS OF " + (before + 1)).first().toString()).isEqualTo("[50,1225]");

        String failing = "SELECT CASE WHEN id < 5 THEN id ELSE raise_error('boom') END AS id FROM range(0, 10)";
        assertThatThrownBy(() -> spark.sql("CREATE TABLE lake.main.failed AS " + failing)).hasMessageContaining("boom");
        assertThat(rows("SHOW TABLES IN lake.main")).as("a failed CTAS leaves no table").noneMatch(row -> row.contains("failed"));
        assertThat(newest()).isEqualTo(before + 1);

        spark.sql("REPLACE TABLE lake.main.ctas AS SELECT id * 2 AS id2 FROM range(0, 3)");
        assertThat(newest()).isEqualTo(before + 2);
        assertThat(spark.table("lake.main.ctas").schema().simpleString()).isEqualTo("struct<id2:bigint>");
        assertThat(spark.sql("SELECT count(*), sum(id2) FROM lake.main.ctas").first().toString()).isEqualTo("[3,6]");
        assertThatThrownBy(() -> spark.sql("CREATE OR REPLACE TABLE lake.main.ctas AS " + failing)).hasMessageContaining("boom");
        assertThat(newest()).as("a failed RTAS keeps the old table").isEqualTo(before + 2);
        assertThat(spark.sql("SELECT count(*), sum(id2) FROM lake.main.ctas").first().toString()).isEqualTo("[3,6]");
        assertThatThrownBy(() -> spark.sql("REPLACE TABLE lake.main.nothing AS SELECT 1 AS a")).hasMessageContaining("nothing");

        spark.range(0, 400).selectExpr("id", "id % 3 AS k").writeTo("lake.main.dfc").partitionedBy(org.apache.spark.sql.functions.col("k")).create();
        assertThat(newest()).isEqualTo(before + 3);
        assertThat(spark.sql("SELECT count(*), count(DISTINCT k), count(DISTINCT _file) >= 3 FROM lake.main.dfc").first().toString()).isEqualTo("[400,3,true]");
        spark.range(0, 5).selectExpr("id", "'x' AS label").writeTo("lake.main.dfc").createOrReplace();
        assertThat(newest()).isEqualTo(before + 4);
        assertThat(spark.sql("SELECT count(*), min(label) FROM lake.main.dfc").first().toString()).isEqualTo("[5,x]");
        assertThat(spark.sql("SELECT count(*) FROM lake.main.dfc VERSION AS OF " + (before + 3)).first().getLong(0)).isEqualTo(400);
    }

    /**
     * A partitioned, sorted table's write is clustered by its partition keys (identity, a calendar field and a bucket,
     * the last two through the catalog's partition-key function) and sorted by them and the sort order: 4 input tasks
     * over 18 partitions write one file per partition (unclustered, each task would write a file for each partition it
     * meets, about 72), each file's rows in the sort order (id descending).
     */
    @Test
    void partitionedSortedWritesAreClusteredByPartitionAndSortedWithinFiles()
            throws Exception
    {
        spark.sql("CREATE TABLE lake.main.clustered (id BIGINT, k INT, d DATE) PARTITIONED BY (k, years(d), bucket(2, id)) "
                + "TBLPROPERTIES ('data_inlining_row_limit' = '0')");
        WriteTransaction.begin(catalog()).setSortOrder("main", "clustered", List.of(new SortField("id", "duckdb", true, false))).commit();
        spark.range(0, 2000, 1, 4).selectExpr("id", "CAST(id % 3 AS INT) AS k", "date_add(DATE '2020-01-01', CAST((id * 7) % 1000 AS INT)) AS d")
                .writeTo("lake.main.clustered").append();
        assertThat(spark.sql("SELECT count(*), count(DISTINCT _file), count(DISTINCT k, year(d)) FROM lake.main.clustered").first().toString())
                .as("rows, files, (k, year) pairs: 3 x 3 pairs by 2 buckets is 18 partitions, one file each").isEqualTo("[2000,18,9]");
        assertThat(spark.sql("SELECT max(pairs) FROM (SELECT count(DISTINCT k, year(d)) AS pairs FROM lake.main.clustered GROUP BY _file)").first().getLong(0))
                .as("each file holds one partition").isEqualTo(1);
        Row order = spark.sql("SELECT count_if(previous IS NOT NULL), count_if(previous < id) FROM "
                + "(SELECT id, lag(id) OVER (PARTITION BY _file ORDER BY _pos) AS previous FROM lake.main.clustered)").first();
        assertThat(order.getLong(0)).as("rows compared with the one before them in their file").isEqualTo(2000 - 18);
        assertThat(order.getLong(1)).as("rows after a smaller id in their file (sorted by id DESC: none)").isZero();
    }

    private long newest()
    {
        try (CatalogSnapshot snapshot = catalog().latest()) {
            return snapshot.id();
        }
    }

    private MoraineCatalog catalog()
    {
        return OpenStores.writer(MoraineSettings.from(new org.apache.spark.sql.util.CaseInsensitiveStringMap(Map.of("store", store)), "test"));
    }

    private List<List<String>> rows(String sql)
    {
        return spark.sql(sql).collectAsList().stream().map(TestMoraineSparkWrites::strings).toList();
    }

    private static List<String> strings(Row row)
    {
        List<String> values = new java.util.ArrayList<>();
        for (int i = 0; i < row.length(); i++) {
            values.add(String.valueOf(row.get(i)));
        }
        return values;
    }
}
