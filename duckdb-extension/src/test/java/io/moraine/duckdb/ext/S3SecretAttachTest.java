package io.moraine.duckdb.ext;

import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.catalog.NewCatalog;
import io.moraine.core.row.TableKind;
import io.moraine.core.store.S3Settings;
import io.moraine.core.store.StoreOptions;
import io.moraine.core.store.StoreUri;
import io.moraine.core.tx.CommitListener;
import io.moraine.duckdb.ext.StandaloneAttachTest.Comparison;
import io.moraine.importer.CatalogImporter;
import io.moraine.importer.DuckLakeSource;
import io.moraine.testing.DuckLakeOracle;
import io.moraine.testing.DuckLakeOracle.CatalogDatabase;
import io.moraine.testing.S3ProxyServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;
import java.util.Optional;

import static io.moraine.duckdb.ext.ExtensionConnections.count;
import static io.moraine.duckdb.ext.ExtensionConnections.execute;
import static io.moraine.duckdb.ext.ExtensionConnections.query;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A store on S3 reached with DuckDB's secret manager. The store lives on an S3Proxy of its own whose credentials the
 * build's AWS_* environment does not carry (that names the shared S3Proxy's endpoint and keys), so only a matching
 * {@code CREATE SECRET (TYPE s3, ...)} reaches it; without one the environment is used, and fails there.
 */
class S3SecretAttachTest
{
    private static final String KEY_ID = "moraine-secret-key-id";
    private static final String SECRET = "moraine-secret-value-not-in-the-environment";
    private static final String WRONG_SECRET = "moraine-wrong-secret-value";
    private static final String BUCKET = "moraine-secret-lake";

    private static S3ProxyServer server;
    private static Path sourceCatalog;

    @TempDir
    static Path temp;

    @BeforeAll
    static void storeOnAPrivateS3()
            throws Exception
    {
        assertThat(System.getenv("AWS_SECRET_ACCESS_KEY")).as("the environment's credentials differ").isNotEqualTo(SECRET);
        server = S3ProxyServer.startPrivate(KEY_ID, SECRET);
        server.createBucket(BUCKET);
        Path lake = temp.resolve("lake");
        try (DuckLakeOracle oracle = DuckLakeOracle.create(lake, CatalogDatabase.DUCKDB)) {
            oracle.run(DuckLakeOracle.WORKLOAD_BEFORE_FLUSH);
            oracle.detach();
        }
        sourceCatalog = lake.resolve("catalog.ducklake");
        // Imported locally, then copied object for object to s3://BUCKET/catalog: the importer itself only knows the environment.
        Path local = temp.resolve("store");
        CatalogImporter.importCatalog(DuckLakeSource.parse("ducklake:" + sourceCatalog), StoreUri.parse(local.toString()), Optional.empty(),
                CatalogImporter.Progress.SILENT);
        server.upload(BUCKET, local, "catalog/");
    }

    @AfterAll
    static void stop()
            throws Exception
    {
        server.close();
    }

    private static String store()
    {
        return "s3://" + BUCKET + "/catalog";
    }

    private static String endpoint()
    {
        return server.endpoint().getAuthority();
    }

    private static String createSecret(String name, String secret, String scope)
    {
        return "CREATE SECRET " + name + " (TYPE s3, KEY_ID '" + KEY_ID + "', SECRET '" + secret + "', REGION 'us-east-1', ENDPOINT '" + endpoint()
                + "', URL_STYLE 'path', USE_SSL false, SCOPE '" + scope + "')";
    }

    private static Connection connection()
            throws Exception
    {
        Connection connection = ExtensionConnections.open();
        execute(connection, "LOAD httpfs");
        return connection;
    }

    @Test
    void theMatchingSecretReachesTheStoreAndEveryCatalogTableEqualsTheSource()
            throws Exception
    {
        try (Connection connection = connection()) {
            // Two s3 secrets: DuckDB picks the one whose scope matches the store's path.
            execute(connection, createSecret("elsewhere", WRONG_SECRET, "s3://another-bucket"));
            execute(connection, createSecret("lake", SECRET, "s3://" + BUCKET));
            execute(connection, "ATTACH '" + sourceCatalog + "' AS src (READ_ONLY)");
            execute(connection, "ATTACH '" + store() + "' AS m (TYPE moraine)");
            Comparison comparison = StandaloneAttachTest.compareEveryTable(connection);
            assertThat(comparison.tables()).isEqualTo(TableKind.values().length + comparison.inlinedTables());
            assertThat(comparison.inlinedTables()).isGreaterThanOrEqualTo(3);
            assertThat(comparison.rows()).isPositive();
            // The checkpoint functions take the same secret. The read-only attach reads on demand, which keeps no
            // checkpoint (docs/freshness.md); a polling one keeps one.
            assertThat(count(connection, "SELECT count(*) FROM moraine_checkpoints('" + store() + "')")).isZero();
            execute(connection, "ATTACH '" + store() + "' AS polling (TYPE moraine, READER_FRESHNESS 'poll')");
            assertThat(count(connection, "SELECT count(*) FROM moraine_checkpoints('" + store() + "')")).isEqualTo(1);
        }
    }

