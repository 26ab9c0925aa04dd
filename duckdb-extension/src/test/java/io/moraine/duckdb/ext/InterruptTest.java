package io.moraine.duckdb.ext;

import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.catalog.NewCatalog;
import io.moraine.core.error.OperationInterruptedException;
import io.moraine.core.store.StoreReadListener;
import io.moraine.core.store.StoreUri;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static io.moraine.duckdb.ext.ExtensionConnections.count;
import static io.moraine.duckdb.ext.ExtensionConnections.execute;
import static org.assertj.core.api.Assertions.assertThat;

/** A statement blocked in a store read is cancelled by DuckDB's interrupt (JDBC Statement.cancel); the session goes on. */
class InterruptTest
{
    @TempDir
    Path temp;

    /** Blocks every store read while {@link #block} is set, until the reading thread is interrupted. */
    private static final class BlockingReads
            implements StoreReadListener
    {
        volatile boolean block;
        final CountDownLatch blocked = new CountDownLatch(1);

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

        private void maybeBlock()
        {
            if (!block) {
                return;
            }
            blocked.countDown();
            try {
                if (!new CountDownLatch(1).await(2, TimeUnit.MINUTES)) {
                    throw new IllegalStateException("the blocked read was never interrupted");
                }
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new OperationInterruptedException("store read interrupted (test)", e);
            }
        }
    }

    @Test
    void cancellingAStatementBlockedInAStoreReadEndsTheStatementNotTheSession()
            throws Exception
    {
        StoreUri store = StoreUri.parse(temp.resolve("store").toString());
        MoraineCatalog.create(store, NewCatalog.bootstrapped(temp.resolve("data").toString())).close();
        // The first cancel wakes the shim's idle interrupt watcher; the second, in a new session right after, comes
        // while the watcher still polls.
        cancelAScanBlockedInAStoreRead(store);
        cancelAScanBlockedInAStoreRead(store);
    }

    private static void cancelAScanBlockedInAStoreRead(StoreUri store)
            throws Exception
    {
        BlockingReads reads = new BlockingReads();
        NativeBridge.setReadListener(reads);
        try (Connection connection = ExtensionConnections.open(); Statement statement = connection.createStatement()) {
            execute(connection, "ATTACH '" + store + "' AS m (TYPE moraine, READ_ONLY)");
            reads.block = true;
            CompletableFuture<SQLException> query = CompletableFuture.supplyAsync(() -> {
                try {
                    statement.executeQuery("SELECT * FROM m.ducklake_snapshot").close();
                    return null;
                }
                catch (SQLException e) {
                    return e;
                }
            });
            assertThat(reads.blocked.await(2, TimeUnit.MINUTES)).as("the scan reached the store").isTrue();
            reads.block = false;
            statement.cancel();
            SQLException failure = query.get(2, TimeUnit.MINUTES);
            assertThat((Throwable) failure).as("the cancelled statement failed").isNotNull();
            assertThat(failure.getMessage()).containsIgnoringCase("interrupt");
            assertThat(count(connection, "SELECT count(*) FROM m.ducklake_snapshot")).isEqualTo(1);
        }
        finally {
            NativeBridge.setReadListener(StoreReadListener.NONE);
        }
    }
}
