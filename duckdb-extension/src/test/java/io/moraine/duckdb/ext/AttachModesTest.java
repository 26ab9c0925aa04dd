package io.moraine.duckdb.ext;

import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.catalog.NewCatalog;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreUri;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static io.moraine.duckdb.ext.ExtensionConnections.count;
import static io.moraine.duckdb.ext.ExtensionConnections.execute;
import static io.moraine.duckdb.ext.ExtensionConnections.query;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** READ_ONLY and CHECKPOINT attaches, the checkpoint table functions, and the refusals (RFC 0006, "Attach modes"). */
class AttachModesTest
{
    @TempDir
    Path temp;

    @Test
    void aReadOnlyAttachNeverFencesTheWriterAndFollowsItsCommits()
            throws Exception
    {
        StoreUri store = StoreUri.parse(temp.resolve("store").toString());
        try (MoraineCatalog writer = MoraineCatalog.create(store, NewCatalog.bootstrapped(temp.resolve("data").toString()));
                Connection connection = ExtensionConnections.open()) {
            execute(connection, "ATTACH '" + store + "' AS m (TYPE moraine, READ_ONLY)");
            assertThat(count(connection, "SELECT count(*) FROM m.ducklake_snapshot")).isEqualTo(1);
            commitSnapshot(writer, 1);
            execute(connection, "DETACH m");
            execute(connection, "ATTACH 'moraine:" + store + "' AS m (READ_ONLY)");
            assertThat(count(connection, "SELECT count(*) FROM m.ducklake_snapshot")).isEqualTo(2);
            // The writer goes on committing while the reader is attached: it was not fenced.
            commitSnapshot(writer, 2);
            assertThat(writer.headSnapshotId()).hasValue(2);
            // The reader checks the store as the next statement begins (docs/freshness.md).
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
            while (count(connection, "SELECT count(*) FROM m.ducklake_snapshot") != 3 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertThat(count(connection, "SELECT count(*) FROM m.ducklake_snapshot")).isEqualTo(3);
        }
    }

    @Test
    void aReadOnlyAttachSeesACommitOfAnotherHandleInItsNextStatementWithoutWaiting()
            throws Exception
    {
        StoreUri store = StoreUri.parse(temp.resolve("store").toString());
        try (MoraineCatalog writer = MoraineCatalog.create(store, NewCatalog.bootstrapped(temp.resolve("data").toString()));
                Connection connection = ExtensionConnections.open()) {
            execute(connection, "ATTACH '" + store + "' AS m (TYPE moraine, READ_ONLY)");
            assertThat(count(connection, "SELECT count(*) FROM m.ducklake_snapshot")).isEqualTo(1);
            for (int id = 1; id <= 3; id++) {
                commitSnapshot(writer, id);
                assertThat(count(connection, "SELECT count(*) FROM m.ducklake_snapshot")).as("commit %d, the next statement", id).isEqualTo(id + 1);
            }
        }
    }

    @Test
    void aReadOnlyAttachWithMaxStalenessSeesACommitWithinTheBound()
            throws Exception
    {
        StoreUri store = StoreUri.parse(temp.resolve("store").toString());
        try (MoraineCatalog writer = MoraineCatalog.create(store, NewCatalog.bootstrapped(temp.resolve("data").toString()));
                Connection connection = ExtensionConnections.open()) {
            execute(connection, "ATTACH '" + store + "' AS m (TYPE moraine, READ_ONLY, MAX_STALENESS INTERVAL 3 SECONDS)");
            long checked = System.nanoTime();
            assertThat(count(connection, "SELECT count(*) FROM m.ducklake_snapshot")).isEqualTo(1);
            commitSnapshot(writer, 1);
            long committed = System.nanoTime();
            while (count(connection, "SELECT count(*) FROM m.ducklake_snapshot") != 2) {
                assertThat(System.nanoTime() - checked).as("unseen only within the bound of the last check").isLessThan(5_000_000_000L);
                Thread.sleep(100);
            }
            assertThat(System.nanoTime() - committed).as("seen within the bound").isLessThan(5_000_000_000L);
            assertThatThrownBy(() -> execute(connection, "ATTACH '" + store + "' AS bad (TYPE moraine, READ_ONLY, READER_FRESHNESS 'sometimes')"))
                    .hasMessageContaining("READER_FRESHNESS").hasMessageContaining("on-demand");
            execute(connection, "ATTACH '" + store + "' AS polled (TYPE moraine, READ_ONLY, READER_FRESHNESS 'poll')");
            assertThat(count(connection, "SELECT count(*) FROM polled.ducklake_snapshot")).isEqualTo(2);
        }
    }

    @Test
    void aReadOnlyAttachOfAMissingStoreSaysHowToCreateOne()
            throws Exception
    {
        Path missing = temp.resolve("nothing-here");
        try (Connection connection = ExtensionConnections.open()) {
            assertThatThrownBy(() -> execute(connection, "ATTACH '" + missing + "' AS m (TYPE moraine, READ_ONLY)"))
                    .hasMessageContaining("Catalog Error")
                    .hasMessageContaining("never creates a store")
                    .hasMessageContaining("bin/moraine import");
            assertThat(missing).doesNotExist();
            // The connection stays usable.
            assertThat(count(connection, "SELECT 41 + 1")).isEqualTo(42);
        }
    }

    @Test
    void aCheckpointAttachWritesNothingAndServesTheCheckpointedState()
            throws Exception
    {
        Path directory = temp.resolve("store");
        StoreUri store = StoreUri.parse(directory.toString());
        MoraineCatalog.create(store, NewCatalog.bootstrapped(temp.resolve("data").toString())).close();
        try (Connection connection = ExtensionConnections.open()) {
            execute(connection, "ATTACH '" + store + "' AS w (TYPE moraine)");
            List<List<String>> created = query(connection, "SELECT checkpoint_id, expires_at IS NULL FROM moraine_create_checkpoint('w')");
            assertThat(created).hasSize(1);
            String id = created.getFirst().getFirst();
            assertThat(created.getFirst().get(1)).isEqualTo("true");
            assertThat(query(connection, "SELECT checkpoint_id FROM moraine_create_checkpoint('w', INTERVAL 1 HOUR) WHERE expires_at > now()")).hasSize(1);
            execute(connection, "DETACH w");
            assertThat(query(connection, "SELECT checkpoint_id FROM moraine_checkpoints('" + store + "')")).contains(List.of(id)).hasSize(2);

            Map<String, String> before = objects(directory);
            execute(connection, "ATTACH '" + store + "' AS c (TYPE moraine, CHECKPOINT '" + id + "')");
            long rows = 0;
            for (TableKind kind : TableKind.values()) {
                rows += count(connection, "SELECT count(*) FROM c." + kind.tableName());
            }
            assertThat(rows).as("rows read through the checkpoint").isGreaterThanOrEqualTo(3);
            assertThatThrownBy(() -> query(connection, "FROM moraine_create_checkpoint('c')"))
                    .hasMessageContaining("Invalid Input Error").hasMessageContaining("writes nothing");
            execute(connection, "DETACH c");
            assertThat(objects(directory)).as("the store's objects, names, sizes and times").isEqualTo(before);

            assertThat(query(connection, "SELECT deleted FROM moraine_delete_checkpoint('" + store + "', '" + id + "')"))
                    .containsExactly(List.of("true"));
            assertThatThrownBy(() -> execute(connection, "ATTACH '" + store + "' AS c (TYPE moraine, CHECKPOINT '" + id + "')"))
                    .hasMessageContaining("Catalog Error").hasMessageContaining("has no checkpoint " + id);
        }
    }

    @Test
    void anAttachWithWalPathOpensAStoreCreatedWithThatWalStore()
            throws Exception
    {
        StoreUri store = StoreUri.parse(temp.resolve("store").toString());
        StoreUri wal = StoreUri.parse(temp.resolve("wal").toString());
        try (MoraineCatalog writer = MoraineCatalog.create(store, NewCatalog.bootstrapped(temp.resolve("data").toString()),
                io.moraine.core.store.StoreOptions.DEFAULTS.withWalStore(wal), List.of(), io.moraine.core.tx.CommitListener.NONE)) {
            commitSnapshot(writer, 1);
        }
        try (Connection connection = ExtensionConnections.open()) {
            execute(connection, "ATTACH '" + store + "' AS m (TYPE moraine, READ_ONLY, WAL_PATH '" + wal + "')");
            assertThat(count(connection, "SELECT count(*) FROM m.ducklake_snapshot")).isEqualTo(2);
            // The log is under the WAL directory (below the catalog's own path), not in the catalog store.
            assertThat(java.nio.file.Files.isDirectory(temp.resolve("wal").resolve(temp.resolve("store").toString().substring(1)).resolve("wal"))).isTrue();
            assertThat(java.nio.file.Files.exists(temp.resolve("store/wal"))).isFalse();
            StoreUri other = StoreUri.parse(temp.resolve("other-wal").toString());
            assertThatThrownBy(() -> execute(connection, "ATTACH '" + store + "' AS o (TYPE moraine, READ_WRITE, WAL_PATH '" + other + "')"))
                    .hasMessageContaining("records its write-ahead log at '" + temp.resolve("wal") + "'")
                    .hasMessageContaining("names '" + temp.resolve("other-wal") + "'");
            assertThatThrownBy(() -> execute(connection, "ATTACH '" + store + "' AS n (TYPE moraine, READ_WRITE)"))
                    .hasMessageContaining("records its write-ahead log at '" + temp.resolve("wal") + "'")
                    .hasMessageContaining("names none");
        }
    }

    @Test
    void refusals()
            throws Exception
    {
        StoreUri store = StoreUri.parse(temp.resolve("store").toString());
        MoraineCatalog.create(store, NewCatalog.bootstrapped(temp.resolve("data").toString())).close();
        try (Connection connection = ExtensionConnections.open()) {
            assertThatThrownBy(() -> execute(connection, "ATTACH '" + store + "' AS m (TYPE moraine, READ_WRITE, "
                    + "CHECKPOINT '6f1c7d8e-0000-4000-8000-000000000000')"))
                    .hasMessageContaining("Invalid Input Error").hasMessageContaining("with READ_WRITE");
            assertThatThrownBy(() -> execute(connection, "ATTACH '" + store + "' AS m (TYPE moraine, CHECKPOINT 'not-a-uuid')"))
                    .hasMessageContaining("Invalid Input Error").hasMessageContaining("is malformed");
            assertThatThrownBy(() -> execute(connection, "ATTACH '" + store + "' AS m (TYPE moraine, CHECKPOINT '6f1c7d8e-0000-4000-8000-000000000000')"))
                    .hasMessageContaining("Catalog Error").hasMessageContaining("has no checkpoint");
            assertThatThrownBy(() -> execute(connection, "ATTACH '" + store + "' AS m (TYPE moraine, CACHE_SIZE 5)"))
                    .hasMessageContaining("unknown ATTACH option");
            assertThatThrownBy(() -> execute(connection, "ATTACH '" + store + "' AS m (TYPE moraine, STORE_TIMEOUT 'soon')"))
                    .hasMessageContaining("Invalid Input Error").hasMessageContaining("STORE_TIMEOUT takes a duration such as '30s'");
            assertThatThrownBy(() -> execute(connection, "ATTACH '" + store + "' AS m (TYPE moraine, STORE_TIMEOUT '0s')"))
                    .hasMessageContaining("STORE_TIMEOUT must be positive");
            assertThatThrownBy(() -> query(connection, "FROM moraine_create_checkpoint('nope')")).hasMessageContaining("no attached catalog");
            execute(connection, "ATTACH '" + store + "' AS m (TYPE moraine, READ_ONLY)");
            assertThatThrownBy(() -> execute(connection, "INSERT INTO m.ducklake_tag VALUES (1, 1, NULL, 'k', 'v')"))
                    .hasMessageContaining("not supported");
            assertThat(count(connection, "SELECT count(*) FROM m.ducklake_schema")).isEqualTo(1);
        }
    }

    private static void commitSnapshot(MoraineCatalog writer, long id)
    {
        writer.begin().insert(Row.of(TableKind.SNAPSHOT, id, Instant.now().truncatedTo(ChronoUnit.MICROS), 0L, 1L, 0L))
                .insert(Row.of(TableKind.SNAPSHOT_CHANGES, id, "altered_table:1", null, null, null))
                .commit();
    }

    /** Every object under the store directory with its size and modification time. */
    private static Map<String, String> objects(Path directory)
            throws IOException
    {
        Map<String, String> objects = new TreeMap<>();
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                objects.put(directory.relativize(file).toString(), Files.size(file) + " " + Files.getLastModifiedTime(file).toMillis());
            }
        }
        assertThat(objects).isNotEmpty();
        return objects;
    }
}
