package io.moraine.spark;

import io.moraine.core.store.StoreUri;
import io.moraine.testing.DuckDbOverStore;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A read-only Spark catalog on a store DuckDB writes from another process: with the default
 * {@code reader-freshness=on-demand} each scan plan sees every commit acknowledged before it, with no poll to wait for
 * (the poll interval is an hour).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestMoraineSparkFreshness
{
    private SparkSession spark;
    private StoreUri store;

    @BeforeAll
    void setUp()
            throws Exception
    {
        Path directory = Files.createTempDirectory("moraine-spark-freshness");
        store = StoreUri.parse(SparkSessions.createEmptyLake(directory.resolve("store"), directory.resolve("data")));
        spark = SparkSessions.start(store.toString(), Map.of("read-only", "true", "store-poll-interval", "1h"));
    }

    @AfterAll
    void tearDown()
    {
        if (spark != null) {
            spark.stop();
        }
    }

    @Test
    void theNextScanPlanSeesACommitOfAnotherProcessWithoutWaiting()
            throws Exception
    {
        DuckDbOverStore.run(store, "CREATE TABLE lake.main.events (id INTEGER)", "INSERT INTO lake.main.events VALUES (1)");
        assertThat(count()).isEqualTo(1);
        DuckDbOverStore.run(store, "INSERT INTO lake.main.events VALUES (2), (3)");
        assertThat(count()).as("the next scan plan, at once").isEqualTo(3);
    }

    private long count()
    {
        return spark.sql("SELECT count(*) FROM lake.main.events").first().getLong(0);
    }
}
