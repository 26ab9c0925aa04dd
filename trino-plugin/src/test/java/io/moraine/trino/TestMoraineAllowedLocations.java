package io.moraine.trino;

import io.moraine.core.store.StoreUri;
import io.moraine.testing.DuckLakeOracle;
import io.trino.testing.QueryRunner;
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
 * {@code moraine.allowed-locations}: a lake with a file DuckLake registered outside its data path (a file copied out of the data path, its row pointing there)
 * is read as registered by default; a catalog whose setting leaves that location out refuses the scan and the change
 * feed, naming the path and the property; one that lists it reads it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestMoraineAllowedLocations
{
    private DuckLakeOracle oracle;
    private QueryRunner trino;
    private Path external;
    private String store;

    @BeforeAll
    void setUp()
            throws Exception
    {
        Path directory = Files.createTempDirectory("moraine-trino-allowed-locations");
        oracle = DuckLakeOracle.create(directory.resolve("lake"), DuckLakeOracle.CatalogDatabase.DUCKDB);
        external = directory.resolve("external");
        io.moraine.testing.ExternalFileLake.create(oracle, external, 5);
        StoreUri uri = StoreUri.parse(directory.resolve("store").toString());
        store = uri.toString();
        trino = MoraineQueryRunner.create(oracle, directory, uri, Optional.empty(), Map.of(), "main", 0);
    }

    @AfterAll
    void tearDown()
            throws Exception
    {
        MoraineQueryRunner.close(trino, oracle);
    }

    @Test
    void thePropertyDecidesWhereFilesMayBeRead()
    {
        assertThat(trino.execute("SELECT count(*) FROM lake.main.t").getOnlyValue()).isEqualTo(5L);

        Path elsewhere = external.resolveSibling("elsewhere");
        trino.createCatalog("strict", "moraine", Map.of("moraine.store-uri", store, "moraine.allowed-locations", elsewhere.toString()));
        assertThatThrownBy(() -> trino.execute("SELECT count(*) FROM strict.main.t"))
                .hasMessageContaining(external.resolve("e.parquet").toString())
                .hasMessageContaining("moraine.allowed-locations");
        assertThatThrownBy(() -> trino.execute("SELECT count(*) FROM TABLE(strict.system.table_insertions(schema_name => 'main', table_name => 't', start_snapshot => 1))"))
                .hasMessageContaining("moraine.allowed-locations");

        trino.createCatalog("widened", "moraine", Map.of("moraine.store-uri", store, "moraine.allowed-locations", elsewhere + "," + external.toUri()));
        assertThat(trino.execute("SELECT count(*) FROM widened.main.t").getOnlyValue()).isEqualTo(5L);
    }
}
