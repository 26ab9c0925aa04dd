package io.moraine.duckdb.ext;

import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.catalog.NewCatalog;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.keyspace.RowKeys;
import io.moraine.core.keyspace.Subspace;
import io.moraine.core.keyspace.SystemKeys;
import io.moraine.core.store.StoreReadListener;
import io.moraine.core.store.StoreUri;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static io.moraine.duckdb.ext.ExtensionConnections.count;
import static io.moraine.duckdb.ext.ExtensionConnections.execute;
import static io.moraine.duckdb.ext.ExtensionConnections.query;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * RFC 0006's error table as DuckDB shows it: each code the core raises on a path DuckDB reaches, provoked through real
 * DuckDB (JDBC), arrives as the DuckDB exception of the table ("Shim raises"), carrying the core's words. Errors of a
 * statement keep their class; an error of a COMMIT is re-raised by DuckDB 1.5.5 itself as a TransactionException
 * "Failed to commit: <message>" (TransactionContext::Commit keeps only INTERNAL and FATAL), which these tests pin
 * too. The codes no DuckDB path raises (RETRY_EXHAUSTED, SNAPSHOT_EXPIRED, OPEN_RACED) are
 * listed in docs/duckdb.md's error section; COMMIT_OUTCOME_UNKNOWN is provoked by DuckLakeCommitOutcomeTest.
 */
class ErrorTableTest
{
    // DuckLake retries a commit whose message holds one of these (DuckLakeTransaction::RetryOnError).
    private static final String[] RETRY_WORDS = {"conflict", "concurrent", "unique", "primary key"};

    @TempDir
    Path temp;

    /** The message of the SQLException {@code sql} fails with, printed for the record. */
    private static String failure(Connection connection, String code, String sql)
    {
        try {
            execute(connection, sql);
        }
        catch (SQLException e) {
            System.out.println("[error table] " + code + ": " + e.getMessage().replace('\n', ' '));
            return e.getMessage();
        }
        throw new AssertionError(code + ": expected " + sql + " to fail");
    }

    private StoreUri bootstrappedStore(String name)
    {
        StoreUri store = StoreUri.parse(temp.resolve(name).toString());
        MoraineCatalog.create(store, NewCatalog.bootstrapped(temp.resolve(name + "-data").toString())).close();
        return store;
    }

    @Test
    void notFoundIsACatalogError()
            throws Exception
    {
        Path missing = temp.resolve("missing");
        StoreUri store = bootstrappedStore("store");
        try (Connection connection = ExtensionConnections.open()) {
            assertThat(failure(connection, "NOT_FOUND", "ATTACH '" + missing + "' AS m (TYPE moraine, READ_ONLY)"))
                    .startsWith("Catalog Error: ")
                    .contains("no moraine store exists at " + missing);
            assertThat(failure(connection, "NOT_FOUND", "ATTACH '" + store + "' AS m (TYPE moraine, CHECKPOINT '6f1c7d8e-0000-4000-8000-000000000000')"))
                    .startsWith("Catalog Error: ")
                    .contains("has no checkpoint 6f1c7d8e-0000-4000-8000-000000000000")
                    .doesNotContain("never creates a store");
        }
    }

    @Test
    void alreadyExistsIsACatalogErrorThatDuckDbReRaisesAtCommit()
            throws Exception
    {
        // Two creators of one new lake: this attach sees an empty store, another process creates the catalog, then
        // this attach's bootstrap commits.
        Path directory = temp.resolve("store");
        try (Connection connection = ExtensionConnections.open()) {
            execute(connection, "ATTACH '" + directory + "' AS m (TYPE moraine)");
            MoraineCatalog.create(StoreUri.parse(directory.toString()), NewCatalog.bootstrapped(temp.resolve("data").toString())).close();
            execute(connection, "BEGIN");
            execute(connection, "CREATE TABLE m.ducklake_metadata(key VARCHAR NOT NULL, value VARCHAR NOT NULL, scope VARCHAR, scope_id BIGINT)");
            execute(connection, "INSERT INTO m.ducklake_metadata VALUES ('version', '1.0', NULL, NULL), ('data_path', '" + temp.resolve("other") + "/', NULL, NULL)");
            assertThat(failure(connection, "ALREADY_EXISTS", "COMMIT"))
                    .startsWith("TransactionContext Error: Failed to commit: ")
                    .contains("store " + directory + " is not empty; a new catalog needs an empty store");
        }
    }

