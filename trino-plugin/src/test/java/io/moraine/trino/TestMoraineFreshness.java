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
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import static com.google.common.io.MoreFiles.deleteRecursively;
import static com.google.common.io.RecursiveDeleteOption.ALLOW_INSECURE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Read-only catalogs on a store another catalog (its own store handles: another SlateDB client) writes: with the
 * default {@code moraine.reader-freshness=on-demand} a query sees every commit acknowledged before it began, with no
 * poll to wait for (the poll interval is an hour); with {@code moraine.max-staleness} it sees it within that bound.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public class TestMoraineFreshness
{
    private static final Duration STALENESS = Duration.ofSeconds(3);

    private Path directory;
    private DuckLakeOracle oracle;
    private QueryRunner trino;

    @BeforeAll
    public void setUp()
            throws Exception
    {
        directory = Files.createTempDirectory("moraine-trino-freshness");
        oracle = DuckLakeOracle.create(directory.resolve("lake"), DuckLakeOracle.CatalogDatabase.DUCKDB);
        StoreUri store = StoreUri.parse(directory.resolve("store").toString());
        trino = MoraineQueryRunner.create(oracle, directory, store, Optional.empty(), Map.of(), "main", 0);
        trino.createCatalog("fresh", "moraine", Map.of("moraine.store-uri", store.toString(), "moraine.read-only", "true",
                "moraine.store-poll-interval", "1h"));
        trino.createCatalog("bounded", "moraine", Map.of("moraine.store-uri", store.toString(), "moraine.read-only", "true",
                "moraine.max-staleness", STALENESS.toSeconds() + "s"));
        trino.execute("CREATE TABLE lake.main.events (id integer)");
    }

    @AfterAll
    public void tearDown()
            throws Exception
    {
        MoraineQueryRunner.close(trino, oracle);
        deleteRecursively(directory, ALLOW_INSECURE);
    }

    @Test
    public void theNextQuerySeesACommitOfAnotherCatalogWithoutWaiting()
    {
        long before = count("fresh");
        for (int i = 1; i <= 5; i++) {
            trino.execute("INSERT INTO lake.main.events VALUES (" + i + ")");
            assertThat(count("fresh")).as("insert %d seen by the next query", i).isEqualTo(before + i);
        }
    }

    @Test
    public void withAMaximumStalenessACommitIsSeenWithinTheBound()
            throws Exception
    {
        long checked = System.nanoTime();
        long before = count("bounded");
        trino.execute("INSERT INTO lake.main.events VALUES (100)");
        long committed = System.nanoTime();
        while (count("bounded") == before) {
            assertThat(Duration.ofNanos(System.nanoTime() - checked)).as("unseen only while the last check is within the bound")
                    .isLessThan(STALENESS.plusSeconds(2));
            Thread.sleep(100);
        }
        assertThat(Duration.ofNanos(System.nanoTime() - committed)).as("seen within the bound").isLessThan(STALENESS.plusSeconds(2));
    }

    @Test
    public void aBadFreshnessSettingIsRefusedNamingIt()
    {
        assertThatThrownBy(() -> trino.createCatalog("bad", "moraine", Map.of("moraine.store-uri", directory.resolve("store").toString(),
                "moraine.reader-freshness", "sometimes")))
                .hasStackTraceContaining("moraine.reader-freshness must be on-demand");
        assertThatThrownBy(() -> trino.createCatalog("bad2", "moraine", Map.of("moraine.store-uri", directory.resolve("store").toString(),
                "moraine.reader-freshness", "poll", "moraine.max-staleness", "5s")))
                .hasStackTraceContaining("moraine.max-staleness");
    }

    private long count(String catalog)
    {
        return (long) trino.execute("SELECT count(*) FROM " + catalog + ".main.events").getOnlyValue();
    }
}
