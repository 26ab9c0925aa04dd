package io.moraine.duckdb.ext;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;

import static io.moraine.duckdb.ext.DuckLakeChildProcess.attach;
import static io.moraine.duckdb.ext.DuckLakeChildProcess.awaitLine;
import static io.moraine.duckdb.ext.DuckLakeChildProcess.output;
import static io.moraine.duckdb.ext.DuckLakeChildProcess.waitFor;
import static io.moraine.duckdb.ext.ExtensionConnections.count;
import static io.moraine.duckdb.ext.ExtensionConnections.execute;
import static io.moraine.duckdb.ext.ExtensionConnections.open;
import static io.moraine.duckdb.ext.ExtensionConnections.query;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Two JVM processes attach one {@code ducklake:moraine:} store: a second writer fences the first; a reader follows. */
class DuckLakeProcessesTest
{
    @TempDir
    Path temp;

    @Test
    void aWriterInAnotherProcessFencesThisOneWhoseNextCommitSaysToReAttach()
            throws Exception
    {
        Path store = temp.resolve("store");
        Path data = Files.createDirectories(temp.resolve("data"));
        try (Connection connection = open()) {
            // Exclusive writer mode (the default hands the writer back and forth: DuckLakeWriterHandoffTest).
            execute(connection, attach(store, data, ", DATA_INLINING_ROW_LIMIT 10, META_WRITER_MODE 'exclusive'"));
            execute(connection, "CREATE TABLE lake.items (id INTEGER)");
            execute(connection, "INSERT INTO lake.items VALUES (1)");

            Process child = DuckLakeChildProcess.start("write", store.toString(), data.toString(), "2");
            awaitLine(child, output(child), "COMMITTED");
            assertThat(waitFor(child)).as("the second writer's exit status").isZero();

            assertThatThrownBy(() -> execute(connection, "INSERT INTO lake.items VALUES (3)"))
                    .hasMessageContaining("FENCED")
                    .hasMessageContaining("Re-open")
                    .satisfies(e -> assertThat(e.getMessage().toLowerCase()).doesNotContain("conflict", "concurrent", "unique", "primary key"));
        }
        // Re-attached, this process is the writer again and holds both processes' committed rows.
        try (Connection connection = open()) {
            execute(connection, attach(store, data, ""));
            execute(connection, "INSERT INTO lake.items VALUES (4)");
            assertThat(query(connection, "SELECT id FROM lake.items ORDER BY id")).containsExactly(List.of("1"), List.of("2"), List.of("4"));
        }
    }

    @Test
    void aReadOnlyAttachInAnotherProcessSeesNewCommitsAndNeverFencesTheWriter()
            throws Exception
    {
        Path store = temp.resolve("store");
        Path data = Files.createDirectories(temp.resolve("data"));
        try (Connection connection = open()) {
            execute(connection, attach(store, data, ", DATA_INLINING_ROW_LIMIT 10"));
            execute(connection, "CREATE TABLE lake.items (id INTEGER)");
            execute(connection, "INSERT INTO lake.items VALUES (1)");

            long expected = 1 + 2 + 300;
            Process reader = DuckLakeChildProcess.start("follow", store.toString(), data.toString(), Long.toString(expected));
            BufferedReader output = output(reader);
            assertThat(awaitLine(reader, output, "ATTACHED ")).isEqualTo("ATTACHED 1");

            // Commits after the reader attached: inlined rows, then a Parquet file. The writer is not fenced.
            execute(connection, "INSERT INTO lake.items VALUES (2), (3)");
            execute(connection, "INSERT INTO lake.items SELECT i FROM range(100, 400) t(i)");
            assertThat(count(connection, "SELECT count(*) FROM lake.items")).isEqualTo(expected);

            assertThat(awaitLine(reader, output, "SAW ")).isEqualTo("SAW " + expected);
            assertThat(waitFor(reader)).as("the reader's exit status").isZero();
            execute(connection, "INSERT INTO lake.items VALUES (5)");
            assertThat(count(connection, "SELECT count(*) FROM lake.items")).isEqualTo(expected + 1);
        }
    }

    @Test
    void aReadOnlyDuckLakeAttachTakesItsFreshnessAsMetaOptions()
            throws Exception
    {
        Path store = temp.resolve("store");
        Path data = Files.createDirectories(temp.resolve("data"));
        try (Connection writer = open(); Connection reader = open()) {
            execute(writer, attach(store, data, ", DATA_INLINING_ROW_LIMIT 10"));
            execute(writer, "CREATE TABLE lake.items (id INTEGER)");
            assertThatThrownBy(() -> execute(reader, attach(store, data, ", READ_ONLY, META_READER_FRESHNESS 'sometimes'")))
                    .hasMessageContaining("READER_FRESHNESS").hasMessageContaining("on-demand");
            execute(reader, attach(store, data, ", READ_ONLY, META_READER_FRESHNESS 'on-demand', META_MAX_STALENESS '0s'"));
            for (int i = 1; i <= 3; i++) {
                execute(writer, "INSERT INTO lake.items VALUES (" + i + ")");
                assertThat(count(reader, "SELECT count(*) FROM lake.items")).as("insert %d, the reader's next statement", i).isEqualTo(i);
            }
        }
    }
}
