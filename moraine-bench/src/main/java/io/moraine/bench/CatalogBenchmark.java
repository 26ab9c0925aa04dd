package io.moraine.bench;

import io.moraine.importer.DuckDbConnections;
import io.moraine.testing.SyntheticCatalog;

import io.moraine.cli.CommandLine;
import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.catalog.NewCatalog;
import io.moraine.core.catalog.SnapshotRows;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.store.StoreUri;
import io.moraine.core.tx.StagedTransaction;
import io.moraine.cli.CommandLine;
import io.moraine.importer.DuckDbConnections;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * {@code bin/moraine bench catalog}: (1) small-commit latency and throughput on {@code memory://} and
 * {@code file://}; (2) planning a scan — resolve a table at a snapshot and list its data files with their delete
 * files — on a catalog of many files over many snapshots, next to the same query against the same rows in a
 * DuckDB-file DuckLake catalog over JDBC, the way SQL-catalog connectors read it. Prints the ratios.
 */
public final class CatalogBenchmark
{
    private static final int TABLES = 10;

    private CatalogBenchmark() {}

    public static void main(String[] args)
            throws Exception
    {
        CommandLine line = CommandLine.parse(args, Set.of("snapshots", "files-per-snapshot", "commits", "repetitions"));
        int snapshots = line.intOption("snapshots", 1000);
        int filesPerSnapshot = line.intOption("files-per-snapshot", 10);
        int commits = line.intOption("commits", 200);
        int repetitions = line.intOption("repetitions", 50);
        Path work = Files.createTempDirectory("moraine-bench-");

        System.out.println("== small commits (1 snapshot, 1 data file, stats update; durable before commit returns)");
        for (StoreUri uri : List.of(StoreUri.parse("memory://bench-" + UUID.randomUUID()), StoreUri.parse(work.resolve("commits").toString()))) {
            CommitStats stats = measureCommits(uri, commits);
            System.out.printf("%-8s %5d commits: p50 %7.2f ms  p99 %7.2f ms  %8.1f commits/s%n",
                    uri.scheme(), commits, stats.p50Millis, stats.p99Millis, stats.commitsPerSecond);
        }

        System.out.printf("== planning: resolve table + list files at a snapshot; %d files over %d snapshots in %d tables%n",
                snapshots * filesPerSnapshot, snapshots, TABLES);
        SyntheticCatalog rows = new SyntheticCatalog(snapshots, filesPerSnapshot, TABLES);
        StoreUri moraineStore = StoreUri.parse(work.resolve("planning").toString());
        Path duckdbCatalog = work.resolve("planning.ducklake");
        try (MoraineCatalog catalog = MoraineCatalog.create(moraineStore, new NewCatalog(work.resolve("data").toString(), false, false, NewCatalog.CREATED_BY))) {
            rows.load(catalog);
        }
        writeDuckLakeCatalog(duckdbCatalog, work.resolve("data"), rows);

        try (MoraineCatalog catalog = MoraineCatalog.open(moraineStore, io.moraine.core.store.OpenMode.READ_ONLY);
                Connection duckdb = DuckDbConnections.open(duckdbCatalog.toString())) {
            for (long snapshot : new long[] {snapshots / 2, snapshots}) {
                String table = "t" + (TABLES / 2);
                double moraineMillis = median(repetitions, () -> planWithMoraine(catalog, snapshot, table));
                double duckdbMillis = median(repetitions, () -> planWithSql(duckdb, snapshot, table));
                int files = planWithMoraine(catalog, snapshot, table);
                int sqlFiles = planWithSql(duckdb, snapshot, table);
                if (files != sqlFiles) {
                    throw new IllegalStateException("moraine listed " + files + " files but the SQL catalog " + sqlFiles);
                }
                System.out.printf("snapshot %5d, %4d files: moraine (file://) %7.2f ms   DuckDB-file catalog over JDBC %7.2f ms   ratio SQL/moraine %5.2fx%n",
                        snapshot, files, moraineMillis, duckdbMillis, duckdbMillis / moraineMillis);
            }
        }
    }

    private record CommitStats(double p50Millis, double p99Millis, double commitsPerSecond) {}

    private static CommitStats measureCommits(StoreUri uri, int commits)
    {
        try (MoraineCatalog catalog = MoraineCatalog.create(uri, NewCatalog.bootstrapped("/bench/data"))) {
            Row previous;
            try (CatalogSnapshot snapshot = catalog.latest()) {
                previous = snapshot.snapshotRow();
            }
            Row first = next(previous, 1, 1, 0);
            catalog.begin(0).insert(first).insert(changes(1, "created_table:\"main\".\"t\""))
                    .insert(SyntheticCatalog.table(1, "t", 1)).insert(Row.of(TableKind.TABLE_STATS, 1L, 0L, 0L, 0L)).commit();
            previous = first;
            long[] nanos = new long[commits];
            long started = System.nanoTime();
            for (int i = 0; i < commits; i++) {
                Row snapshot = next(previous, 0, 0, 1);
                long id = snapshot.getLong("snapshot_id");
                long fileId = previous.getLong("next_file_id");
                long begin = System.nanoTime();
                catalog.begin(previous.getLong("snapshot_id")).insert(snapshot).insert(changes(id, "inserted_into_table:1"))
                        .insert(SyntheticCatalog.dataFile(fileId, 1, id))
                        .update(TableKind.TABLE_STATS, Map.of("record_count", (fileId + 1) * 100, "next_row_id", (fileId + 1) * 100), 1L)
                        .commit();
                nanos[i] = System.nanoTime() - begin;
                previous = snapshot;
            }
            double seconds = (System.nanoTime() - started) / 1e9;
            Arrays.sort(nanos);
            return new CommitStats(nanos[commits / 2] / 1e6, nanos[Math.min(commits - 1, commits * 99 / 100)] / 1e6, commits / seconds);
        }
    }

    private static Row next(Row previous, long schemaVersionDelta, long catalogIds, long fileIds)
    {
        return SnapshotRows.next(previous, schemaVersionDelta, catalogIds, fileIds);
    }

    private static Row changes(long snapshotId, String changes)
    {
        return SnapshotRows.changes(snapshotId, changes);
    }

    /** moraine: one consistent view; schema and table by name at S; the table's visible data and delete files. */
    private static int planWithMoraine(MoraineCatalog catalog, long snapshotId, String tableName)
    {
        try (CatalogSnapshot snapshot = catalog.at(snapshotId)) {
            long tableId = snapshot.model().table("main", tableName).orElseThrow().id();
            Map<Long, Row> deletes = new HashMap<>();
            snapshot.deleteFiles(tableId).forEachRemaining(row -> deletes.put(row.getLong("data_file_id"), row));
            List<Row> files = snapshot.dataFiles(tableId).toList();
            return files.size() + deletes.size() * 0;
        }
    }

    /** The SQL a DuckLake connector over a SQL catalog issues (reference §4.1 and §4.3). */
    private static int planWithSql(Connection connection, long snapshotId, String tableName)
    {
        try {
            try (PreparedStatement statement = connection.prepareStatement("SELECT snapshot_id, schema_version FROM ducklake_snapshot WHERE snapshot_id = ?")) {
                statement.setLong(1, snapshotId);
                try (ResultSet resultSet = statement.executeQuery()) {
                    resultSet.next();
                }
            }
            long tableId;
            try (PreparedStatement statement = connection.prepareStatement("""
                    SELECT t.table_id FROM ducklake_table t JOIN ducklake_schema s ON t.schema_id = s.schema_id
                    WHERE s.schema_name = ? AND t.table_name = ?
                      AND ? >= s.begin_snapshot AND (s.end_snapshot IS NULL OR ? < s.end_snapshot)
                      AND ? >= t.begin_snapshot AND (t.end_snapshot IS NULL OR ? < t.end_snapshot)""")) {
                statement.setString(1, "main");
                statement.setString(2, tableName);
                for (int i = 3; i <= 6; i++) {
                    statement.setLong(i, snapshotId);
                }
                try (ResultSet resultSet = statement.executeQuery()) {
                    resultSet.next();
                    tableId = resultSet.getLong(1);
                }
            }
            int files = 0;
            try (PreparedStatement statement = connection.prepareStatement("""
                    SELECT data.*, del.*
                    FROM ducklake_data_file data
                    LEFT JOIN (SELECT * FROM ducklake_delete_file WHERE table_id = ? AND ? >= begin_snapshot
                               AND (? < end_snapshot OR end_snapshot IS NULL)) del ON del.data_file_id = data.data_file_id
                    WHERE data.table_id = ? AND ? >= data.begin_snapshot AND (? < data.end_snapshot OR data.end_snapshot IS NULL)""")) {
                statement.setLong(1, tableId);
                statement.setLong(2, snapshotId);
                statement.setLong(3, snapshotId);
                statement.setLong(4, tableId);
                statement.setLong(5, snapshotId);
                statement.setLong(6, snapshotId);
                try (ResultSet resultSet = statement.executeQuery()) {
                    int columns = resultSet.getMetaData().getColumnCount();
                    while (resultSet.next()) {
                        for (int c = 1; c <= columns; c++) {
                            resultSet.getObject(c);
                        }
                        files++;
                    }
                }
            }
            return files;
        }
        catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Creates a DuckLake catalog file with DuckLake itself, then inserts the synthetic rows into its tables. */
    private static void writeDuckLakeCatalog(Path catalogFile, Path dataPath, SyntheticCatalog rows)
            throws SQLException
    {
        try (Connection connection = DuckDbConnections.open(""); Statement statement = connection.createStatement()) {
            statement.execute("ATTACH 'ducklake:" + catalogFile + "' AS lake (DATA_PATH '" + dataPath + "/')");
            statement.execute("DETACH lake");
        }
        try (Connection connection = DuckDbConnections.open(catalogFile.toString())) {
            connection.setAutoCommit(false);
            try (Statement statement = connection.createStatement()) {
                // The synthetic rows carry their own bootstrap snapshot and schema.
                for (TableKind kind : List.of(TableKind.SNAPSHOT, TableKind.SNAPSHOT_CHANGES, TableKind.SCHEMA)) {
                    statement.execute("DELETE FROM " + kind.tableName());
                }
            }
            Map<TableKind, List<Row>> byKind = new HashMap<>();
            rows.all().forEach(row -> byKind.computeIfAbsent(row.kind(), ignored -> new ArrayList<>()).add(row));
            for (Map.Entry<TableKind, List<Row>> entry : byKind.entrySet()) {
                TableKind kind = entry.getKey();
                String placeholders = String.join(", ", kind.columns().stream()
                        .map(column -> switch (column.type()) {
                            case UUID -> "?::UUID";
                            case TIMESTAMPTZ -> "?::TIMESTAMPTZ";
                            default -> "?";
                        }).toList());
                try (PreparedStatement insert = connection.prepareStatement("INSERT INTO " + kind.tableName() + " VALUES (" + placeholders + ")")) {
                    for (Row row : entry.getValue()) {
                        for (int i = 0; i < kind.columns().size(); i++) {
                            Object value = row.get(i);
                            insert.setObject(i + 1, value instanceof UUID || value instanceof Instant ? value.toString() : value);
                        }
                        insert.addBatch();
                    }
                    insert.executeBatch();
                }
            }
            connection.commit();
        }
    }

    private static double median(int repetitions, Timing.Measured measured)
            throws Exception
    {
        return Timing.medianMillis(Math.max(3, repetitions / 5), repetitions, measured);
    }
}
