package io.moraine.duckdb.ext;

import io.moraine.testing.S3ProxyServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;

import static io.moraine.duckdb.ext.ExtensionConnections.count;
import static io.moraine.duckdb.ext.ExtensionConnections.execute;
import static io.moraine.duckdb.ext.ExtensionConnections.query;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * DuckLake drives moraine: {@code ATTACH 'ducklake:moraine:<store>'} creates a new lake through DuckLake's own
 * bootstrap and commits every workload step through the extension's staged transactions. Every table at every
 * snapshot (time travel by version, all columns) must equal the same workload on a DuckDB-file DuckLake catalog,
 * in the writing session and in a fresh one that attaches the store again.
 */
class DuckLakeWritesTest
{
    private static final List<String> WORKLOAD = List.of(
            "CREATE TABLE %1$s.items (id INTEGER, label VARCHAR, price DOUBLE)",
            // Inlined (under the row limit).
            "INSERT INTO %1$s.items VALUES (1, 'one', 1.5), (2, 'two', 2.5), (3, 'three', NULL)",
            // Over the limit: a Parquet file, registered through DuckLake's Appender path.
            "INSERT INTO %1$s.items SELECT i, 'bulk-' || i, i * 0.25 FROM range(100, 400) t(i)",
            "UPDATE %1$s.items SET label = 'TWO' WHERE id = 2",
            "DELETE FROM %1$s.items WHERE id = 1",
            "ALTER TABLE %1$s.items ADD COLUMN note VARCHAR",
            "INSERT INTO %1$s.items VALUES (4, 'four', 4.0, 'after alter')",
            "CREATE TABLE %1$s.events (ts TIMESTAMP, kind VARCHAR)",
            "INSERT INTO %1$s.events VALUES (TIMESTAMP '2026-01-01 10:00:00', 'a'), (TIMESTAMP '2026-01-02 11:00:00', 'b')",
            // An option DuckLake keeps in ducklake_metadata: 15 rows are inlined under the new limit.
            "CALL %1$s.set_option('data_inlining_row_limit', 20)",
            "INSERT INTO %1$s.items SELECT i, 'late-' || i, NULL, NULL FROM range(1000, 1015) t(i)");

    @TempDir
    Path temp;

