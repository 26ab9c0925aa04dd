package io.moraine.duckdb.ext;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;

import static io.moraine.duckdb.ext.ExtensionConnections.execute;
import static io.moraine.duckdb.ext.ExtensionConnections.open;
import static io.moraine.duckdb.ext.ExtensionConnections.query;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * DuckLake's {@code ducklake_max_retry_count} on a moraine lake (the corpus's settings/max_retry_count.test needs
 * commits that conflict, which the default commit policy rebases instead): under {@code META_COMMIT_POLICY 'retry'}
 * a commit that lost a race is retried at most that many times, then fails with DuckLake's own message.
 */
class DuckLakeRetryCountTest
{
    @TempDir
    Path temp;

    @Test
    void aCommitThatLosesARaceFailsOnceItsRetriesAreUsedUpUnderTheRetryPolicy()
            throws Exception
    {
        Path data = Files.createDirectories(temp.resolve("data"));
        try (Connection first = open()) {
            execute(first, "ATTACH 'ducklake:moraine:" + temp.resolve("store") + "' AS lake (DATA_PATH '" + data + "/', META_COMMIT_POLICY 'retry')");
            execute(first, "CREATE TABLE lake.items (id INTEGER)");
            execute(first, "INSERT INTO lake.items VALUES (0)");
            execute(first, "SET ducklake_max_retry_count = 1");
            try (Connection second = ((org.duckdb.DuckDBConnection) first).duplicate()) {
                execute(first, "BEGIN");
                execute(first, "INSERT INTO lake.items VALUES (1)");
                execute(second, "INSERT INTO lake.items VALUES (2)");
                assertThatThrownBy(() -> execute(first, "COMMIT"))
                        .hasMessageContaining("Exceeded the maximum retry count of 1");
            }
            assertThat(query(first, "SELECT id FROM lake.items ORDER BY id")).containsExactly(List.of("0"), List.of("2"));
        }
    }

    @Test
    void theSameRaceLandsBothCommitsUnderTheDefaultRebasePolicy()
            throws Exception
    {
        Path data = Files.createDirectories(temp.resolve("data"));
        try (Connection first = open()) {
            execute(first, "ATTACH 'ducklake:moraine:" + temp.resolve("store") + "' AS lake (DATA_PATH '" + data + "/')");
            execute(first, "CREATE TABLE lake.items (id INTEGER)");
            execute(first, "INSERT INTO lake.items VALUES (0)");
            execute(first, "SET ducklake_max_retry_count = 1");
            try (Connection second = ((org.duckdb.DuckDBConnection) first).duplicate()) {
                execute(first, "BEGIN");
                execute(first, "INSERT INTO lake.items VALUES (1)");
                execute(second, "INSERT INTO lake.items VALUES (2)");
                execute(first, "COMMIT");
            }
            assertThat(query(first, "SELECT id FROM lake.items ORDER BY id")).containsExactly(List.of("0"), List.of("1"), List.of("2"));
        }
    }
}