    @Test
    void aWalStoreOnS3GetsTheSecretMatchingItsOwnPathAndAReadWriteAttachWritesThroughIt()
            throws Exception
    {
        String catalogBucket = server.createBucket("moraine-secret-catalog");
        String walBucket = server.createBucket("moraine-secret-wal");
        StoreUri store = StoreUri.parse("s3://" + catalogBucket + "/catalog");
        StoreUri wal = StoreUri.parse("s3://" + walBucket);
        S3Settings settings = new S3Settings(Optional.of(KEY_ID), Optional.of(SECRET), Optional.empty(), Optional.of("us-east-1"),
                Optional.of(server.endpoint().toString()), false, "test settings");
        StoreOptions options = StoreOptions.DEFAULTS.withWalStore(wal).withS3Settings(store, settings).withS3Settings(wal, settings);
        MoraineCatalog.create(store, NewCatalog.bootstrapped("s3://" + catalogBucket + "/data/"), options, List.of(), CommitListener.NONE).close();
        // The log lands under the catalog's own path in the WAL bucket, and nowhere else.
        assertThat(server.objects(walBucket, "catalog/wal/")).as("the WAL store's objects").isNotEmpty();
        assertThat(server.objects(walBucket, "")).isEqualTo(server.objects(walBucket, "catalog/wal/"));
        try (Connection connection = connection()) {
            execute(connection, createSecret("catalog", SECRET, "s3://" + catalogBucket));
            execute(connection, createSecret("log", SECRET, "s3://" + walBucket));
            execute(connection, "ATTACH 'moraine:" + store + "' AS w (READ_WRITE, WAL_PATH '" + wal + "')");
            assertThat(count(connection, "SELECT count(*) FROM w.ducklake_snapshot")).isEqualTo(1);
            String id = query(connection, "SELECT checkpoint_id FROM moraine_create_checkpoint('w')").getFirst().getFirst();
            assertThat(query(connection, "SELECT checkpoint_id FROM moraine_checkpoints('" + store + "')")).containsExactly(List.of(id));
            assertThat(query(connection, "SELECT deleted FROM moraine_delete_checkpoint('" + store + "', '" + id + "')")).containsExactly(List.of("true"));
            assertThat(count(connection, "SELECT count(*) FROM moraine_checkpoints('" + store + "')")).isZero();
        }
    }

    @Test
    void aWrongSecretFailsNamingTheBucketTheEndpointAndTheSecretButNotItsValue()
            throws Exception
    {
        try (Connection connection = connection()) {
            execute(connection, createSecret("wrong", WRONG_SECRET, "s3://" + BUCKET));
            assertThatThrownBy(() -> execute(connection, "ATTACH '" + store() + "' AS m (TYPE moraine, STORE_TIMEOUT '2s')"))
                    .hasMessageContaining("bucket '" + BUCKET + "'")
                    .hasMessageContaining("http://" + endpoint())
                    .hasMessageContaining("credentials of the DuckDB secret 'wrong'")
                    .hasMessageContaining("within 2.0 s")
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain(WRONG_SECRET, SECRET))
                    .satisfies(e -> System.out.println("[s3 secret] a wrong secret: " + e.getMessage()));
        }
    }

    @Test
    void aSecretScopedElsewhereIsNotUsedAndWithoutOneTheEnvironmentIs()
            throws Exception
    {
        String environmentEndpoint = System.getenv("AWS_ENDPOINT") + " (AWS_ENDPOINT)";
        String shared = S3ProxyServer.shared().createBucket("moraine-secret-fallback");
        StoreUri sharedStore = StoreUri.parse("s3://" + shared + "/catalog");
        MoraineCatalog.create(sharedStore, NewCatalog.bootstrapped("s3://" + shared + "/data/")).close();
        try (Connection connection = connection()) {
            // The timeout as an INTERVAL, this time.
            String attach = "ATTACH '" + store() + "' AS m (TYPE moraine, STORE_TIMEOUT INTERVAL 2 SECONDS)";
            // No secret: the environment's endpoint and keys, which do not reach the private server.
            assertThatThrownBy(() -> execute(connection, attach))
                    .hasMessageContaining(environmentEndpoint)
                    .hasMessageNotContaining("DuckDB secret")
                    .satisfies(e -> System.out.println("[s3 secret] no secret: " + e.getMessage()));

            execute(connection, createSecret("elsewhere", SECRET, "s3://" + BUCKET + "-other"));
            assertThatThrownBy(() -> execute(connection, attach))
                    .hasMessageContaining(environmentEndpoint)
                    .hasMessageNotContaining("DuckDB secret");

            // A store the environment reaches attaches without a secret, beside one scoped to another bucket.
            execute(connection, "ATTACH '" + sharedStore + "' AS e (TYPE moraine)");
            assertThat(count(connection, "SELECT count(*) FROM e.ducklake_snapshot")).isEqualTo(1);
            assertThat(query(connection, "SELECT value FROM e.ducklake_metadata WHERE key = 'data_path'")).containsExactly(List.of("s3://" + shared + "/data/"));
        }
    }
}
