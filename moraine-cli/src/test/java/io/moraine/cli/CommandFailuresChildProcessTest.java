package io.moraine.cli;

import io.moraine.cli.ChildCommand.Invocation;
import io.moraine.cli.ChildCommand.Outcome;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.catalog.NewCatalog;
import io.moraine.core.store.StoreOptions;
import io.moraine.core.store.StoreUri;
import io.moraine.testing.S3ProxyServer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code bin/moraine} commands in a child JVM whose environment points at an endpoint that refuses connections (a wrong
 * secret is {@link SecretsChildProcessTest}'s). Each fails with a typed error within its store timeout (the
 * child is given a generous {@link ChildCommand#LIMIT_SECONDS} before the test gives up on it), and nothing it prints (standard output, standard
 * error, JVM and library logging included) or leaves in its working directory holds a credential value.
 * Its tests run at once: their children mostly wait for store timeouts.
 */
@Execution(ExecutionMode.CONCURRENT)
class CommandFailuresChildProcessTest
{
    private static final String SECRET_KEY = "known-secret-7c41e9d2-do-not-print";
    private static final String SESSION_TOKEN = "known-session-token-5b08f3aa-do-not-print";
    private static final long CHILD_LIMIT_SECONDS = 60;

    private static String bucket;

    @TempDir
    Path temp;

    @BeforeAll
    static void createStore()
            throws Exception
    {
        bucket = S3ProxyServer.shared().createBucket("moraine-command-failures");
        MoraineCatalog.create(StoreUri.parse("s3://" + bucket + "/catalog"), NewCatalog.bootstrapped("s3://" + bucket + "/data")).close();
    }

    private static void assertNoSecret(Outcome outcome)
            throws IOException
    {
        for (String secret : List.of(SECRET_KEY, SESSION_TOKEN)) {
            assertThat(outcome.output()).doesNotContain(secret);
            for (Path file : outcome.leftFiles()) {
                assertThat(new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1)).as("file %s", file).doesNotContain(secret);
            }
        }
    }

    private static Map<String, String> credentials(String endpoint)
    {
        return Map.of("AWS_ENDPOINT", endpoint, "AWS_ALLOW_HTTP", "true", "AWS_ACCESS_KEY_ID", S3ProxyServer.ACCESS_KEY,
                "AWS_SECRET_ACCESS_KEY", SECRET_KEY, "AWS_SESSION_TOKEN", SESSION_TOKEN, "AWS_REGION", "us-east-1");
    }

    @Test
    void anUnreachableEndpointFailsWithinTheStoreTimeoutNamingEndpointBucketAndSetting()
            throws Exception
    {
        String endpoint = "http://127.0.0.1:9";
        String store = "s3://" + bucket + "/catalog";
        record Case(String[] args, String setting, String timeout) {}
        List<Case> cases = List.of(
                new Case(new String[] {"dump", "--store", store, "--store-timeout", "3s", "--table", "ducklake_snapshot"}, "--store-timeout", "3.0 s"),
                new Case(new String[] {"cat", "--store", store, "--store-timeout", "3s", "main.t"}, "--store-timeout", "3.0 s"),
                new Case(new String[] {"verify", "--store", store, "--store-timeout", "3s"}, "--store-timeout", "3.0 s"),
                new Case(new String[] {"flush", "--store", store, "--store-timeout", "3s"}, "--store-timeout", "3.0 s"),
                new Case(new String[] {"import", "--source", "ducklake:" + sourceCatalog(), "--store", "s3://" + bucket + "/new", "--store-timeout", "3s"},
                        "--store-timeout", "3.0 s"),
                // Through DuckDB (the inlined tables of dump, the duckdb command's read-only attach) the attach's STORE_TIMEOUT.
                new Case(new String[] {"dump", "--store", store, "--store-timeout", "3s", "--table", "ducklake_inlined_data_1_1"}, "STORE_TIMEOUT", "3.0 s"),
                new Case(new String[] {"duckdb", "--store", store, "--store-timeout", "3s", "--mode", "read-only", "SELECT 1"}, "STORE_TIMEOUT", "3.0 s"));
        List<Outcome> outcomes = ChildCommand.runAll(temp, cases.stream().map(command -> new Invocation(credentials(endpoint), List.of(command.args()))).toList());
        int checked = 0;
        for (int i = 0; i < cases.size(); i++) {
            Case command = cases.get(i);
            Outcome outcome = outcomes.get(i);
            assertThat(outcome.status()).as(outcome.output()).isEqualTo(1);
            assertThat(outcome.output())
                    .contains("moraine " + command.args()[0] + ": ")
                    .containsPattern("store s3://" + bucket + "/(catalog|new) did not answer within " + command.timeout())
                    .contains("bucket '" + bucket + "' at endpoint " + endpoint + " (AWS_ENDPOINT)")
                    .contains(command.setting())
                    .contains("moraine.store-timeout");
            assertNoSecret(outcome);
            checked++;
        }
        assertThat(checked).isEqualTo(7);
    }

    @Test
    void withoutTheOptionTheStoresDefaultTimeoutApplies()
    {
        // The children above wait 3 s; the default is checked here rather than by a child waiting 30 s for it.
        CommandLine withoutOption = CommandLine.parse(new String[] {"dump", "--store", "s3://b/c", "--table", "ducklake_snapshot"}, Set.of("store", "table", CommandLine.STORE_TIMEOUT));
        assertThat(withoutOption.storeOptions().timeout()).isEqualTo(StoreOptions.DEFAULT_TIMEOUT).isEqualTo(Duration.ofSeconds(30));
        CommandLine withOption = CommandLine.parse(new String[] {"dump", "--store", "s3://b/c", "--store-timeout", "3s"}, Set.of("store", CommandLine.STORE_TIMEOUT));
        assertThat(withOption.storeOptions().timeout()).isEqualTo(Duration.ofSeconds(3));
    }

    /** A DuckLake catalog in a DuckDB file, for import. */
    private Path sourceCatalog()
            throws Exception
    {
        Path catalog = temp.resolve("source.ducklake");
        try (java.sql.Connection connection = MoraineDuckDb.openWithDuckLake(); java.sql.Statement statement = connection.createStatement()) {
            statement.execute("ATTACH " + MoraineDuckDb.quote("ducklake:" + catalog) + " AS source (DATA_PATH " + MoraineDuckDb.quote(temp.resolve("data") + "/") + ")");
            statement.execute("CREATE TABLE source.t AS SELECT range AS a FROM range(3)");
        }
        return catalog;
    }
}
