package io.moraine.spark;

import io.moraine.core.store.StoreUri;
import io.moraine.importer.CatalogImporter;
import io.moraine.importer.DuckLakeSource;
import io.moraine.testing.DuckLakeOracle;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The {@code allowed-locations} setting (catalog setting and reader option): a file the catalog registers outside the data
 * path is read as registered by default, refused when the setting leaves its location out, read when it lists it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestMoraineSparkAllowedLocations
{
    private DuckLakeOracle oracle;
    private SparkSession spark;
    private String store;
    private Path external;

    @BeforeAll
    void setUp()
            throws Exception
    {
        Path directory = Files.createTempDirectory("moraine-spark-allowed-locations");
        oracle = DuckLakeOracle.create(directory.resolve("lake"), DuckLakeOracle.CatalogDatabase.DUCKDB);
        external = directory.resolve("external");
        io.moraine.testing.ExternalFileLake.create(oracle, external, 4);
        StoreUri uri = StoreUri.parse(directory.resolve("store").toString());
        CatalogImporter.importCatalog(DuckLakeSource.parse(oracle.catalogCopy(directory.resolve("catalog-copy.ducklake"))), uri, Optional.empty(),
                CatalogImporter.Progress.SILENT);
        store = uri.toString();
        spark = SparkSessions.start(store, Map.of());
    }

    @AfterAll
    void tearDown()
            throws Exception
    {
        try (DuckLakeOracle ignored = oracle) {
            if (spark != null) {
                spark.stop();
            }
        }
    }

    @Test
    void theSettingDecidesWhereFilesMayBeRead()
    {
        // Sums, not counts: a count is answered from the catalog without opening files.
        assertThat(spark.sql("SELECT sum(id) FROM lake.main.t").collectAsList().getFirst().getLong(0)).isEqualTo(6);

        String elsewhere = external.resolveSibling("elsewhere").toString();
        spark.conf().set("spark.sql.catalog.strict", MoraineSparkCatalog.class.getName());
        spark.conf().set("spark.sql.catalog.strict.store", store);
        spark.conf().set("spark.sql.catalog.strict.allowed-locations", elsewhere);
        assertThatThrownBy(() -> spark.sql("SELECT sum(id) FROM strict.main.t").collectAsList())
                .hasStackTraceContaining(external.resolve("e.parquet").toString())
                .hasStackTraceContaining("allowed-locations");

        assertThat(spark.read().format("moraine").option("store", store).option("allowed-locations", elsewhere + "," + external).load("main.t")
                .selectExpr("sum(id)").collectAsList().getFirst().getLong(0))
                .isEqualTo(6);
    }
}
