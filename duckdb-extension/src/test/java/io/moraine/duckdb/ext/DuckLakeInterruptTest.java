package io.moraine.duckdb.ext;

import io.moraine.core.error.OperationInterruptedException;
import io.moraine.core.store.StoreReadListener;
import org.duckdb.DuckDBConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static io.moraine.duckdb.ext.ExtensionConnections.count;
import static io.moraine.duckdb.ext.ExtensionConnections.execute;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Through {@code ducklake:moraine:}, DuckLake reads its metadata on a connection of its own: a statement blocked in
 * such a read still ends on DuckDB's interrupt of the user's statement, and only that one.
 * <p>
 * The interrupt is delivered as DuckDB's C API {@code duckdb_interrupt} (and the CLI's Ctrl-C) does, not through JDBC
 * {@code Statement.cancel}: duckdb_jdbc 1.5.5.1 holds the connection's lock while DuckDB parses, binds and plans
 * ({@code duckdb_jdbc_pending_query}), and {@code cancel} takes that lock before interrupting, so it waits until
 * planning ends. DuckLake reads its metadata while planning (here for count(*)'s statistics), so a cancel reaches such a
 * read only once the read has ended on its own.
 */
class DuckLakeInterruptTest
{
    @TempDir
    Path temp;

    /** Blocks the store reads of the threads that arrive while {@link #block} is set, until released or interrupted. */
    private static final class BlockingReads
            implements StoreReadListener
    {
        volatile boolean block;
        final CountDownLatch release = new CountDownLatch(1);
        private final java.util.concurrent.Semaphore arrivals = new java.util.concurrent.Semaphore(0);

        @Override
        public void pointRead(byte[] key)
        {
            maybeBlock();
        }

        @Override
        public void rangeScan(byte[] start, byte[] end)
        {
            maybeBlock();
        }

        /** Waits until {@code readers} reads are blocked. */
        boolean awaitBlocked(int readers)
                throws InterruptedException
        {
            return arrivals.tryAcquire(readers, 2, TimeUnit.MINUTES);
        }

        private void maybeBlock()
        {
            if (!block) {
                return;
            }
            arrivals.release();
            try {
                if (!release.await(1, TimeUnit.MINUTES)) {
                    throw new IllegalStateException("the blocked read was never released (test)");
                }
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new OperationInterruptedException("store read interrupted (test)", e);
            }
        }
    }

    @AfterEach
    void noListener()
    {
        NativeBridge.setReadListener(StoreReadListener.NONE);
    }

    private String attachLake()
    {
        return "ATTACH 'ducklake:moraine:" + temp.resolve("store") + "' AS lake (DATA_PATH '" + temp.resolve("data") + "/')";
    }

    @Test
    void interruptingAStatementBlockedInADuckLakeMetadataReadEndsIt()
            throws Exception
    {
        BlockingReads reads = new BlockingReads();
        NativeBridge.setReadListener(reads);
        try (Connection connection = ExtensionConnections.open(); Statement statement = connection.createStatement()) {
            execute(connection, attachLake());
            execute(connection, "CREATE TABLE lake.t (id INTEGER)");
            execute(connection, "INSERT INTO lake.t VALUES (1), (2)");

            reads.block = true;
            CompletableFuture<Object> query = run(statement, "SELECT count(*) FROM lake.t");
            assertThat(reads.awaitBlocked(1)).as("DuckLake's metadata read reached the store").isTrue();
            interrupt(connection);
            Object failure = query.get(30, TimeUnit.SECONDS);
            assertThat(failure).as("the interrupted statement failed").isInstanceOf(SQLException.class);
            assertThat(((SQLException) failure).getMessage()).containsIgnoringCase("interrupt").doesNotContain("never released");

            reads.block = false;
            assertThat(count(connection, "SELECT count(*) FROM lake.t")).as("the session goes on").isEqualTo(2);
        }
    }

    @Test
    void anotherSessionsInterruptLeavesADuckLakeMetadataReadBlocked()
            throws Exception
    {
        BlockingReads reads = new BlockingReads();
        NativeBridge.setReadListener(reads);
        try (Connection connection = ExtensionConnections.open();
                Connection other = ((DuckDBConnection) connection).duplicate();
                Statement blocked = connection.createStatement();
                Statement cancelled = other.createStatement()) {
            execute(connection, attachLake());
            execute(connection, "CREATE TABLE lake.t (id INTEGER)");
            execute(connection, "INSERT INTO lake.t VALUES (1), (2)");

            reads.block = true;
            CompletableFuture<Object> read = run(blocked, "SELECT count(*) FROM lake.t");
            assertThat(reads.awaitBlocked(1)).as("DuckLake's metadata read reached the store").isTrue();
            // The other session's long statement is interrupted while the read is blocked: the read stays blocked.
            CompletableFuture<Object> busy = run(cancelled, "SELECT count(*) FROM range(100000000000) a WHERE a.range % 7 = 3");
            Thread.sleep(500);
            cancelled.cancel();
            Object failure = busy.get(30, TimeUnit.SECONDS);
            assertThat(failure).isInstanceOf(SQLException.class);
            assertThat(((SQLException) failure).getMessage()).containsIgnoringCase("interrupt");
            assertThatThrownBy(() -> read.get(2, TimeUnit.SECONDS)).isInstanceOf(TimeoutException.class);

            reads.block = false;
            reads.release.countDown();
            assertThat(read.get(1, TimeUnit.MINUTES)).isEqualTo(2L);
        }
    }

    /**
     * DuckDB's interrupt of {@code connection}'s running statement ({@code ClientContext::Interrupt}), called as the C
     * API's duckdb_interrupt is: without the JDBC connection lock, which the statement holds while it is planned.
     */
    private static void interrupt(Connection connection)
            throws ReflectiveOperationException, SQLException
    {
        Field reference = DuckDBConnection.class.getDeclaredField("connRef");
        reference.setAccessible(true);
        Method interrupt = Class.forName("org.duckdb.DuckDBNative").getDeclaredMethod("duckdb_jdbc_interrupt", ByteBuffer.class);
        interrupt.setAccessible(true);
        interrupt.invoke(null, reference.get(connection.unwrap(DuckDBConnection.class)));
    }

    /** Runs {@code sql} on another thread: its one value, or the SQLException it failed with. */
    private static CompletableFuture<Object> run(Statement statement, String sql)
    {
        return CompletableFuture.supplyAsync(() -> {
            try (var result = statement.executeQuery(sql)) {
                result.next();
                return result.getLong(1);
            }
            catch (SQLException e) {
                return e;
            }
        }, Thread::startVirtualThread);
    }
}