    @Test
    void constraintIsACatalogErrorThatDuckDbReRaisesAtCommit()
            throws Exception
    {
        StoreUri store = bootstrappedStore("store");
        try (Connection connection = ExtensionConnections.open()) {
            execute(connection, "ATTACH '" + store + "' AS m (TYPE moraine)");
            assertThat(failure(connection, "CONSTRAINT", "INSERT INTO m.ducklake_snapshot VALUES (0, now(), 0, 1, 0)"))
                    .startsWith("TransactionContext Error: Failed to commit: ")
                    .contains("a row with the same key [snapshot_id=0] exists already in ducklake_snapshot");
            assertThat(count(connection, "SELECT count(*) FROM m.ducklake_snapshot")).isEqualTo(1);
        }
    }

    @Test
    void commitConflictIsATransactionErrorWhoseMessageSaysConflict()
            throws Exception
    {
        StoreUri store = bootstrappedStore("store");
        // At commit: a commit that read snapshot 0 while another landed snapshot 1 (commit policy RETRY: no rebase).
        try (Connection first = ExtensionConnections.open(); Connection second = ((org.duckdb.DuckDBConnection) first).duplicate()) {
            execute(first, "ATTACH '" + store + "' AS m (TYPE moraine, COMMIT_POLICY 'retry')");
            execute(first, "BEGIN");
            assertThat(count(first, "SELECT count(*) FROM m.ducklake_snapshot")).isEqualTo(1);
            execute(second, "BEGIN");
            execute(second, "INSERT INTO m.ducklake_snapshot VALUES (1, now(), 0, 1, 0)");
            execute(second, "INSERT INTO m.ducklake_snapshot_changes VALUES (1, 'created_schema:\"s\"', NULL, NULL, NULL)");
            execute(second, "COMMIT");
            execute(first, "INSERT INTO m.ducklake_snapshot VALUES (1, now(), 0, 1, 0)");
            assertThat(failure(first, "COMMIT_CONFLICT", "COMMIT"))
                    .startsWith("TransactionContext Error: Failed to commit: ")
                    .contains("commit conflict: this transaction read snapshot 0 but the catalog head is now 1")
                    .satisfies(message -> assertThat(message.toLowerCase(Locale.ROOT)).contains("conflict"));
        }

        // In a statement: two open transactions of one attach delete the same inlined row version.
        Path lakeStore = temp.resolve("lake");
        try (Connection connection = ExtensionConnections.open()) {
            execute(connection, "ATTACH 'ducklake:moraine:" + lakeStore + "' AS lake (DATA_PATH '" + temp.resolve("lake-data") + "/')");
            execute(connection, "CREATE TABLE lake.t (i INTEGER)");
            execute(connection, "INSERT INTO lake.t VALUES (1), (2)");
        }
        try (Connection first = ExtensionConnections.open(); Connection second = ((org.duckdb.DuckDBConnection) first).duplicate()) {
            execute(first, "ATTACH '" + lakeStore + "' AS m (TYPE moraine)");
            String inlined = query(first, "SELECT table_name FROM m.ducklake_inlined_data_tables").getFirst().getFirst();
            execute(first, "BEGIN");
            execute(first, "DELETE FROM m." + inlined + " WHERE row_id = 0");
            execute(second, "BEGIN");
            assertThat(failure(second, "COMMIT_CONFLICT", "DELETE FROM m." + inlined + " WHERE row_id = 0"))
                    .startsWith("TransactionContext Error: ")
                    .contains("Conflict on deletion of inlined row")
                    .satisfies(message -> assertThat(message.toLowerCase(Locale.ROOT)).contains("conflict"));
            execute(second, "ROLLBACK");
            execute(first, "ROLLBACK");
            assertThat(count(first, "SELECT count(*) FROM m." + inlined)).isEqualTo(2);
        }
    }