    @Test
    void aWorkloadThroughDuckLakeEqualsADuckDbFileCatalogAtEverySnapshot()
            throws Exception
    {
        Path store = temp.resolve("store");
        Path data = temp.resolve("data");
        Path oracleData = temp.resolve("oracle-data");
        Files.createDirectories(data);
        Files.createDirectories(oracleData);
        String attachLake = "ATTACH 'ducklake:moraine:" + store + "' AS lake (DATA_PATH '" + data + "/', DATA_INLINING_ROW_LIMIT 10)";
        long comparisons;
        try (Connection connection = open()) {
            execute(connection, "ATTACH 'ducklake:" + temp.resolve("oracle.ducklake") + "' AS oracle (DATA_PATH '" + oracleData
                    + "/', DATA_INLINING_ROW_LIMIT 10)");
            execute(connection, attachLake);
            for (String step : WORKLOAD) {
                execute(connection, step.formatted("oracle"));
                execute(connection, step.formatted("lake"));
            }
            assertThat(count(connection, "SELECT count(*) FROM __ducklake_metadata_lake.ducklake_inlined_data_tables")).isPositive();
            assertThat(count(connection, "SELECT count(*) FROM __ducklake_metadata_lake.ducklake_data_file")).isPositive();
            comparisons = compareEverySnapshot(connection);
            // The same rows inlined and the same files written, the option included.
            compareCatalogRows(connection);
        }
        try (Connection connection = open()) {
            execute(connection, "ATTACH 'ducklake:" + temp.resolve("oracle.ducklake") + "' AS oracle (DATA_PATH '" + oracleData + "/', READ_ONLY)");
            execute(connection, "ATTACH 'ducklake:moraine:" + store + "' AS lake (DATA_PATH '" + data + "/', READ_ONLY)");
            assertThat(compareEverySnapshot(connection)).as("comparisons after re-attaching READ_ONLY").isEqualTo(comparisons);
            assertThat(query(connection, "SELECT value FROM __ducklake_metadata_lake.ducklake_metadata WHERE key = 'data_inlining_row_limit'"))
                    .isEqualTo(query(connection, "SELECT value FROM __ducklake_metadata_oracle.ducklake_metadata WHERE key = 'data_inlining_row_limit'"));
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> execute(connection, "INSERT INTO lake.items VALUES (9, 'nine', 9.0, NULL)"))
                    .isInstanceOf(java.sql.SQLException.class);
            assertThat(count(connection, "SELECT count(*) FROM lake.items WHERE id = 9")).isZero();
        }
    }

    @Test
    void aLakeWhoseStoreIsOnS3TakesItsCredentialsFromADuckDbSecret()
            throws Exception
    {
        String keyId = "ducklake-on-s3-key";
        String secret = "ducklake-on-s3-secret-not-in-the-environment";
        String bucket = "ducklake-on-s3";
        Path data = temp.resolve("data");
        Path oracleData = temp.resolve("oracle-data");
        Files.createDirectories(data);
        Files.createDirectories(oracleData);
        try (S3ProxyServer server = S3ProxyServer.startPrivate(keyId, secret)) {
            server.createBucket(bucket);
            String createSecret = "CREATE SECRET lake_store (TYPE s3, KEY_ID '" + keyId + "', SECRET '" + secret + "', REGION 'us-east-1', ENDPOINT '"
                    + server.endpoint().getAuthority() + "', URL_STYLE 'path', USE_SSL false, SCOPE 's3://" + bucket + "')";
            // The store on S3 (only the secret reaches it), the data files local.
            String lake = "ducklake:moraine:s3://" + bucket + "/catalog";
            long comparisons;
            try (Connection connection = open()) {
                execute(connection, "LOAD httpfs");
                execute(connection, createSecret);
                execute(connection, "ATTACH 'ducklake:" + temp.resolve("oracle.ducklake") + "' AS oracle (DATA_PATH '" + oracleData
                        + "/', DATA_INLINING_ROW_LIMIT 10)");
                execute(connection, "ATTACH '" + lake + "' AS lake (DATA_PATH '" + data + "/', DATA_INLINING_ROW_LIMIT 10, READ_WRITE)");
                for (String step : WORKLOAD) {
                    execute(connection, step.formatted("oracle"));
                    execute(connection, step.formatted("lake"));
                }
                comparisons = compareEverySnapshot(connection);
                compareCatalogRows(connection);
            }
            assertThat(server.objects(bucket, "catalog/")).as("the store's objects are on S3").isNotEmpty();
            try (Connection connection = open()) {
                execute(connection, "LOAD httpfs");
                execute(connection, createSecret);
                execute(connection, "ATTACH 'ducklake:" + temp.resolve("oracle.ducklake") + "' AS oracle (DATA_PATH '" + oracleData + "/', READ_ONLY)");
                execute(connection, "ATTACH '" + lake + "' AS lake (DATA_PATH '" + data + "/', READ_ONLY)");
                assertThat(compareEverySnapshot(connection)).as("comparisons after re-attaching READ_ONLY").isEqualTo(comparisons);
            }
        }
    }

    @Test
    void theOracleWorkloadThroughDuckLakeEqualsADuckDbFileCatalog()
            throws Exception
    {
        Path store = temp.resolve("store");
        Path data = temp.resolve("data");
        Path oracleData = temp.resolve("oracle-data");
        Files.createDirectories(data);
        Files.createDirectories(oracleData);
        List<String> tables = List.of("sales.orders", "main.events", "main.dropped", "sales.big_orders");
        long versionComparisons;
        try (Connection connection = open()) {
            execute(connection, "ATTACH 'ducklake:" + temp.resolve("oracle.ducklake") + "' AS oracle (DATA_PATH '" + oracleData + "/')");
            execute(connection, "ATTACH 'ducklake:moraine:" + store + "' AS lake (DATA_PATH '" + data + "/')");
            for (String step : io.moraine.testing.DuckLakeOracle.WORKLOAD) {
                execute(connection, step.replace("'lake'", "'oracle'").replace("lake.", "oracle."));
                try {
                    execute(connection, step);
                }
                catch (java.sql.SQLException e) {
                    throw new AssertionError("through ducklake:moraine: " + step + ": " + e.getMessage(), e);
                }
            }
            // File maintenance: the expired files go, and so does what no snapshot references.
            int removed = query(connection, "CALL ducklake_cleanup_old_files('lake', cleanup_all => true)").size();
            assertThat(removed).as("old files removed").isPositive()
                    .isEqualTo(query(connection, "CALL ducklake_cleanup_old_files('oracle', cleanup_all => true)").size());
            assertThat(query(connection, "CALL ducklake_delete_orphaned_files('lake', cleanup_all => true)").size())
                    .isEqualTo(query(connection, "CALL ducklake_delete_orphaned_files('oracle', cleanup_all => true)").size());
            assertThat(count(connection, "SELECT count(*) FROM __ducklake_metadata_lake.ducklake_files_scheduled_for_deletion")).isZero();
            versionComparisons = compareEverySnapshot(connection, tables) / 2;
            long snapshots = versionComparisons / tables.size();
            // three functions, two tables, each consecutive range and the whole history
            assertThat(compareChanges(connection)).as("change-feed comparisons").isEqualTo(3 * 2 * snapshots);
            compareCatalogRows(connection);
        }
        try (Connection connection = open()) {
            execute(connection, "ATTACH 'ducklake:" + temp.resolve("oracle.ducklake") + "' AS oracle (DATA_PATH '" + oracleData + "/')");
            execute(connection, "ATTACH 'ducklake:moraine:" + store + "' AS lake (DATA_PATH '" + data + "/')");
            // What the first attach wrote is all in the store: the catalog rows, and every table at every version (the
            // reads by timestamp and the change feed, computed from the same rows, were compared above).
            compareCatalogRows(connection);
            assertThat(compareEverySnapshot(connection, tables, false)).as("comparisons after re-attaching").isEqualTo(versionComparisons);
        }
    }

    @Test
    void eightConnectionsInsertingIntoOneLakeAllLand()
            throws Exception
    {
        Path data = temp.resolve("data");
        Files.createDirectories(data);
        int connections = 8;
        int inserts = 5;
        try (Connection first = open()) {
            execute(first, "SET ducklake_max_retry_count = 100");
            execute(first, "ATTACH 'ducklake:moraine:" + temp.resolve("store") + "' AS lake (DATA_PATH '" + data + "/')");
            execute(first, "CREATE TABLE lake.items (writer INTEGER, n INTEGER)");
            java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(connections);
            try {
                List<java.util.concurrent.Future<?>> writers = new java.util.ArrayList<>();
                for (int writer = 0; writer < connections; writer++) {
                    int id = writer;
                    Connection connection = ((org.duckdb.DuckDBConnection) first).duplicate();
                    writers.add(pool.submit(() -> {
                        try (connection) {
                            for (int n = 0; n < inserts; n++) {
                                execute(connection, "INSERT INTO lake.items VALUES (" + id + ", " + n + ")");
                            }
                        }
                        return null;
                    }));
                }
                for (java.util.concurrent.Future<?> writer : writers) {
                    writer.get();
                }
            }
            finally {
                pool.shutdown();
            }
            assertThat(count(first, "SELECT count(*) FROM lake.items")).isEqualTo((long) connections * inserts);
            assertThat(count(first, "SELECT count(DISTINCT (writer, n)) FROM lake.items")).isEqualTo((long) connections * inserts);
            // One snapshot per commit: 0 (the lake), 1 (CREATE TABLE) and one per insert.
            assertThat(count(first, "SELECT count(*) FROM ducklake_snapshots('lake')")).isEqualTo(2L + connections * inserts);
        }
    }

    /**
     * The two commit policies side by side, in one run: 8 connections each commit small inlined INSERTs into one table.
     * Under REBASE a lost race lands inside the commit (its stats merged onto the head's); under RETRY DuckLake re-runs
     * it. Either way every row lands with unique row ids, and the table and column stats equal those of a DuckDB-file
     * catalog that received the same rows one INSERT at a time. Prints commits/s and conflicts (DuckLake retries) per policy.
     */
    @Test
    void eightConnectionsLandEveryRowWithTheOraclesStatsUnderBothCommitPolicies()
            throws Exception
    {
        int connections = 8;
        int inserts = 10;
        long total = (long) connections * inserts + 1;
        java.util.Map<String, double[]> figures = new java.util.LinkedHashMap<>();
        for (String policy : List.of("retry", "rebase")) {
            Path data = temp.resolve(policy + "-data");
            Files.createDirectories(data);
            Files.createDirectories(temp.resolve(policy + "-data-oracle"));
            try (Connection first = open()) {
                execute(first, "SET ducklake_max_retry_count = 1000");
                execute(first, "ATTACH 'ducklake:moraine:" + temp.resolve(policy + "-store") + "' AS lake (DATA_PATH '" + data
                        + "/', META_COMMIT_POLICY '" + policy + "')");
                execute(first, "CREATE TABLE lake.items (writer INTEGER, n INTEGER, label VARCHAR, price DOUBLE)");
                // A table's first insert creates its inlined table and stats rows, which is never rebased: made before the race.
                execute(first, "INSERT INTO lake.items VALUES (" + row(connections, 0) + ")");
                long conflictsBefore = CommitConflicts.count();
                long started = System.nanoTime();
                List<long[]> lastCommits = runWriters(first, connections, inserts);
                double seconds = (System.nanoTime() - started) / 1e9;
                long restamped = lastCommits.stream().filter(commit -> commit[0] != commit[1]).count();
                figures.put(policy, new double[] {total / seconds, CommitConflicts.count() - conflictsBefore, restamped});
                // ducklake_last_committed_snapshot(): the landed id under RETRY; under REBASE the stamped one, never above the landed.
                for (long[] commit : lastCommits) {
                    if (policy.equals("retry")) {
                        assertThat(commit[0]).as("retry: last committed snapshot").isEqualTo(commit[1]);
                    }
                    else {
                        assertThat(commit[0]).as("rebase: last committed snapshot").isBetween(3L, commit[1]);
                    }
                }

                assertThat(count(first, "SELECT count(*) FROM lake.items")).isEqualTo(total);
                assertThat(count(first, "SELECT count(DISTINCT (writer, n)) FROM lake.items")).isEqualTo(total);
                assertThat(count(first, "SELECT count(DISTINCT rowid) FROM lake.items")).isEqualTo(total);
                assertThat(count(first, "SELECT max(rowid) FROM lake.items")).isEqualTo(total - 1);
                assertThat(count(first, "SELECT count(*) FROM ducklake_snapshots('lake')")).isEqualTo(2L + total);
                assertThat(count(first, "SELECT count(DISTINCT snapshot_id) FROM ducklake_table_insertions('lake', 'main', 'items', 0, " + (1 + total) + ")"))
                        .isEqualTo(total);

                // The oracle: the same final rows, one inlined INSERT each, on a DuckDB-file catalog.
                execute(first, "ATTACH 'ducklake:" + temp.resolve(policy + "-oracle.ducklake") + "' AS oracle (DATA_PATH '" + data + "-oracle/')");
                execute(first, "CREATE TABLE oracle.items (writer INTEGER, n INTEGER, label VARCHAR, price DOUBLE)");
                for (List<String> row : query(first, "SELECT writer, n FROM lake.items ORDER BY writer, n")) {
                    execute(first, "INSERT INTO oracle.items VALUES (" + row(Integer.parseInt(row.get(0)), Integer.parseInt(row.get(1))) + ")");
                }
                assertThat(query(first, "SELECT * FROM lake.items ORDER BY ALL")).isEqualTo(query(first, "SELECT * FROM oracle.items ORDER BY ALL"));
                long comparisons = 0;
                for (String stats : List.of("SELECT table_id, record_count, next_row_id, file_size_bytes FROM __ducklake_metadata_%s.main.ducklake_table_stats ORDER BY ALL",
                        "SELECT table_id, column_id, contains_null, contains_nan, min_value, max_value, extra_stats FROM __ducklake_metadata_%s.main.ducklake_table_column_stats ORDER BY ALL")) {
                    List<List<String>> expected = query(first, stats.formatted("oracle"));
                    assertThat(query(first, stats.formatted("lake"))).as(policy + ": " + stats).isEqualTo(expected);
                    comparisons += expected.size();
                }
                // One table_stats row and one column_stats row per column.
                assertThat(comparisons).isEqualTo(5);
            }
        }
        assertThat(figures.get("rebase")[1]).as("conflicts under REBASE").isZero();
        assertThat(figures.get("retry")[1]).as("conflicts under RETRY").isPositive();
        figures.forEach((policy, figure) -> System.out.printf("[commit policy] %s: %d connections x %d inserts, %.1f commits/s, %d conflicts (DuckLake retries), "
                + "%d of %d writers' last commits report a stamped id below the landed one%n", policy, connections, inserts, figure[0], (long) figure[1], (long) figure[2], connections));
        System.out.printf("[commit policy] rebase / retry commits/s: %.2fx%n", figures.get("rebase")[0] / figures.get("retry")[0]);
    }

    /** A row of writer {@code writer}'s {@code n}th insert: some labels null, one writer's prices NaN, so every stat varies. */
    private static String row(int writer, int n)
    {
        String label = n % 3 == 0 ? "NULL" : "'w" + writer + "-" + n + "'";
        String price = writer == 3 ? "'nan'::DOUBLE" : String.valueOf(writer * 10.0 - n * 1.5);
        return writer + ", " + n + ", " + label + ", " + price;
    }

    /** Runs the writers; returns, per writer, its last commit's {stamped id (ducklake_last_committed_snapshot), landed id}. */
    private static List<long[]> runWriters(Connection first, int connections, int inserts)
            throws Exception
    {
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(connections);
        try {
            List<java.util.concurrent.Future<long[]>> writers = new java.util.ArrayList<>();
            for (int writer = 0; writer < connections; writer++) {
                int id = writer;
                Connection connection = ((org.duckdb.DuckDBConnection) first).duplicate();
                writers.add(pool.submit(() -> {
                    try (connection) {
                        for (int n = 0; n < inserts; n++) {
                            execute(connection, "INSERT INTO lake.items VALUES (" + row(id, n) + ")");
                        }
                        long stamped = count(connection, "SELECT id FROM ducklake_last_committed_snapshot('lake')");
                        long head = count(connection, "SELECT max(snapshot_id) FROM ducklake_snapshots('lake')");
                        long landed = count(connection, "SELECT snapshot_id FROM ducklake_table_insertions('lake', 'main', 'items', 0, " + head
                                + ") WHERE writer = " + id + " AND n = " + (inserts - 1));
                        return new long[] {stamped, landed};
                    }
                }));
            }
            List<long[]> commits = new java.util.ArrayList<>();
            for (java.util.concurrent.Future<long[]> writer : writers) {
                commits.add(writer.get());
            }
            return commits;
        }
        finally {
            pool.shutdown();
        }
    }

    /**
     * A transaction that stayed open across another commit loses the race: DuckLake stamped snapshot 3, 3 exists. Under
     * REBASE it lands as 4 without a retry and ducklake_last_committed_snapshot() reports the stamped 3 (the documented
     * cost); under RETRY DuckLake re-runs it once, stamps 4 and reports 4.
     */
    @Test
    void lastCommittedSnapshotReportsTheStampedIdUnderRebaseAndTheLandedOneUnderRetry()
            throws Exception
    {
        for (String policy : List.of("rebase", "retry")) {
            Path data = temp.resolve(policy + "-data");
            Files.createDirectories(data);
            try (Connection first = open()) {
                execute(first, "ATTACH 'ducklake:moraine:" + temp.resolve(policy + "-store") + "' AS lake (DATA_PATH '" + data
                        + "/', META_COMMIT_POLICY '" + policy + "')");
                execute(first, "CREATE TABLE lake.items (id INTEGER)");
                execute(first, "INSERT INTO lake.items VALUES (0)");
                long conflictsBefore = CommitConflicts.count();
                try (Connection second = ((org.duckdb.DuckDBConnection) first).duplicate()) {
                    execute(first, "BEGIN");
                    execute(first, "INSERT INTO lake.items VALUES (1)");
                    execute(second, "INSERT INTO lake.items VALUES (2)"); // snapshot 3
                    execute(first, "COMMIT");
                }
                boolean rebase = policy.equals("rebase");
                assertThat(CommitConflicts.count() - conflictsBefore).as(policy + " conflicts").isEqualTo(rebase ? 0 : 1);
                assertThat(query(first, "SELECT id FROM lake.items ORDER BY id")).containsExactly(List.of("0"), List.of("1"), List.of("2"));
                assertThat(query(first, "SELECT snapshot_id FROM ducklake_snapshots('lake') ORDER BY 1"))
                        .containsExactly(List.of("0"), List.of("1"), List.of("2"), List.of("3"), List.of("4"));
                assertThat(count(first, "SELECT snapshot_id FROM ducklake_table_insertions('lake', 'main', 'items', 4, 4)")).isEqualTo(4);
                assertThat(count(first, "SELECT id FROM ducklake_last_committed_snapshot('lake')")).as(policy).isEqualTo(rebase ? 3 : 4);
            }
        }
        try (Connection connection = open()) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> execute(connection, "ATTACH 'ducklake:moraine:" + temp.resolve("rebase-store")
                            + "' AS lake (DATA_PATH '" + temp.resolve("rebase-data") + "/', META_COMMIT_POLICY 'sometimes')"))
                    .hasMessageContaining("COMMIT_POLICY is 'rebase'")
                    .hasMessageContaining("not 'sometimes'");
        }
    }

    @Test
    void aSecondWriterFencesTheFirstWhoseNextCommitSaysSo()
            throws Exception
    {
        Path data = temp.resolve("data");
        Files.createDirectories(data);
        // Exclusive writer mode (the default hands the writer back and forth: DuckLakeWriterHandoffTest).
        String attach = "ATTACH 'ducklake:moraine:" + temp.resolve("store") + "' AS lake (DATA_PATH '" + data + "/', META_WRITER_MODE 'exclusive')";
        // Two DuckDB databases, each with its own read-write attach (as two processes would have).
        try (Connection first = open(); Connection second = open()) {
            execute(first, attach);
            execute(first, "CREATE TABLE lake.items (id INTEGER)");
            execute(first, "INSERT INTO lake.items VALUES (1)");
            execute(second, attach);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> execute(first, "INSERT INTO lake.items VALUES (2)"))
                    .hasMessageContaining("FENCED")
                    .hasMessageContaining("Re-open")
                    .satisfies(e -> assertThat(e.getMessage().toLowerCase()).doesNotContain("conflict", "concurrent", "unique", "primary key"));
            execute(second, "INSERT INTO lake.items VALUES (3)");
            assertThat(query(second, "SELECT id FROM lake.items ORDER BY id")).containsExactly(List.of("1"), List.of("3"));
        }
    }

    @Test
    void duckLakesMetaOptionsReachTheStore()
            throws Exception
    {
        Path data = temp.resolve("data");
        Files.createDirectories(data);
        Path wal = temp.resolve("wal");
        String lake = "ATTACH 'ducklake:moraine:" + temp.resolve("store") + "' AS lake (DATA_PATH '" + data + "/', META_WAL_PATH '" + wal + "'";
        String checkpoint;
        try (Connection connection = open()) {
            execute(connection, lake + ")");
            execute(connection, "CREATE TABLE lake.items (id INTEGER)");
            execute(connection, "INSERT INTO lake.items VALUES (1), (2)");
            checkpoint = query(connection, "SELECT checkpoint_id FROM moraine_create_checkpoint('__ducklake_metadata_lake')").getFirst().getFirst();
            execute(connection, "INSERT INTO lake.items VALUES (3)");
        }
        try (Connection connection = open()) {
            // META_CHECKPOINT pins the lake to the checkpoint: the third row came later.
            execute(connection, lake + ", META_CHECKPOINT '" + checkpoint + "')");
            assertThat(query(connection, "SELECT id FROM lake.items ORDER BY id")).containsExactly(List.of("1"), List.of("2"));
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> execute(connection, "INSERT INTO lake.items VALUES (4)"))
                    .isInstanceOf(java.sql.SQLException.class);
        }
        try (Connection connection = open()) {
            execute(connection, lake + ", META_READ_ONLY)");
            assertThat(query(connection, "SELECT id FROM lake.items ORDER BY id")).containsExactly(List.of("1"), List.of("2"), List.of("3"));
        }
    }

    /**
     * Delete files: their size holds the data file's path (the two lakes' data paths differ), and a rewrite numbers the
     * delete files it writes in DuckLake's unordered iteration order (the (data_file_id, delete_count) pairs agree).
     */
    private static final java.util.Set<String> DELETE_FILE_NATURAL = java.util.Set.of("delete_file_id", "file_size_bytes", "footer_size");

    /**
     * Every row of every ducklake_* table both catalogs hold, equal but for the values that differ by nature: times,
     * UUIDs, file names (DuckLake names files by UUID), the metadata facts created_by and data_path, and
     * {@link #DELETE_FILE_NATURAL}.
     */
    private static void compareCatalogRows(Connection connection)
            throws Exception
    {
        long rows = 0;
        int tables = 0;
        for (io.moraine.core.row.TableKind kind : io.moraine.core.row.TableKind.values()) {
            List<String> columns = new java.util.ArrayList<>();
            for (io.moraine.core.row.Column column : kind.columns()) {
                boolean natural = switch (column.type()) {
                    case TIMESTAMPTZ, UUID -> true;
                    default -> column.name().equals("path") || kind == io.moraine.core.row.TableKind.DELETE_FILE && DELETE_FILE_NATURAL.contains(column.name());
                };
                if (!natural) {
                    columns.add("\"" + column.name() + "\"");
                }
            }
            String filter = kind == io.moraine.core.row.TableKind.METADATA ? " WHERE key NOT IN ('created_by', 'data_path')" : "";
            String select = "SELECT " + String.join(", ", columns) + " FROM __ducklake_metadata_%s.main." + kind.tableName() + filter + " ORDER BY ALL";
            List<List<String>> expected = query(connection, select.formatted("oracle"));
            assertThat(query(connection, select.formatted("lake"))).as(kind.tableName() + " rows").isEqualTo(expected);
            rows += expected.size();
            tables++;
        }
        assertThat(rows).isPositive();
        System.out.printf("[ducklake writes] %d ducklake_* tables compared, %d rows%n", tables, rows);
    }

    @Test
    void aCommitThatLostTheRaceLandsAndTerminalErrorsAreNotRetried()
            throws Exception
    {
        Path data = temp.resolve("data");
        Files.createDirectories(data);
        try (Connection first = open()) {
            execute(first, "ATTACH 'ducklake:moraine:" + temp.resolve("store") + "' AS lake (DATA_PATH '" + data + "/')");
            execute(first, "CREATE TABLE lake.items (id INTEGER, label VARCHAR)");
            try (Connection second = ((org.duckdb.DuckDBConnection) first).duplicate()) {
                execute(first, "BEGIN");
                execute(first, "INSERT INTO lake.items VALUES (1, 'first')");
                assertThat(count(first, "SELECT count(*) FROM lake.items")).isEqualTo(1);
                // Lands while the first transaction is open: the first one's commit finds the head moved.
                execute(second, "INSERT INTO lake.items VALUES (2, 'second')");
                execute(first, "COMMIT");

                // The retried commit creates a table (and its inlined table) again: the retry must register it itself.
                execute(first, "BEGIN");
                execute(first, "CREATE TABLE lake.others (k INTEGER)");
                execute(first, "INSERT INTO lake.others VALUES (7), (8)");
                execute(second, "INSERT INTO lake.items VALUES (3, 'third')");
                execute(first, "COMMIT");
            }
            assertThat(query(first, "SELECT id, label FROM lake.items ORDER BY id"))
                    .containsExactly(List.of("1", "first"), List.of("2", "second"), List.of("3", "third"));
            assertThat(query(first, "SELECT k FROM lake.others ORDER BY k")).containsExactly(List.of("7"), List.of("8"));
            assertThat(query(first, "SELECT snapshot_id FROM ducklake_snapshots('lake') ORDER BY 1"))
                    .containsExactly(List.of("0"), List.of("1"), List.of("2"), List.of("3"), List.of("4"), List.of("5"));
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> execute(first,
                            "UPDATE __ducklake_metadata_lake.ducklake_metadata SET value = '/elsewhere/' WHERE key = 'data_path'"))
                    .hasMessageContaining("store facts")
                    .satisfies(e -> assertThat(e.getMessage().toLowerCase()).doesNotContain("conflict", "concurrent", "unique", "primary key"));
            // The session goes on.
            assertThat(count(first, "SELECT count(*) FROM lake.items")).isEqualTo(3);
        }
        // What landed is in the store: a fresh session reads it.
        try (Connection connection = open()) {
            execute(connection, "ATTACH 'ducklake:moraine:" + temp.resolve("store") + "' AS lake (DATA_PATH '" + data + "/')");
            assertThat(query(connection, "SELECT k FROM lake.others ORDER BY k")).containsExactly(List.of("7"), List.of("8"));
            assertThat(count(connection, "SELECT count(*) FROM lake.items")).isEqualTo(3);
        }
    }

    /** table_insertions, table_deletions and table_changes of both tables over consecutive snapshot ranges and the whole history. */
    private static long compareChanges(Connection connection)
            throws Exception
    {
        List<List<String>> snapshots = query(connection, "SELECT snapshot_id FROM ducklake_snapshots('oracle') ORDER BY 1");
        List<long[]> ranges = new java.util.ArrayList<>();
        for (int i = 1; i < snapshots.size(); i++) {
            ranges.add(new long[] {Long.parseLong(snapshots.get(i - 1).getFirst()), Long.parseLong(snapshots.get(i).getFirst())});
        }
        ranges.add(new long[] {Long.parseLong(snapshots.getFirst().getFirst()), Long.parseLong(snapshots.getLast().getFirst())});
        long comparisons = 0;
        for (String function : List.of("ducklake_table_insertions", "ducklake_table_deletions", "ducklake_table_changes")) {
            for (String table : List.of("'sales', 'orders'", "'main', 'events'")) {
                for (long[] range : ranges) {
                    String select = "SELECT * FROM " + function + "('%s', " + table + ", " + range[0] + ", " + range[1] + ") ORDER BY ALL";
                    List<List<String>> expected;
                    try {
                        expected = query(connection, select.formatted("oracle"));
                    }
                    catch (java.sql.SQLException e) {
                        org.assertj.core.api.Assertions.assertThatThrownBy(() -> query(connection, select.formatted("lake")))
                                .isInstanceOf(java.sql.SQLException.class);
                        comparisons++;
                        continue;
                    }
                    assertThat(query(connection, select.formatted("lake"))).as(select).isEqualTo(expected);
                    comparisons++;
                }
            }
        }
        System.out.printf("[ducklake writes] %d change-feed comparisons%n", comparisons);
        return comparisons;
    }

    private static Connection open()
            throws Exception
    {
        Connection connection = ExtensionConnections.open();
        execute(connection, "SET threads = 1"); // DuckLake's catalog cache race after writes (RFC 0006)
        execute(connection, "LOAD ducklake");
        return connection;
    }

    /** Every user table at every snapshot, all columns, both ways; returns the number of (table, snapshot) comparisons. */
    private static long compareEverySnapshot(Connection connection)
            throws Exception
    {
        return compareEverySnapshot(connection, List.of("main.items", "main.events"));
    }

    private static long compareEverySnapshot(Connection connection, List<String> tables)
            throws Exception
    {
        return compareEverySnapshot(connection, tables, true);
    }

    /** Every table at every snapshot, by version and, with {@code byTimeToo}, by each lake's own time of the snapshot. */
    private static long compareEverySnapshot(Connection connection, List<String> tables, boolean byTimeToo)
            throws Exception
    {
        List<List<String>> snapshots = query(connection, "SELECT snapshot_id FROM ducklake_snapshots('oracle') ORDER BY 1");
        assertThat(query(connection, "SELECT snapshot_id, schema_version FROM ducklake_snapshots('lake') ORDER BY 1"))
                .as("snapshots").isEqualTo(query(connection, "SELECT snapshot_id, schema_version FROM ducklake_snapshots('oracle') ORDER BY 1"));
        java.util.Map<String, java.util.Map<String, String>> times = new java.util.HashMap<>();
        for (String lake : List.of("oracle", "lake")) {
            java.util.Map<String, String> byId = new java.util.HashMap<>();
            for (List<String> row : query(connection, "SELECT snapshot_id, CAST(snapshot_time AS VARCHAR) FROM ducklake_snapshots('" + lake + "')")) {
                byId.put(row.get(0), row.get(1));
            }
            times.put(lake, byId);
        }
        long comparisons = 0;
        long absent = 0;
        long rows = 0;
        for (List<String> snapshot : snapshots) {
            String version = snapshot.getFirst();
            for (String table : tables) {
                // By version, and by each lake's own time of that snapshot (its commits ran at other instants).
                for (boolean byTime : byTimeToo ? List.of(false, true) : List.of(false)) {
                    java.util.function.Function<String, String> select = lake -> "SELECT * FROM " + lake + "." + table + " AT ("
                            + (byTime ? "TIMESTAMP => TIMESTAMPTZ '" + times.get(lake).get(version) + "'" : "VERSION => " + version) + ") ORDER BY ALL";
                    List<List<String>> expected;
                    try {
                        expected = query(connection, select.apply("oracle"));
                    }
                    catch (java.sql.SQLException e) {
                        // The table does not exist at this snapshot: it must not exist in the lake either.
                        org.assertj.core.api.Assertions.assertThatThrownBy(() -> query(connection, select.apply("lake")))
                                .as(select.apply("lake")).isInstanceOf(java.sql.SQLException.class);
                        comparisons++;
                        absent++;
                        continue;
                    }
                    assertThat(query(connection, select.apply("lake"))).as(select.apply("lake")).isEqualTo(expected);
                    comparisons++;
                    rows += expected.size();
                }
            }
        }
        assertThat(comparisons).isEqualTo((byTimeToo ? 2L : 1L) * tables.size() * snapshots.size());
        assertThat(rows).isPositive();
        System.out.printf("[ducklake writes] %d snapshots, %d table comparisons by version and by timestamp (%d of a table absent in both), %d rows compared%n",
                snapshots.size(), comparisons, absent, rows);
        return comparisons;
    }
}
