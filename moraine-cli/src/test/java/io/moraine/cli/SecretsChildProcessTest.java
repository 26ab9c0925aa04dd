package io.moraine.cli;

import io.moraine.cli.ChildCommand.Invocation;
import io.moraine.cli.ChildCommand.Outcome;
import io.moraine.testing.DuckLakeOracle;
import io.moraine.testing.DuckLakeOracle.CatalogDatabase;
import io.moraine.testing.S3ProxyServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No credential value appears in anything a command prints or leaves behind: {@code bin/moraine} commands run in child
 * JVMs with known secret values in the environment (the secret key and a session token) and as a DuckDB secret,
 * against an S3 store (S3Proxy) that accepts them and with a wrong secret (an unreachable endpoint is
 * {@link CommandFailuresChildProcessTest}'s, with the same scan); every output,
 * every file left in the child's working directory and every file under the lake's data path is scanned for the values.
 * The scan is shown to catch a value that is printed (a child whose SQL selects it).
 */
class SecretsChildProcessTest
{
    private static final String KEY_ID = "moraine-secrets-key-id";
    private static final String SECRET = "known-secret-3f9a61c0-never-print";
    private static final String WRONG_SECRET = "known-wrong-secret-8d2e4b17-never-print";
    private static final String SESSION_TOKEN = "known-session-token-a47c09e5-never-print";
    private static final String DUCKDB_SECRET = "known-duckdb-secret-61be2d93-never-print";
    private static final List<String> SECRETS = List.of(SECRET, WRONG_SECRET, SESSION_TOKEN, DUCKDB_SECRET);
    private static final String BUCKET = "moraine-secrets";

    @TempDir
    static Path temp;

    private static S3ProxyServer server;
    private static Path source;
    private static Path dataPath;
    private static final List<Outcome> SCANNED = new ArrayList<>();

    @BeforeAll
    static void privateS3AndADuckLakeCatalog()
            throws Exception
    {
        server = S3ProxyServer.startPrivate(KEY_ID, SECRET);
        server.createBucket(BUCKET);
        Path lake = temp.resolve("lake");
        try (DuckLakeOracle oracle = DuckLakeOracle.create(lake, CatalogDatabase.DUCKDB)) {
            // Before its flush the workload leaves inlined rows, so flush has work to do.
            oracle.run(DuckLakeOracle.WORKLOAD_BEFORE_FLUSH);
            dataPath = oracle.dataPath();
            oracle.detach();
        }
        source = lake.resolve("catalog.ducklake");
    }

    @AfterAll
    static void stop()
            throws Exception
    {
        server.close();
    }

    private static Map<String, String> environment(String endpoint, String secret)
    {
        Map<String, String> environment = new HashMap<>(Map.of("AWS_ENDPOINT", endpoint, "AWS_ALLOW_HTTP", "true", "AWS_REGION", "us-east-1",
                "AWS_ACCESS_KEY_ID", KEY_ID, "AWS_SECRET_ACCESS_KEY", secret));
        environment.put("AWS_SESSION_TOKEN", SESSION_TOKEN);
        return environment;
    }

    private static Map<String, String> rightCredentials()
    {
        Map<String, String> environment = environment(server.endpoint().toString(), SECRET);
        // S3Proxy checks signatures only, so the session token rides along unverified on the right requests too.
        return environment;
    }

    private static String store(String name)
    {
        return "s3://" + BUCKET + "/" + name;
    }

    /** The commands that open an existing store, with what they need besides the store. */
    private static List<List<String>> readingCommands(String store, String timeout)
    {
        return List.of(
                List.of("dump", "--store", store, "--store-timeout", timeout, "--table", "ducklake_data_file"),
                List.of("dump", "--store", store, "--store-timeout", timeout, "--table", "ducklake_inlined_data_4_11"),
                List.of("cat", "--store", store, "--store-timeout", timeout, "sales.orders"),
                List.of("verify", "--store", store, "--store-timeout", timeout, "--check-files"),
                List.of("duckdb", "--store", store, "--store-timeout", timeout, "--mode", "read-only",
                        "SELECT count(*) AS snapshots FROM __ducklake_metadata_lake.ducklake_snapshot"));
    }

    private static Outcome run(Map<String, String> environment, List<String> args)
            throws Exception
    {
        Outcome outcome = ChildCommand.run(temp, environment, args.toArray(String[]::new));
        SCANNED.add(outcome);
        return outcome;
    }

    /** Independent commands, run a few at a time. */
    private static List<Outcome> runAll(List<Invocation> invocations)
            throws Exception
    {
        List<Outcome> outcomes = ChildCommand.runAll(temp, invocations);
        SCANNED.addAll(outcomes);
        return outcomes;
    }

    /** Every value found in the outcome's output or files, with where. */
    private static List<String> leaks(Outcome outcome)
            throws IOException
    {
        List<String> leaks = new ArrayList<>();
        List<Path> files;
        try (Stream<Path> walk = Files.walk(dataPath)) {
            files = Stream.concat(outcome.leftFiles().stream(), walk.filter(Files::isRegularFile)).toList();
        }
        for (String secret : SECRETS) {
            if (outcome.output().contains(secret)) {
                leaks.add(secret + " in the output");
            }
            for (Path file : files) {
                if (new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1).contains(secret)) {
                    leaks.add(secret + " in " + file);
                }
            }
        }
        return leaks;
    }

    @Test
    void noCommandPrintsOrLeavesACredentialWithRightOrWrongCredentials()
            throws Exception
    {
        // Right credentials: import creates the store, every other command reads or writes it.
        Outcome imported = run(rightCredentials(), List.of("import", "--source", "ducklake:" + source, "--store", store("catalog"),
                "--store-timeout", "10s"));
        assertThat(imported.status()).as(imported.output()).isZero();
        int succeeded = 1;
        List<List<String>> reading = readingCommands(store("catalog"), "10s");
        List<Outcome> reads = runAll(reading.stream().map(command -> new Invocation(rightCredentials(), command)).toList());
        for (int i = 0; i < reads.size(); i++) {
            assertThat(reads.get(i).status()).as("%s: %s", reading.get(i), reads.get(i).output()).isZero();
            succeeded++;
        }
        // A DuckDB secret holding a known value, then a statement that fails: DuckDB's error must not quote the secret.
        Outcome withSecret = run(rightCredentials(), List.of("duckdb", "--store", store("catalog"), "--mode", "read-only",
                "CREATE SECRET lake_data (TYPE s3, KEY_ID '" + KEY_ID + "', SECRET '" + DUCKDB_SECRET + "', ENDPOINT '" + server.endpoint().getAuthority()
                        + "', URL_STYLE 'path', USE_SSL false, SCOPE 's3://" + BUCKET + "/data'); "
                        + "SELECT count(*) FROM read_parquet('s3://" + BUCKET + "/data/missing.parquet')"));
        assertThat(withSecret.status()).as(withSecret.output()).isEqualTo(1);
        Outcome flushed = run(rightCredentials(), List.of("flush", "--store", store("catalog"), "--store-timeout", "10s"));
        assertThat(flushed.status()).as(flushed.output()).isZero();
        assertThat(flushed.output()).contains("flushed at snapshot");
        succeeded++;

        // A wrong secret: every command fails, typed, naming the bucket. (An unreachable endpoint, with the same scan of
        // output and left files, is CommandFailuresChildProcessTest's.)
        List<Invocation> failing = new ArrayList<>();
        List<List<String>> commands = new ArrayList<>(readingCommands(store("catalog"), "3s"));
        commands.add(List.of("flush", "--store", store("catalog"), "--store-timeout", "3s"));
        commands.add(List.of("import", "--source", "ducklake:" + source, "--store", store("another"), "--store-timeout", "3s"));
        commands.forEach(command -> failing.add(new Invocation(environment(server.endpoint().toString(), WRONG_SECRET), command)));
        List<Outcome> failures = runAll(failing);
        int failed = 0;
        for (int i = 0; i < failures.size(); i++) {
            Outcome outcome = failures.get(i);
            List<String> command = failing.get(i).args();
            assertThat(outcome.status()).as("%s: %s", command, outcome.output()).isEqualTo(1);
            assertThat(outcome.output()).as("%s", command).contains("bucket '" + BUCKET + "'");
            if (!command.getFirst().equals("duckdb") && !command.contains("ducklake_inlined_data_4_11")) {
                assertThat(outcome.output()).as("%s", command).contains("moraine " + command.getFirst() + ": STORE: ");
            }
            failed++;
        }
        assertThat(server.objects(BUCKET, "another/")).as("a failed import writes nothing").isEmpty();

        int scanned = 0;
        for (Outcome outcome : SCANNED) {
            assertThat(leaks(outcome)).as("credential values printed or left behind by a command that printed:%n%s", outcome.output()).isEmpty();
            scanned++;
        }
        assertThat(succeeded).isEqualTo(7);
        assertThat(failed).isEqualTo(7);
        assertThat(scanned).isEqualTo(succeeded + 1 + failed);
    }

    @Test
    void theScanCatchesAPrintedCredential()
            throws Exception
    {
        // A child that does print a secret value (here because its SQL asks for it): the scan must report it, or it proves
        // nothing above. That the children get the environment's values shows in the right credentials' successes.
        Outcome printing = ChildCommand.run(temp, rightCredentials(), "duckdb", "--store", temp.resolve("scan-store").toString(), "--data-path",
                temp.resolve("scan-data").toString(), "SELECT '" + SECRET + "' AS printed");
        assertThat(printing.status()).as(printing.output()).isZero();
        assertThat(leaks(printing)).containsExactly(SECRET + " in the output");
    }
}
