package io.moraine.trino;

import io.moraine.core.store.StoreUri;
import io.moraine.testing.DuckLakeHistory;
import io.moraine.testing.DuckLakeOracle;
import io.moraine.testing.LakeTable;
import io.moraine.testing.S3ProxyServer;
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

/**
 * A lake whose catalog and data both live in S3 (S3Proxy): the moraine store on {@code s3://}, the Parquet and delete
 * files read through Trino's native S3 file system. Answers equal DuckDB + DuckLake's over the local original at a
 * sample of the surviving snapshots ({@code io.moraine.testing.OracleSample}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestMoraineOnS3
{
    private DuckLakeOracle oracle;
    private QueryRunner trino;
    private DuckLakeComparison comparison;

    @BeforeAll
    void setUp()
            throws Exception
    {
        Path directory = Files.createTempDirectory("moraine-trino-s3");
        oracle = DuckLakeOracle.create(directory.resolve("lake"), DuckLakeOracle.CatalogDatabase.DUCKDB);
        oracle.runWorkload();
        S3ProxyServer s3 = S3ProxyServer.shared();
        String bucket = s3.createBucket("moraine-trino-lake");
        s3.upload(bucket, oracle.dataPath(), "lake/data/");
        Map<String, String> s3Properties = Map.of(
                "fs.s3.enabled", "true",
                "s3.endpoint", s3.endpoint().toString(),
                "s3.region", "us-east-1",
                "s3.path-style-access", "true",
                "s3.aws-access-key", S3ProxyServer.ACCESS_KEY,
                "s3.aws-secret-key", S3ProxyServer.SECRET_KEY);
        trino = MoraineQueryRunner.create(oracle, directory, StoreUri.parse("s3://" + bucket + "/catalog"), Optional.of("s3://" + bucket + "/lake/data/"),
                s3Properties, "main", 0);
        comparison = new DuckLakeComparison(DuckLakeHistory.of(oracle, directory.resolve("history-copy.ducklake")), trino);
    }

    @AfterAll
    void tearDown()
            throws Exception
    {
        MoraineQueryRunner.close(trino, oracle);
    }

    @Test
    void catalogAndDataInS3AnswerAsDuckLakeAtSampledSnapshots()
            throws Exception
    {
        // 15 of the 36 table snapshots today; every one is compared (from a local store) by the moraine-cli module's CatCommandTest.
        assertThat(comparison.sampledTableSnapshots()).isGreaterThanOrEqualTo(15);
    }

    @Test
    void filteredScanOnS3SkipsNothingItNeeds()
            throws Exception
    {
        long head = comparison.history().survivingSnapshots().getLast();
        comparison.assertSameRows(new LakeTable("main", "events"), head, "kind = 'k1' AND v < 100");
        comparison.assertSameRows(new LakeTable("sales", "orders"), head, "id BETWEEN 10 AND 20");
    }
}
