package io.moraine.cli;

import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.catalog.NewCatalog;
import io.moraine.testing.S3ProxyServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Commands that open a store never create one: a mistyped store is refused with a typed error that says how to
 * create a store, and the location is left exactly as it was, locally and on S3.
 */
class CommandMistakesTest
{
    /** The commands that open an existing store, each with the arguments it needs besides the store. */
    private static final List<List<String>> OPENING_COMMANDS = List.of(
            List.of("flush"),
            List.of("dump", "--table", "ducklake_snapshot"),
            List.of("cat", "main.t"),
            List.of("verify", "--check-files"));

    @TempDir
    Path temp;

    record Outcome(int status, String out, String err) {}

    /** Runs {@code bin/moraine <args>} in this JVM, capturing what it prints. */
    static synchronized Outcome runInProcess(List<String> args)
    {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream capturedOut = new ByteArrayOutputStream();
        ByteArrayOutputStream capturedErr = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(capturedOut, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(capturedErr, true, StandardCharsets.UTF_8));
            int status = Main.run(args.toArray(String[]::new));
            System.out.flush();
            return new Outcome(status, capturedOut.toString(StandardCharsets.UTF_8), capturedErr.toString(StandardCharsets.UTF_8));
        }
        finally {
            System.setOut(out);
            System.setErr(err);
        }
    }

    private static List<String> withStore(List<String> command, String store)
    {
        return java.util.stream.Stream.concat(java.util.stream.Stream.of(command.getFirst(), "--store", store), command.stream().skip(1)).toList();
    }

    @Test
    void aMistypedLocalStoreIsRefusedAndLeftAbsent()
            throws Exception
    {
        Path lakes = Files.createDirectory(temp.resolve("lakes"));
        Path mistyped = lakes.resolve("catalgo");
        int refused = 0;
        for (List<String> command : OPENING_COMMANDS) {
            Outcome outcome = runInProcess(withStore(command, mistyped.toString()));
            assertThat(outcome.status()).as("%s exits with failure", command).isEqualTo(1);
            assertThat(outcome.err())
                    .contains("moraine " + command.getFirst() + ": NOT_FOUND: no moraine store exists at " + mistyped)
                    .contains("nothing was written")
                    .contains("bin/moraine import");
            assertThat(outcome.out()).isEmpty();
            assertThat(mistyped).doesNotExist();
            try (var entries = Files.list(lakes)) {
                assertThat(entries).isEmpty();
            }
            refused++;
        }
        assertThat(refused).isEqualTo(OPENING_COMMANDS.size());
    }

    @Test
    void aMistypedS3StoreIsRefusedAndTheBucketIsLeftUnchanged()
            throws Exception
    {
        S3ProxyServer s3 = S3ProxyServer.shared();
        String bucket = s3.createBucket("moraine-command-mistakes");
        MoraineCatalog.create(io.moraine.core.store.StoreUri.parse("s3://" + bucket + "/catalog"), NewCatalog.bootstrapped("s3://" + bucket + "/data")).close();
        Map<String, Long> before = s3.objects(bucket, "");
        assertThat(before).isNotEmpty();
        String mistyped = "s3://" + bucket + "/catalgo";
        int refused = 0;
        for (List<String> command : OPENING_COMMANDS) {
            Outcome outcome = runInProcess(withStore(command, mistyped));
            assertThat(outcome.status()).as("%s exits with failure", command).isEqualTo(1);
            assertThat(outcome.err())
                    .contains("NOT_FOUND: no moraine store exists at " + mistyped)
                    .contains("bucket '" + bucket + "' at endpoint " + System.getenv("AWS_ENDPOINT"))
                    .contains("bin/moraine import");
            assertThat(s3.objects(bucket, "")).isEqualTo(before);
            refused++;
        }
        assertThat(refused).isEqualTo(OPENING_COMMANDS.size());

        // verify reads the real store without writing to it either (no reader checkpoint in its manifest).
        Outcome verified = runInProcess(List.of("verify", "--store", "s3://" + bucket + "/catalog"));
        assertThat(verified.status()).as(verified.err()).isZero();
        assertThat(verified.out()).contains("catalog rows").endsWith("; no problems\n");
        assertThat(s3.objects(bucket, "")).isEqualTo(before);
    }

    /** The commands that open an existing store through DuckDB (moraine's extension), whose errors DuckDB words. */
    private static final List<List<String>> DUCKDB_OPENING_COMMANDS = List.of(
            List.of("duckdb", "--mode", "read-only", "SELECT 1"),
            List.of("duckdb", "--checkpoint", "0f0e0d0c-0b0a-4908-8706-050403020100", "SELECT 1"),
            List.of("dump", "--table", "ducklake_inlined_data_1_1"));

    @Test
    void aMistypedStoreOpenedThroughDuckDbIsRefusedAndLeftAbsentLocallyAndOnS3()
            throws Exception
    {
        Path lakes = Files.createDirectory(temp.resolve("duckdb-lakes"));
        Path mistyped = lakes.resolve("catalgo");
        S3ProxyServer s3 = S3ProxyServer.shared();
        String bucket = s3.createBucket("moraine-duckdb-mistakes");
        MoraineCatalog.create(io.moraine.core.store.StoreUri.parse("s3://" + bucket + "/catalog"), NewCatalog.bootstrapped("s3://" + bucket + "/data")).close();
        Map<String, Long> before = s3.objects(bucket, "");
        int refused = 0;
        for (List<String> command : DUCKDB_OPENING_COMMANDS) {
            for (String store : List.of(mistyped.toString(), "s3://" + bucket + "/catalgo")) {
                Outcome outcome = runInProcess(withStore(command, store));
                assertThat(outcome.status()).as("%s on %s: %s", command, store, outcome.err()).isEqualTo(1);
                assertThat(outcome.err()).startsWith("moraine " + command.getFirst() + ": ").contains("no moraine store exists at " + store)
                        .contains("nothing was written");
                assertThat(mistyped).doesNotExist();
                assertThat(s3.objects(bucket, "")).isEqualTo(before);
                refused++;
            }
        }
        // Without --mode the attach would create a lake: refused as a usage error without --data-path, before DuckDB runs.
        Outcome creating = runInProcess(List.of("duckdb", "--store", mistyped.toString(), "SELECT 1"));
        assertThat(creating.status()).isEqualTo(2);
        assertThat(creating.err()).contains("holds no lake yet: give --data-path");
        assertThat(mistyped).doesNotExist();
        assertThat(refused).isEqualTo(DUCKDB_OPENING_COMMANDS.size() * 2);
    }

    @Test
    void aStoreTimeoutThatIsNotADurationIsAUsageError()
    {
        Outcome outcome = runInProcess(List.of("dump", "--store", temp.resolve("x").toString(), "--store-timeout", "soon", "--table", "ducklake_snapshot"));
        assertThat(outcome.status()).isEqualTo(2);
        assertThat(outcome.err()).contains("--store-timeout takes a duration such as '30s', '500ms' or '2m', not 'soon'");
        assertThat(temp.resolve("x")).doesNotExist();
    }
}