    @Test
    void corruptionIsAnIoError()
            throws Exception
    {
        StoreUri store = StoreUri.parse(temp.resolve("store").toString());
        try (MoraineCatalog catalog = MoraineCatalog.create(store, NewCatalog.bootstrapped(temp.resolve("data").toString()))) {
            Row tag = Row.of(TableKind.TAG, 1L, 0L, null, "k", "v");
            catalog.begin().insert(tag).commit();
            // Damaged bytes under the tag's key, as another program or a damaged store would leave them.
            catalog.store().write(Map.of(ByteBuffer.wrap(RowKeys.key(Subspace.CURRENT, tag)), new byte[] {1, 2, 3}));
        }
        try (Connection connection = ExtensionConnections.open()) {
            execute(connection, "ATTACH '" + store + "' AS m (TYPE moraine, READ_ONLY)");
            assertThat(failure(connection, "CORRUPTION", "SELECT * FROM m.ducklake_tag"))
                    .startsWith("IO Error: ")
                    .contains("corrupt ducklake_tag row under key")
                    .contains("restore it from a checkpoint or backup");
        }
    }

    @Test
    void storeIsAnIoError()
            throws Exception
    {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        try (Connection connection = ExtensionConnections.open()) {
            execute(connection, "LOAD httpfs");
            execute(connection, "CREATE SECRET nowhere (TYPE s3, KEY_ID 'key', SECRET 'secret', REGION 'us-east-1', ENDPOINT '127.0.0.1:"
                    + closedPort + "', URL_STYLE 'path', USE_SSL false, SCOPE 's3://moraine-errors')");
            assertThat(failure(connection, "STORE", "ATTACH 's3://moraine-errors/catalog' AS m (TYPE moraine, STORE_TIMEOUT '2s')"))
                    .startsWith("IO Error: ")
                    .contains("store s3://moraine-errors/catalog did not answer within 2.0 s")
                    .contains("127.0.0.1:" + closedPort);
        }
    }

    @Test
    void invalidArgumentIsAnInvalidInputError()
            throws Exception
    {
        StoreUri store = bootstrappedStore("store");
        try (Connection connection = ExtensionConnections.open()) {
            assertThat(failure(connection, "INVALID_ARGUMENT", "ATTACH '" + store + "' AS m (TYPE moraine, CHECKPOINT 'not-a-uuid')"))
                    .startsWith("Invalid Input Error: ")
                    .contains("checkpoint id 'not-a-uuid' is malformed");
            assertThat(failure(connection, "INVALID_ARGUMENT", "ATTACH '" + store + "' AS m (TYPE moraine, STORE_TIMEOUT 'soon')"))
                    .startsWith("Invalid Input Error: ")
                    .contains("STORE_TIMEOUT takes a duration such as '30s'");
        }
    }

    @Test
    void anUnexpectedJavaFailureIsAnInternalErrorNamingItsClass()
            throws Exception
    {
        // The core raises InternalException only for a SlateDB error of a kind it does not know, which no test can
        // provoke; any other Java exception is a bug and crosses as INTERNAL too. A failing read listener (the bridge's
        // read-tracing seam) stands in for such a bug.
        StoreUri store = bootstrappedStore("store");
        NativeBridge.setReadListener(new StoreReadListener()
        {
            @Override
            public void pointRead(byte[] key)
            {
                throw new IllegalStateException("a bug in a store read (test)");
            }

            @Override
            public void rangeScan(byte[] start, byte[] end)
            {
                throw new IllegalStateException("a bug in a store read (test)");
            }
        });
        try (Connection connection = ExtensionConnections.open()) {
            assertThat(failure(connection, "INTERNAL", "ATTACH '" + store + "' AS m (TYPE moraine, READ_ONLY)"))
                    .startsWith("INTERNAL Error: ")
                    .contains("moraine: java.lang.IllegalStateException: a bug in a store read (test)");
            // DuckDB invalidates its database after an INTERNAL error.
            assertThat(failure(connection, "INTERNAL (after)", "SELECT 42")).contains("invalidated");
        }
        finally {
            NativeBridge.setReadListener(StoreReadListener.NONE);
        }
    }

