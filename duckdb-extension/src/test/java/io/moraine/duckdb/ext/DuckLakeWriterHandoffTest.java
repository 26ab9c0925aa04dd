package io.moraine.duckdb.ext;

import io.moraine.core.store.StoreOptions;
import io.moraine.core.store.StoreUri;
import io.moraine.core.verify.StoreVerifier;
import io.moraine.core.verify.VerifyReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import static io.moraine.duckdb.ext.ExtensionConnections.count;
import static io.moraine.duckdb.ext.ExtensionConnections.execute;
import static io.moraine.duckdb.ext.ExtensionConnections.open;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The writer hand-off through {@code ducklake:moraine:} (docs/writes.md, "The writer hand-off"): the attach option
 * {@code META_WRITER_MODE}, and two DuckDB processes inserting interleaved into one lake.
 */
class DuckLakeWriterHandoffTest
{
    static final int INSERTS_PER_PROCESS = 12;

    @TempDir
    Path temp;

    @Test
    void twoDuckDbProcessesInsertingInterleavedLoseNoAcknowledgedCommit()
            throws Exception
    {
        Path store = temp.resolve("store");
        Path data = Files.createDirectories(temp.resolve("data"));
        try (Connection connection = open()) {
            execute(connection, DuckLakeChildProcess.attach(store, data, ", META_WRITER_MODE 'handoff'"));
            execute(connection, "CREATE TABLE lake.items (id INTEGER)");
            Process child = DuckLakeChildProcess.start("handoff-inserts", store.toString(), data.toString(), "1000", String.valueOf(INSERTS_PER_PROCESS));
            BufferedReader output = DuckLakeChildProcess.output(child);
            DuckLakeChildProcess.awaitLine(child, output, "ATTACHED");
            for (int i = 0; i < INSERTS_PER_PROCESS; i++) {
                execute(connection, "INSERT INTO lake.items VALUES (" + i + ")");
                Thread.sleep(ThreadLocalRandom.current().nextInt(40));
            }
            DuckLakeChildProcess.awaitLine(child, output, "INSERTED " + INSERTS_PER_PROCESS);
            assertThat(DuckLakeChildProcess.waitFor(child)).isZero();
            // This process still holds a handle; its reads see the other's commits once its reader caught up.
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (count(connection, "SELECT count(*) FROM lake.items") < 2L * INSERTS_PER_PROCESS && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            List<Long> expected = new ArrayList<>();
            for (int i = 0; i < INSERTS_PER_PROCESS; i++) {
                expected.add((long) i);
            }
            for (int i = 0; i < INSERTS_PER_PROCESS; i++) {
                expected.add(1000L + i);
            }
            assertThat(ExtensionConnections.query(connection, "SELECT id FROM lake.items ORDER BY id").stream().map(row -> Long.parseLong(row.getFirst())).toList())
                    .isEqualTo(expected);
            // One more commit here: it takes the writer back once more and lands.
            execute(connection, "INSERT INTO lake.items VALUES (5000)");
            assertThat(count(connection, "SELECT count(*) FROM lake.items")).isEqualTo(2L * INSERTS_PER_PROCESS + 1);
        }
        VerifyReport report = StoreVerifier.verify(StoreUri.parse(store.toString()), StoreOptions.DEFAULTS, StoreVerifier.Options.STORE_ONLY);
        assertThat(report.problems()).isEmpty();
    }

    @Test
    void theWriterModeOptionTakesHandoffOrExclusiveAndRefusesAnythingElse()
            throws Exception
    {
        Path data = Files.createDirectories(temp.resolve("data"));
        for (String mode : List.of("handoff", "EXCLUSIVE")) {
            Path store = temp.resolve("store-" + mode);
            try (Connection connection = open()) {
                execute(connection, DuckLakeChildProcess.attach(store, data, ", META_WRITER_MODE '" + mode + "'"));
                execute(connection, "CREATE TABLE lake.items (id INTEGER)");
                execute(connection, "INSERT INTO lake.items VALUES (1)");
                assertThat(count(connection, "SELECT count(*) FROM lake.items")).isEqualTo(1);
            }
        }
        // Exclusive: a second writer fences the first for good.
        Path store = temp.resolve("store-EXCLUSIVE");
        try (Connection first = open(); Connection second = open()) {
            execute(first, DuckLakeChildProcess.attach(store, data, ", META_WRITER_MODE 'exclusive'"));
            execute(first, "INSERT INTO lake.items VALUES (2)");
            execute(second, DuckLakeChildProcess.attach(store, data, ", META_WRITER_MODE 'exclusive'"));
            execute(second, "INSERT INTO lake.items VALUES (3)");
            assertThatThrownBy(() -> execute(first, "INSERT INTO lake.items VALUES (4)")).hasMessageContaining("FENCED");
        }
        try (Connection connection = open()) {
            assertThatThrownBy(() -> execute(connection, DuckLakeChildProcess.attach(temp.resolve("store-handoff"), data, ", META_WRITER_MODE 'shared'")))
                    .hasMessageContaining("WRITER_MODE")
                    .hasMessageContaining("handoff, exclusive")
                    .hasMessageContaining("'shared'");
        }
    }
}
