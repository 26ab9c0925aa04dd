package io.moraine.spark;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.catalog.NewCatalog;
import io.moraine.core.store.StoreOptions;
import io.moraine.core.store.StoreUri;
import io.moraine.testing.DuckDbOverStore;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * DELETE, UPDATE, MERGE INTO and TRUNCATE TABLE through Spark on a table holding both data-file rows and inlined rows:
 * updated rows keep their row ids, and DuckDB reads the same rows, row ids and update pre- and post-images; a read-only
 * catalog refuses them all.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestMoraineSparkRowChanges
{
    private SparkSession spark;
    private String store;

    @BeforeAll
    void setUp()
            throws Exception
    {
        Path directory = Files.createTempDirectory("moraine-spark-row-changes");
        Path data = directory.resolve("data");
        Files.createDirectories(data);
        StoreUri uri = StoreUri.parse(directory.resolve("store").toString());
        try (MoraineCatalog ignored = MoraineCatalog.openOrCreate(uri, NewCatalog.bootstrapped(data + "/"), StoreOptions.DEFAULTS)) {
            // created
        }
        store = uri.toString();
        spark = SparkSessions.start(store, Map.of(), Map.of(
                "spark.sql.catalog.ro", MoraineSparkCatalog.class.getName(),
                "spark.sql.catalog.ro.store", store,
                "spark.sql.catalog.ro.read-only", "true"));
    }

    @AfterAll
    void tearDown()
    {
        if (spark != null) {
            spark.stop();
        }
    }

    @Test
    void deletesUpdatesAndMergesKeepRowIdsAndDuckDbReadsThem()
            throws Exception
    {
        spark.sql("CREATE TABLE lake.main.t (id BIGINT, name STRING, amount INT) TBLPROPERTIES ('data_inlining_row_limit' = '10')");
        // 20 rows: over the inlining limit, a data file; then 3 small inserts' rows, inlined
        spark.range(0, 20).selectExpr("id", "concat('n', id) AS name", "CAST(id AS INT) AS amount").coalesce(1).writeTo("lake.main.t").append();
        spark.sql("INSERT INTO lake.main.t VALUES (100, 'i100', 100), (101, 'i101', 101), (102, 'i102', 102)");
        assertThat(TextRows.of(spark, "SELECT _file IS NULL, count(*) FROM lake.main.t GROUP BY 1 ORDER BY 1")).containsExactly("false|20", "true|3");
        Map<Long, Long> rowIds = rowIds();

        spark.sql("DELETE FROM lake.main.t WHERE id IN (3, 100)");
        spark.sql("UPDATE lake.main.t SET amount = amount + 1000, name = upper(name) WHERE id IN (5, 101)");
        long updateSnapshot = headSnapshot();
        spark.sql("MERGE INTO lake.main.t USING (SELECT * FROM VALUES (6L, 'm6', 60), (7L, 'm7', 70), (102L, 'm102', 1020), (500L, 'm500', 5000) "
                + "AS s(id, name, amount)) s ON lake.main.t.id = s.id "
                + "WHEN MATCHED AND s.id = 7 THEN DELETE "
                + "WHEN MATCHED THEN UPDATE SET amount = s.amount, name = s.name "
                + "WHEN NOT MATCHED THEN INSERT *");
        // 12 rows updated: more than the inlining limit, so their new versions go to a data file with their row ids
        spark.sql("UPDATE lake.main.t SET amount = -amount WHERE id >= 8 AND id < 20");
        assertThat(TextRows.of(spark, "SELECT id, _file IS NULL FROM lake.main.t WHERE id IN (0, 5, 6, 8, 101, 102, 500) ORDER BY id"))
                .as("small updates and the merge's insert inlined; the 12 updated rows in a data file").containsExactly(
                        "0|false", "5|true", "6|true", "8|false", "101|true", "102|true", "500|true");
        assertThat(TextRows.of(spark, "SELECT count(DISTINCT _file_id) FROM lake.main.t")).as("the appended file and the update's").containsExactly("2");

        List<String> expected = new ArrayList<>();
        for (long id = 0; id < 20; id++) {
            if (id == 3 || id == 7) {
                continue;
            }
            String name = id == 5 ? "N5" : id == 6 ? "m6" : "n" + id;
            long amount = id == 5 ? 1005 : id == 6 ? 60 : id >= 8 ? -id : id;
            expected.add(id + "|" + name + "|" + amount + "|" + rowIds.get(id));
        }
        expected.add("101|I101|1101|" + rowIds.get(101L));
        expected.add("102|m102|1020|" + rowIds.get(102L));
        List<String> sparkRows = TextRows.of(spark, "SELECT id, name, amount, _row_id FROM lake.main.t WHERE id <> 500 ORDER BY id");
        assertThat(sparkRows).as("Spark reads the changed rows, updated rows with the row ids they had").containsExactlyElementsOf(expected);
        assertThat(TextRows.of(spark, "SELECT id, name, amount, _row_id NOT IN (" + String.join(", ", rowIds.values().stream().map(String::valueOf).toList())
                + ") FROM lake.main.t WHERE id = 500")).as("the merged insert has a new row id").containsExactly("500|m500|5000|true");
        List<String> all = TextRows.of(spark, "SELECT id, name, amount, _row_id FROM lake.main.t ORDER BY id");

        spark.sql("CREATE TABLE lake.main.gone (id BIGINT) TBLPROPERTIES ('data_inlining_row_limit' = '5')");
        spark.range(0, 50).coalesce(1).writeTo("lake.main.gone").append();
        spark.sql("INSERT INTO lake.main.gone VALUES (1000), (1001)");
        spark.sql("TRUNCATE TABLE lake.main.gone");
        assertThat(TextRows.of(spark, "SELECT count(*) FROM lake.main.gone")).containsExactly("0");

        // partitioned, no inlining: an update moving a row to another partition writes it there keeping its row id
        spark.sql("CREATE TABLE lake.main.parted (id BIGINT, region STRING) PARTITIONED BY (region) TBLPROPERTIES ('data_inlining_row_limit' = '0')");
        spark.sql("INSERT INTO lake.main.parted VALUES (1, 'eu'), (2, 'eu'), (3, 'us'), (4, 'us')");
        long movedRowId = spark.sql("SELECT _row_id FROM lake.main.parted WHERE id = 1").first().getLong(0);
        spark.sql("UPDATE lake.main.parted SET region = 'apac' WHERE id = 1");
        spark.sql("DELETE FROM lake.main.parted WHERE id = 3");
        List<String> parted = TextRows.of(spark, "SELECT id, region, _row_id FROM lake.main.parted ORDER BY id");
        assertThat(parted).hasSize(3).first().isEqualTo("1|apac|" + movedRowId);

        List<String> duckdb = DuckDbOverStore.run(StoreUri.parse(store),
                "SELECT id, name, amount, rowid FROM lake.main.t ORDER BY id",
                "SELECT rowid, change_type, id, name, amount FROM ducklake_table_changes('lake', 'main', 't', " + updateSnapshot + ", " + updateSnapshot
                        + ") ORDER BY rowid, change_type",
                "SELECT count(*) FROM lake.main.gone",
                "SELECT id, region, rowid FROM lake.main.parted ORDER BY id");
        assertThat(TextRows.ofStatement(duckdb, 0)).as("DuckDB reads the rows and row ids Spark reads").containsExactlyElementsOf(all);
        assertThat(TextRows.ofStatement(duckdb, 1)).as("DuckDB's change feed pairs the UPDATE's pre- and post-images by row id").containsExactly(
                rowIds.get(5L) + "|update_postimage|5|N5|1005",
                rowIds.get(5L) + "|update_preimage|5|n5|5",
                rowIds.get(101L) + "|update_postimage|101|I101|1101",
                rowIds.get(101L) + "|update_preimage|101|i101|101");
        assertThat(TextRows.ofStatement(duckdb, 2)).as("DuckDB reads the truncated table empty").containsExactly("0");
        assertThat(TextRows.ofStatement(duckdb, 3)).as("DuckDB reads the partitioned table as Spark does").containsExactlyElementsOf(parted);
    }

    @Test
    void readOnlyCatalogRefusesRowChanges()
    {
        spark.sql("CREATE TABLE lake.main.kept (id BIGINT)");
        spark.sql("INSERT INTO lake.main.kept VALUES (1), (2)");
        long before = headSnapshot();
        for (String statement : List.of("DELETE FROM ro.main.kept WHERE id = 1", "UPDATE ro.main.kept SET id = 3 WHERE id = 1",
                "MERGE INTO ro.main.kept t USING (SELECT 1L AS id) s ON t.id = s.id WHEN MATCHED THEN DELETE", "TRUNCATE TABLE ro.main.kept")) {
            assertThatThrownBy(() -> spark.sql(statement)).as(statement)
                    .hasMessageContaining("read-only")
                    .hasMessageContaining("ro.main.kept");
        }
        assertThat(headSnapshot()).isEqualTo(before);
        assertThat(TextRows.of(spark, "SELECT id FROM lake.main.kept ORDER BY id")).containsExactly("1", "2");
    }

    @Test
    void aColumnHidingTheRowIdentityIsRefused()
    {
        spark.sql("CREATE TABLE lake.main.clash (id BIGINT, _row_id BIGINT)");
        assertThatThrownBy(() -> spark.sql("DELETE FROM lake.main.clash WHERE id = 1"))
                .hasMessageContaining("has a column named _row_id")
                .hasMessageContaining("rename the column");
    }

    @Test
    void deleteWorksOnATableWithAColumnSparkCannotWrite()
    {
        spark.sql("CREATE TABLE lake.main.odd (id BIGINT)");
        spark.sql("INSERT INTO lake.main.odd VALUES (1), (2), (3)");
        io.moraine.core.write.WriteTransaction transaction = io.moraine.core.write.WriteTransaction.begin(writer());
        transaction.addColumn("main", "odd", io.moraine.core.write.ColumnDefinition.of("u", "uuid"));
        transaction.commit();
        assertThatThrownBy(() -> spark.sql("UPDATE lake.main.odd SET id = 4 WHERE id = 1")).hasMessageContaining("uuid");
        spark.sql("DELETE FROM lake.main.odd WHERE id = 2");
        assertThat(TextRows.of(spark, "SELECT id FROM lake.main.odd ORDER BY id")).containsExactly("1", "3");
    }

    private MoraineCatalog writer()
    {
        return OpenStores.writer(MoraineSettings.from(new org.apache.spark.sql.util.CaseInsensitiveStringMap(Map.of("store", store)), "test"));
    }

    private Map<Long, Long> rowIds()
    {
        Map<Long, Long> ids = new TreeMap<>();
        for (Row row : spark.sql("SELECT id, _row_id FROM lake.main.t").collectAsList()) {
            ids.put(row.getLong(0), row.getLong(1));
        }
        return ids;
    }

    private long headSnapshot()
    {
        try (CatalogSnapshot snapshot = writer().latest()) {
            return snapshot.id();
        }
    }


}