    @Test
    void interruptedIsAnInterruptError()
            throws Exception
    {
        StoreUri store = bootstrappedStore("store");
        // A store read that does not answer until its thread is interrupted; the core's own wait then ends with
        // OperationInterruptedException, as it does when a slow SlateDB read is interrupted.
        CountDownLatch blocked = new CountDownLatch(1);
        java.util.concurrent.atomic.AtomicBoolean block = new java.util.concurrent.atomic.AtomicBoolean();
        StoreReadListener slowReads = new StoreReadListener()
        {
            @Override
            public void pointRead(byte[] key)
            {
                stall();
            }

            @Override
            public void rangeScan(byte[] start, byte[] end)
            {
                stall();
            }

            private void stall()
            {
                if (!block.get()) {
                    return;
                }
                blocked.countDown();
                try {
                    if (!new CountDownLatch(1).await(2, TimeUnit.MINUTES)) {
                        throw new IllegalStateException("the stalled read was never interrupted");
                    }
                }
                catch (InterruptedException e) {
                    Thread.currentThread().interrupt(); // left for the core's wait to find
                }
            }
        };
        NativeBridge.setReadListener(slowReads);
        try (Connection connection = ExtensionConnections.open(); Statement statement = connection.createStatement()) {
            execute(connection, "ATTACH '" + store + "' AS m (TYPE moraine, READ_ONLY)");
            block.set(true);
            CompletableFuture<SQLException> scan = CompletableFuture.supplyAsync(() -> {
                try {
                    statement.executeQuery("SELECT * FROM m.ducklake_snapshot").close();
                    return null;
                }
                catch (SQLException e) {
                    return e;
                }
            });
            assertThat(blocked.await(2, TimeUnit.MINUTES)).as("the scan reached the store").isTrue();
            block.set(false);
            statement.cancel();
            SQLException failure = scan.get(2, TimeUnit.MINUTES);
            assertThat((Throwable) failure).as("the cancelled statement failed").isNotNull();
            System.out.println("[error table] INTERRUPTED: " + failure.getMessage());
            // DuckDB's InterruptException has a fixed message: the core's words do not cross.
            assertThat(failure.getMessage()).isEqualTo("INTERRUPT Error: Interrupted!");
            assertThat(count(connection, "SELECT count(*) FROM m.ducklake_snapshot")).isEqualTo(1);
        }
        finally {
            NativeBridge.setReadListener(StoreReadListener.NONE);
        }
    }

