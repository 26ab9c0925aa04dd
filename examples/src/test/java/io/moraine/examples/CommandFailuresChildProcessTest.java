package io.moraine.examples;

import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.catalog.NewCatalog;
import io.moraine.core.store.StoreUri;
import io.moraine.testing.S3ProxyServer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code bin/moraine} commands in a child JVM whose environment points at a store that cannot be used: an endpoint
 * that refuses connections, or S3 with a wrong secret. Each fails with a typed error within its store timeout (the
 * child is given a generous 60 s before the test gives up on it), and nothing it prints (standard output, standard
 * error, JVM and library logging included) or leaves in its working directory holds a credential value.
 */
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

    record Outcome(int status, String output, List<Path> leftFiles) {}

    private Outcome runChild(Map<String, String> environment, String... args)
            throws IOException, InterruptedException
    {
        Path workDirectory = Files.createTempDirectory(temp, "child");
        Path output = temp.resolve(workDirectory.getFileName() + ".out");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow",
                "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(workDirectory.toFile()).redirectErrorStream(true).redirectOutput(output.toFile());
        builder.environment().putAll(environment);
        // Verbose native logging, should the binding honour it: a credential must not appear there either.
        builder.environment().put("RUST_LOG", "debug");
        Process child = builder.start();
        boolean finished = child.waitFor(CHILD_LIMIT_SECONDS, TimeUnit.SECONDS);
        if (!finished) {
            child.destroyForcibly().waitFor();
        }
        assertThat(finished).as("the command returned before the %d s limit; it printed:%n%s", CHILD_LIMIT_SECONDS, Files.readString(output)).isTrue();
        List<Path> left;
        try (var files = Files.walk(workDirectory)) {
            left = files.filter(Files::isRegularFile).toList();
        }
        String printed = Files.readString(output, StandardCharsets.UTF_8);
        System.out.println("---- child " + String.join(" ", args) + " exited " + child.exitValue() + ":\n" + printed);
        return new Outcome(child.exitValue(), printed, left);
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
        int checked = 0;
        for (String[] args : List.of(
                new String[] {"dump", "--store", "s3://" + bucket + "/catalog", "--store-timeout", "3s", "--table", "ducklake_snapshot"},
                new String[] {"cat", "--store", "s3://" + bucket + "/catalog", "--store-timeout", "3s", "main.t"})) {
            Outcome outcome = runChild(credentials(endpoint), args);
            assertThat(outcome.status()).as(outcome.output()).isEqualTo(1);
            assertThat(outcome.output())
                    .contains("moraine " + args[0] + ": STORE: store s3://" + bucket + "/catalog did not answer within 3.0 s")
                    .contains("bucket '" + bucket + "' at endpoint " + endpoint + " (AWS_ENDPOINT)")
                    .contains("--store-timeout")
                    .contains("moraine.store-timeout");
            assertNoSecret(outcome);
            checked++;
        }
        assertThat(checked).isEqualTo(2);
    }

    @Test
    void theDefaultStoreTimeoutAppliesWithoutTheOption()
            throws Exception
    {
        Outcome outcome = runChild(credentials("http://127.0.0.1:9"), "dump", "--store", "s3://" + bucket + "/catalog", "--table", "ducklake_snapshot");
        assertThat(outcome.status()).as(outcome.output()).isEqualTo(1);
        assertThat(outcome.output()).contains("did not answer within 30.0 s");
        assertNoSecret(outcome);
    }

    @Test
    void aWrongSecretFailsWithoutPrintingIt()
            throws Exception
    {
        String endpoint = S3ProxyServer.shared().endpoint().toString();
        int checked = 0;
        for (String[] args : List.of(
                new String[] {"dump", "--store", "s3://" + bucket + "/catalog", "--store-timeout", "5s", "--table", "ducklake_snapshot"},
                new String[] {"cat", "--store", "s3://" + bucket + "/catalog", "--store-timeout", "5s", "main.t"},
                new String[] {"flush", "--store", "s3://" + bucket + "/catalog", "--store-timeout", "5s"})) {
            Outcome outcome = runChild(credentials(endpoint), args);
            assertThat(outcome.status()).as(outcome.output()).isEqualTo(1);
            assertThat(outcome.output()).contains("moraine " + args[0] + ": STORE: ").contains("bucket '" + bucket + "'");
            assertNoSecret(outcome);
            checked++;
        }
        assertThat(checked).isEqualTo(3);
    }
}
