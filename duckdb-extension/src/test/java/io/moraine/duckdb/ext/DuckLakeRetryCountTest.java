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
        try (Connection first = lakeWithOneRow(", META_COMMIT_POLICY 'retry'")) {
            assertThatThrownBy(() -> commitAfterAnotherConnectionsInsert(first))
                    .hasMessageContaining("Exceeded the maximum retry count of 1");
            assertThat(query(first, "SELECT id FROM lake.items ORDER BY id")).containsExactly(List.of("0"), List.of("2"));
        }
    }

    @Test
    void theSameRaceLandsBothCommitsUnderTheDefaultRebasePolicy()
            throws Exception
    {
        try (Connection first = lakeWithOneRow("")) {
            commitAfterAnotherConnectionsInsert(first);
            assertThat(query(first, "SELECT id FROM lake.items ORDER BY id")).containsExactly(List.of("0"), List.of("1"), List.of("2"));
        }
    }

    /** A new lake attached with {@code options}, its table holding row 0, and at most one retry a commit. */
    private Connection lakeWithOneRow(String options)
            throws Exception
    {
        Path data = Files.createDirectories(temp.resolve("data"));
        Connection connection = open();
        execute(connection, "ATTACH 'ducklake:moraine:" + temp.resolve("store") + "' AS lake (DATA_PATH '" + data + "/'" + options + ")");
        execute(connection, "CREATE TABLE lake.items (id INTEGER)");
        execute(connection, "INSERT INTO lake.items VALUES (0)");
        execute(connection, "SET ducklake_max_retry_count = 1");
        return connection;
    }

    /** {@code first} inserts row 1 in a transaction, another connection inserts row 2 meanwhile, then {@code first} commits. */
    private static void commitAfterAnotherConnectionsInsert(Connection first)
            throws Exception
    {
        try (Connection second = ((org.duckdb.DuckDBConnection) first).duplicate()) {
            execute(first, "BEGIN");
            execute(first, "INSERT INTO lake.items VALUES (1)");
            execute(second, "INSERT INTO lake.items VALUES (2)");
            execute(first, "COMMIT");
        }
    }
}