    @Test
    void fencedIsAnIoErrorThatDuckDbReRaisesAtCommitWithNoneOfDuckLakesRetryWords()
            throws Exception
    {
        StoreUri store = bootstrappedStore("store");
        // Two DuckDB databases, each with a read-write attach, as two processes would have.
        try (Connection first = ExtensionConnections.open(); Connection second = ExtensionConnections.open()) {
            // Writer mode EXCLUSIVE: the first writer stays fenced (with HANDOFF, the default, it would take the writer back).
            execute(first, "ATTACH '" + store + "' AS m (TYPE moraine, WRITER_MODE 'exclusive')");
            execute(second, "ATTACH '" + store + "' AS m (TYPE moraine, WRITER_MODE 'exclusive')");
            // The first writer finds out at its next write: in the statement when SlateDB noticed already, else at COMMIT.
            String write = failure(first, "FENCED", "INSERT INTO m.ducklake_tag VALUES (1, 0, NULL, 'k', 'v')");
            assertThat(write).satisfiesAnyOf(message -> assertThat(message).startsWith("IO Error: FENCED: "),
                    message -> assertThat(message).startsWith("TransactionContext Error: Failed to commit: FENCED: "));
            // From then on its handle is closed, and a read fails in the statement.
            String read = failure(first, "FENCED", "SELECT count(*) FROM m.ducklake_column");
            assertThat(read).startsWith("IO Error: ");
            for (String message : java.util.List.of(write, read)) {
                assertThat(message).contains("FENCED: another process opened store " + store).contains("Re-open");
                assertThat(message.toLowerCase(Locale.ROOT)).doesNotContain(RETRY_WORDS);
            }
            execute(second, "INSERT INTO m.ducklake_tag VALUES (1, 0, NULL, 'k', 'v')");
        }
        // Through DuckLake, which re-raises its metadata commit's failure after its own words (and does not retry it).
        String lake = "ATTACH 'ducklake:moraine:" + temp.resolve("lake") + "' AS lake (DATA_PATH '" + temp.resolve("lake-data") + "/', META_WRITER_MODE 'exclusive')";
        try (Connection first = ExtensionConnections.open(); Connection second = ExtensionConnections.open()) {
            execute(first, "SET threads = 1"); // DuckLake's catalog cache race after writes (RFC 0006)
            execute(first, lake);
            execute(first, "CREATE TABLE lake.t (i INTEGER)");
            execute(second, lake);
            assertThat(failure(first, "FENCED", "INSERT INTO lake.t VALUES (1)"))
                    .contains("FENCED: another process opened store")
                    .satisfies(message -> assertThat(message.toLowerCase(Locale.ROOT)).doesNotContain(RETRY_WORDS));
        }
    }

    @Test
    void migrationIsAnIoError()
            throws Exception
    {
        StoreUri store = StoreUri.parse(temp.resolve("store").toString());
        try (MoraineCatalog catalog = MoraineCatalog.create(store, NewCatalog.bootstrapped(temp.resolve("data").toString()))) {
            // A store a newer moraine wrote.
            catalog.store().write(Map.of(ByteBuffer.wrap(SystemKeys.FORMAT), SystemKeys.encodeFormat(MoraineCatalog.FORMAT_VERSION + 1, "moraine-next")));
        }
        try (Connection connection = ExtensionConnections.open()) {
            assertThat(failure(connection, "MIGRATION", "ATTACH '" + store + "' AS m (TYPE moraine, READ_ONLY)"))
                    .startsWith("IO Error: ")
                    .contains("has format version " + (MoraineCatalog.FORMAT_VERSION + 1) + ", newer than version " + MoraineCatalog.FORMAT_VERSION)
                    .contains("upgrade moraine to open it");
        }
    }

    @Test
    void unsupportedIsANotImplementedError()
            throws Exception
    {
        // A column whose type DuckLake 1.0 does not have (written by another program): listing the lake's tables at
        // ATTACH parses every column type.
        StoreUri store = bootstrappedStore("store");
        try (MoraineCatalog catalog = MoraineCatalog.open(store, io.moraine.core.store.OpenMode.READ_WRITE)) {
            catalog.begin()
                    .insert(Row.of(TableKind.SNAPSHOT, 1L, java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MICROS), 1L, 2L, 0L))
                    .insert(Row.of(TableKind.SNAPSHOT_CHANGES, 1L, "created_table:\"main\".\"t\"", null, null, null))
                    .insert(Row.ofMap(TableKind.TABLE, Map.of("table_id", 1L, "table_uuid", java.util.UUID.randomUUID(), "begin_snapshot", 1L,
                            "schema_id", 0L, "table_name", "t", "path", "t/", "path_is_relative", true)))
                    .insert(Row.ofMap(TableKind.COLUMN, Map.of("column_id", 1L, "begin_snapshot", 1L, "table_id", 1L, "column_order", 1L,
                            "column_name", "c", "column_type", "frobnicate", "nulls_allowed", true)))
                    .commit();
        }
        try (Connection connection = ExtensionConnections.open()) {
            assertThat(failure(connection, "UNSUPPORTED", "ATTACH '" + store + "' AS m (TYPE moraine, READ_ONLY)"))
                    .startsWith("Not implemented Error: ")
                    .contains("column c has DuckLake type 'frobnicate', which moraine does not know");
        }
    }
}
