package io.moraine.duckdb.ext;

import io.moraine.testing.S3ProxyServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.moraine.duckdb.ext.ExtensionConnections.count;
import static io.moraine.duckdb.ext.ExtensionConnections.execute;
import static io.moraine.duckdb.ext.ExtensionConnections.query;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A commit through {@code ducklake:moraine:} interrupted while its batch waits to become durable (the write-ahead log,
 * on an object store behind a {@link GatedProxy}, does not answer) reports that its outcome is unknown, never success
 * nor a clean failure; the attach then refuses writes until it is attached again, which shows what landed.
 */
class DuckLakeCommitOutcomeTest
{
    private static final String KEY_ID = "moraine-gated-key";
    private static final String SECRET = "moraine-gated-secret";
    private static final String BUCKET = "moraine-gated-wal";

    @TempDir
    Path temp;

    @Test
    void aCommitInterruptedWhileItsLogWriteHangsReportsItsOutcomeUnknown()
            throws Exception
    {
        try (S3ProxyServer server = S3ProxyServer.startPrivate(KEY_ID, SECRET);
                GatedProxy proxy = new GatedProxy(server.endpoint().getPort());
                Connection connection = ExtensionConnections.open();
                Statement statement = connection.createStatement()) {
            server.createBucket(BUCKET);
            execute(connection, "LOAD httpfs");
            execute(connection, "CREATE SECRET wal (TYPE s3, KEY_ID '" + KEY_ID + "', SECRET '" + SECRET + "', REGION 'us-east-1', ENDPOINT '"
                    + proxy.endpoint() + "', URL_STYLE 'path', USE_SSL false, SCOPE 's3://" + BUCKET + "')");
            String attach = "ATTACH 'ducklake:moraine:" + temp.resolve("store") + "' AS lake (DATA_PATH '" + temp.resolve("data")
                    + "/', DATA_INLINING_ROW_LIMIT 10, META_WAL_PATH 's3://" + BUCKET + "')";
            execute(connection, attach);
            execute(connection, "CREATE TABLE lake.t (id INTEGER)");
            execute(connection, "INSERT INTO lake.t VALUES (1)");
            long snapshots = count(connection, "SELECT count(*) FROM lake.snapshots()");

            proxy.close(true);
            CompletableFuture<SQLException> insert = CompletableFuture.supplyAsync(() -> {
                try {
                    statement.execute("INSERT INTO lake.t VALUES (2)");
                    return null;
                }
                catch (SQLException e) {
                    return e;
                }
            }, Thread::startVirtualThread);
            assertThat(proxy.awaitHeld(60)).as("the commit's log write reached the store").isTrue();
            // Let the commit settle into its wait for durability.
            Thread.sleep(1000);
            statement.cancel();
            SQLException failure = insert.get(30, TimeUnit.SECONDS);
            assertThat((Throwable) failure).as("the interrupted commit did not report success").isNotNull();
            assertThat(failure.getMessage()).contains("commit outcome unknown").contains("may or may not be durable")
                    .contains("snapshot list").doesNotContainIgnoringCase("conflict");

            // The store answers again (while it does not, every read of this attach waits for the submitted batch to
            // become durable): the attach still refuses writes, since it cannot tell what it holds from what landed.
            proxy.close(false);
            assertThatThrownBy(() -> execute(connection, "INSERT INTO lake.t VALUES (3)"))
                    .hasMessageContaining("write refused").hasMessageContaining("attach the store again");

            // The submitted batch landed, and a new attach shows it.
            execute(connection, "DETACH lake");
            execute(connection, attach);
            assertThat(count(connection, "SELECT count(*) FROM lake.snapshots()")).isEqualTo(snapshots + 1);
            assertThat(query(connection, "SELECT id FROM lake.t ORDER BY id")).containsExactly(List.of("1"), List.of("2"));
            execute(connection, "INSERT INTO lake.t VALUES (3)");
            assertThat(count(connection, "SELECT count(*) FROM lake.t")).isEqualTo(3);
        }
    }
}
