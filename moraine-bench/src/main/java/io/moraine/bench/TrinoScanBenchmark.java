package io.moraine.bench;

import io.moraine.cli.CommandLine;
import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.catalog.SnapshotRows;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreUri;
import io.moraine.core.tx.StagedTransaction;
import io.moraine.cli.CommandLine;
import io.moraine.launchers.trino.TrinoLogging;
import io.moraine.importer.CatalogImporter;
import io.moraine.importer.DuckDbConnections;
import io.moraine.importer.DuckLakeSource;
import io.moraine.trino.MorainePlugin;
import io.trino.Session;
import io.trino.execution.QueryStats;
import io.trino.plugin.hive.HivePlugin;
import io.trino.spi.QueryId;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;

import static io.trino.testing.TestingSession.testSession;
import static io.moraine.cli.LocalDirectories.deleteRecursively;

/**
 * {@code bin/moraine bench trino}: one embedded Trino with two catalogs over the same Parquet files — {@code lake}
 * (the moraine connector on a moraine store imported from a DuckLake lake) and {@code hive} (Trino's Hive connector,
 * file metastore, an external table on the DuckLake table's data directory). (1) a scan-heavy query set, median times
 * and the ratio moraine/hive per query and overall (geometric mean); (2) planning a table of many data files:
 * {@code EXPLAIN} and a full {@code count(*)} at 10,000 files next to a 100-file table and Hive on the same 10,000 files.
 */
public final class TrinoScanBenchmark
{

    private static final String COLUMNS_DDL = "id BIGINT, k INTEGER, qty INTEGER, price DOUBLE, discount DOUBLE, category VARCHAR, customer VARCHAR, day DATE, ts TIMESTAMP";
    private static final String HIVE_COLUMNS = "id bigint, k integer, qty integer, price double, discount double, category varchar, customer varchar, day date, ts timestamp(6)";

    /** Name and SQL; {@code %s} is the table. */
    private static final List<String[]> QUERIES = List.of(
            new String[] {"count(*)", "SELECT count(*) FROM %s"},
            new String[] {"sum/avg numeric", "SELECT sum(qty), avg(price), sum(price * (1 - discount)) FROM %s"},
            new String[] {"selective id range", "SELECT count(*), sum(price) FROM %s WHERE id BETWEEN 1000000 AND 1020000"},
            new String[] {"group by category", "SELECT category, count(*), sum(qty), avg(price) FROM %s GROUP BY category ORDER BY category"},
            new String[] {"group by k top 5", "SELECT k, sum(price) s FROM %s GROUP BY k ORDER BY s DESC, k LIMIT 5"},
            new String[] {"string filter LIKE", "SELECT count(*), sum(qty) FROM %s WHERE customer LIKE '%%-777%%'"},
            new String[] {"min/max ts, day", "SELECT min(ts), max(ts), min(day), max(day) FROM %s"},
            new String[] {"filter + group by day", "SELECT day, count(*), sum(price) FROM %s WHERE qty < 10 AND day >= DATE '2024-06-01' GROUP BY day ORDER BY day LIMIT 10"});

    private TrinoScanBenchmark() {}

    public static void main(String[] args)
            throws Exception
    {
        CommandLine line = CommandLine.parse(args, Set.of("rows", "files", "runs", "warmups", "planning-files", "planning-runs", "queries", "dir", "stats"));
        int rows = line.intOption("rows", 4_000_000);
        int files = line.intOption("files", 8);
        int runs = line.intOption("runs", 5);
        int warmups = line.intOption("warmups", 2);
        int planningFiles = line.intOption("planning-files", 10_000);
        int planningRuns = line.intOption("planning-runs", 3);
        boolean stats = line.flag("stats");
        List<String[]> queries = line.option("queries")
                .map(list -> Arrays.stream(list.split(",")).map(n -> QUERIES.get(Integer.parseInt(n.trim()) - 1)).toList())
                .orElse(QUERIES);
        Path work = line.option("dir").map(dir -> Path.of(dir, "moraine-bench-trino")).orElse(Files.createTempDirectory("moraine-bench-trino-"))
                .toAbsolutePath();
        deleteRecursively(work);
        Files.createDirectories(work);

        try {
            Path catalogFile = work.resolve("lake.ducklake");
            Path dataPath = work.resolve("data");
            long started = System.nanoTime();
            writeLake(catalogFile, dataPath, rows, files);
            StoreUri store = StoreUri.parse("file://" + work.resolve("moraine-store"));
            CatalogImporter.importCatalog(DuckLakeSource.parse("ducklake:" + catalogFile), store, Optional.empty(), CatalogImporter.Progress.SILENT);
            Path scanDirectory = dataPath.resolve("main").resolve("scan");
            Path manyDirectory = dataPath.resolve("main").resolve("many");
            Path fewDirectory = dataPath.resolve("main").resolve("few");
            addFileCopies(store, "many", manyDirectory, Math.max(planningFiles, 1) - 1);
            addFileCopies(store, "few", fewDirectory, 99);
            checkSameFiles(store, Map.of("scan", scanDirectory, "many", manyDirectory, "few", fewDirectory));
            System.out.printf("lake: %,d rows in %d Parquet files (%,.1f MB) under %s; written and imported in %.1f s%n", rows, parquetFiles(scanDirectory).size(),
                    parquetFiles(scanDirectory).stream().mapToLong(TrinoScanBenchmark::size).sum() / 1e6, scanDirectory, (System.nanoTime() - started) / 1e9);

            try (DistributedQueryRunner runner = startTrino(store, work.resolve("hive-metastore"))) {
                runner.execute("CREATE SCHEMA hive.bench");
                createHiveTable(runner, "scan", HIVE_COLUMNS, scanDirectory);
                createHiveTable(runner, "many", "id bigint, v double", manyDirectory);
                createHiveTable(runner, "few", "id bigint, v double", fewDirectory);

                scanQueries(runner, queries, runs, warmups, stats);
                if (planningFiles > 0) {
                    planning(runner, planningFiles, planningRuns, Math.min(warmups, 1), stats);
                    SplitPlanningTiming.print(store, "many", planningFiles, planningRuns);
                }
            }
        }
        finally {
            if (line.option("dir").isEmpty()) {
                deleteRecursively(work);
            }
        }
    }

    // ---------------------------------------------------------------- the lake

    private static void writeLake(Path catalogFile, Path dataPath, int rows, int files)
            throws Exception
    {
        try (Connection connection = DuckDbConnections.open("", "ducklake"); Statement statement = connection.createStatement()) {
            statement.execute("SET TimeZone = 'UTC'");
            // No inlining: every insert becomes Parquet. One thread per insert: one file per insert.
            statement.execute("ATTACH 'ducklake:" + catalogFile + "' AS lake (DATA_PATH '" + dataPath + "/', DATA_INLINING_ROW_LIMIT 0)");
            statement.execute("SET threads = 1");
            statement.execute("CREATE TABLE lake.main.scan (" + COLUMNS_DDL + ")");
            long perFile = (rows + files - 1L) / files;
            for (long from = 0; from < rows; from += perFile) {
                long to = Math.min(rows, from + perFile);
                statement.execute("""
                        INSERT INTO lake.main.scan
                        SELECT i, (i * 37) %% 1000, (i * 7) %% 100, ((i * 13) %% 10007) * 0.37, (i %% 11) / 100.0, 'category-' || (i %% 8),
                               'customer-' || ((i * 7919) %% 50000), DATE '2020-01-01' + (i %% 2000)::INTEGER,
                               TIMESTAMP '2020-01-01 00:00:00' + to_microseconds(i * 15000000)
                        FROM range(%d, %d) t(i)""".formatted(from, to));
            }
            for (String table : List.of("many", "few")) {
                statement.execute("CREATE TABLE lake.main." + table + " (id BIGINT, v DOUBLE)");
                statement.execute("INSERT INTO lake.main." + table + " VALUES (1, 0.5)");
            }
            try (ResultSet check = statement.executeQuery("SELECT count(*) FROM lake.main.scan")) {
                check.next();
                if (check.getLong(1) != rows) {
                    throw new IllegalStateException("DuckLake wrote " + check.getLong(1) + " rows, not " + rows);
                }
            }
            statement.execute("DETACH lake");
        }
    }

    /**
     * Gives {@code table} {@code copies} more data files, all copies of its one Parquet file, in one moraine commit:
     * a planning workload of many real (tiny) files without writing thousands of DuckLake snapshots.
     */
    private static void addFileCopies(StoreUri store, String tableName, Path directory, int copies)
            throws IOException
    {
        if (copies <= 0) {
            return;
        }
        try (MoraineCatalog catalog = MoraineCatalog.open(store, OpenMode.READ_WRITE)) {
            Row snapshotRow;
            long readSnapshotId;
            long fileId;
            long tableId;
            Row original;
            Row stats;
            try (CatalogSnapshot snapshot = catalog.latest()) {
                snapshotRow = snapshot.snapshotRow();
                readSnapshotId = snapshot.id();
                fileId = snapshot.nextFileId();
                tableId = snapshot.model().table("main", tableName).orElseThrow().id();
                List<Row> dataFiles = snapshot.dataFiles(tableId).toList();
                if (dataFiles.size() != 1) {
                    throw new IllegalStateException(tableName + " has " + dataFiles.size() + " data files, not 1");
                }
                original = dataFiles.getFirst();
                stats = snapshot.tableStats(tableId).orElseThrow();
            }
            Row next = SnapshotRows.next(snapshotRow, 0, 0, copies);
            long snapshotId = next.getLong("snapshot_id");
            String originalPath = original.getString("path");
            Path source = Boolean.TRUE.equals(original.get("path_is_relative")) ? directory.resolve(originalPath) : Path.of(originalPath);
            long records = original.getLong("record_count");
            long nextRowId = stats.getLong("next_row_id");
            StagedTransaction commit = catalog.begin(readSnapshotId).insert(next)
                    .insert(SnapshotRows.changes(snapshotId, "inserted_into_table:" + tableId));
            for (int i = 0; i < copies; i++) {
                String name = "ducklake-" + UUID.randomUUID() + ".parquet";
                Path target = directory.resolve(name);
                Files.copy(source, target);
                commit.insert(original.with(Map.of("data_file_id", fileId + i, "begin_snapshot", snapshotId,
                        "path", Boolean.TRUE.equals(original.get("path_is_relative")) ? name : target.toString(),
                        "row_id_start", nextRowId + i * records)));
            }
            commit.update(TableKind.TABLE_STATS, Map.of("record_count", stats.getLong("record_count") + copies * records,
                    "next_row_id", nextRowId + copies * records), tableId);
            commit.commit();
        }
    }

    // ---------------------------------------------------------------- Trino

    private static DistributedQueryRunner startTrino(StoreUri store, Path metastore)
            throws Exception
    {
        TrinoLogging.quiet();
        Session session = Session.builder(testSession()).setCatalog("lake").setSchema("main").build();
        DistributedQueryRunner runner = DistributedQueryRunner.builder(session).setWorkerCount(0).build();
        runner.installPlugin(new MorainePlugin());
        runner.createCatalog("lake", "moraine", Map.of("moraine.store-uri", store.toString()));
        runner.installPlugin(new HivePlugin());
        runner.createCatalog("hive", "hive", Map.of(
                "hive.metastore", "file",
                "hive.metastore.catalog.dir", "local://" + metastore,
                "fs.hadoop.enabled", "false",
                "fs.local.enabled", "true",
                "local.location", "/",
                "hive.timestamp-precision", "MICROSECONDS"));
        Files.createDirectories(metastore);
        return runner;
    }

    private static void createHiveTable(DistributedQueryRunner runner, String table, String columns, Path directory)
    {
        runner.execute("CREATE TABLE hive.bench." + table + " (" + columns + ") WITH (external_location = 'local://" + directory
                + "', format = 'PARQUET')");
    }

    /**
     * Hive reads every file of its directory: they must be exactly the files the moraine catalog lists, with no
     * delete files (a delete would make the two connectors see different rows).
     */
    private static void checkSameFiles(StoreUri store, Map<String, Path> directories)
            throws IOException
    {
        try (MoraineCatalog catalog = MoraineCatalog.open(store, OpenMode.READ_ONLY); CatalogSnapshot snapshot = catalog.latest()) {
            for (Map.Entry<String, Path> entry : directories.entrySet()) {
                long tableId = snapshot.model().table("main", entry.getKey()).orElseThrow().id();
                String tablePath = entry.getValue().toString() + "/";
                List<String> listed = snapshot.dataFiles(tableId).toList().stream()
                        .map(file -> Boolean.TRUE.equals(file.get("path_is_relative")) ? tablePath + file.getString("path") : file.getString("path"))
                        .sorted().toList();
                long deletes = snapshot.deleteFiles(tableId).toList().size();
                List<String> onDisk;
                try (Stream<Path> files = Files.list(entry.getValue())) {
                    onDisk = files.map(Path::toString).sorted().toList();
                }
                if (!listed.equals(onDisk) || deletes != 0) {
                    throw new IllegalStateException(entry.getKey() + ": moraine lists " + listed.size() + " data files and " + deletes
                            + " delete files, the directory holds " + onDisk.size() + " files, not the same");
                }
            }
        }
    }


    private static void scanQueries(DistributedQueryRunner runner, List<String[]> queries, int runs, int warmups, boolean showStats)
    {
        System.out.printf("== scans: the same Parquet files through the moraine connector and Trino's Hive connector; median of %d runs after %d warm-ups%n",
                runs, warmups);
        System.out.printf("%-24s %11s %11s %8s   %11s %11s %8s%n", "query", "moraine ms", "hive ms", "ratio", "moraine cpu", "hive cpu", "ratio");
        double logSum = 0;
        double cpuLogSum = 0;
        for (String[] query : queries) {
            String moraineSql = query[1].formatted("lake.main.scan");
            String hiveSql = query[1].formatted("hive.bench.scan");
            MaterializedResult expected = runner.execute(hiveSql);
            MaterializedResult actual = runner.execute(moraineSql);
            if (!sameResult(expected, actual)) {
                throw new IllegalStateException(query[0] + ": moraine returned " + actual.getMaterializedRows() + " but hive " + expected.getMaterializedRows());
            }
            for (int i = 0; i < warmups; i++) {
                runner.execute(moraineSql);
                runner.execute(hiveSql);
            }
            long[] moraineNanos = new long[runs];
            long[] hiveNanos = new long[runs];
            long[] moraineCpu = new long[runs];
            long[] hiveCpu = new long[runs];
            QueryId lastMoraine = null;
            QueryId lastHive = null;
            // Interleaved, so drift (GC, page cache, JIT) hits both sides alike.
            for (int i = 0; i < runs; i++) {
                long start = System.nanoTime();
                lastMoraine = runner.executeWithPlan(runner.getDefaultSession(), moraineSql).queryId();
                moraineNanos[i] = System.nanoTime() - start;
                start = System.nanoTime();
                lastHive = runner.executeWithPlan(runner.getDefaultSession(), hiveSql).queryId();
                hiveNanos[i] = System.nanoTime() - start;
                moraineCpu[i] = cpuNanos(runner, lastMoraine);
                hiveCpu[i] = cpuNanos(runner, lastHive);
            }
            double moraine = median(moraineNanos);
            double hive = median(hiveNanos);
            double moraineCpuMillis = median(moraineCpu);
            double hiveCpuMillis = median(hiveCpu);
            logSum += Math.log(moraine / hive);
            cpuLogSum += Math.log(Math.max(1, moraineCpuMillis) / Math.max(1, hiveCpuMillis));
            System.out.printf("%-24s %11.1f %11.1f %7.2fx   %11.0f %11.0f %7.2fx%n", query[0], moraine, hive, moraine / hive, moraineCpuMillis, hiveCpuMillis,
                    Math.max(1, moraineCpuMillis) / Math.max(1, hiveCpuMillis));
            if (showStats) {
                System.out.println("    moraine " + stats(runner, lastMoraine));
                System.out.println("    hive    " + stats(runner, lastHive));
            }
        }
        System.out.printf("%-24s %32.2fx %36.2fx   (geometric means of moraine/hive; goal <= 1.05x)%n", "overall", Math.exp(logSum / queries.size()),
                Math.exp(cpuLogSum / queries.size()));
        System.out.println("  wall: client-side time of the whole query; cpu: Trino's total CPU time of the query (planning, scan, operators)");
    }

    private static long cpuNanos(DistributedQueryRunner runner, QueryId queryId)
    {
        return runner.getCoordinator().getQueryManager().getFullQueryInfo(queryId).getQueryStats().getTotalCpuTime().roundTo(java.util.concurrent.TimeUnit.NANOSECONDS);
    }

    private static String stats(DistributedQueryRunner runner, QueryId queryId)
    {
        QueryStats stats = runner.getCoordinator().getQueryManager().getFullQueryInfo(queryId).getQueryStats();
        return String.format("elapsed %s (queued %s, planning %s, execution %s, finishing %s), scheduled %s; drivers %d, physical input %s in %,d rows, read time %s, planning %s, cpu %s",
                stats.getElapsedTime().convertToMostSuccinctTimeUnit(), stats.getQueuedTime().convertToMostSuccinctTimeUnit(),
                stats.getPlanningTime().convertToMostSuccinctTimeUnit(), stats.getExecutionTime().convertToMostSuccinctTimeUnit(),
                stats.getFinishingTime().convertToMostSuccinctTimeUnit(), stats.getTotalScheduledTime().convertToMostSuccinctTimeUnit(),
                stats.getTotalDrivers(),
                stats.getPhysicalInputDataSize().succinct(), stats.getPhysicalInputPositions(), stats.getPhysicalInputReadTime().convertToMostSuccinctTimeUnit(),
                stats.getPlanningTime().convertToMostSuccinctTimeUnit(), stats.getTotalCpuTime().convertToMostSuccinctTimeUnit());
    }

    private static void planning(DistributedQueryRunner runner, int planningFiles, int runs, int warmups, boolean showStats)
    {
        String query = "SELECT count(*), sum(v) FROM %s";
        System.out.printf("== planning a table of many data files (tiny Parquet files, 1 row each); median of %d runs after %d warm-ups%n", runs, warmups);
        String[][] targets = {
                {"moraine, " + String.format("%,d", planningFiles) + " files", "lake.main.many"},
                {"moraine, 100 files", "lake.main.few"},
                {"hive, " + String.format("%,d", planningFiles) + " files", "hive.bench.many"},
                {"hive, 100 files", "hive.bench.few"}};
        System.out.printf("%-24s %14s %18s %20s%n", "table", "EXPLAIN ms", "planning ms*", "count(*) query ms");
        for (String[] target : targets) {
            String sql = query.formatted(target[1]);
            long expectedRows = Long.parseLong(target[0].replaceAll("\\D", ""));
            Object count = runner.execute(sql).getMaterializedRows().getFirst().getField(0);
            if (((Number) count).longValue() != expectedRows) {
                throw new IllegalStateException(target[0] + ": count(*) is " + count + ", expected " + expectedRows);
            }
            long[] explain = new long[runs];
            long[] planning = new long[runs];
            long[] full = new long[runs];
            for (int i = 0; i < warmups; i++) {
                runner.execute("EXPLAIN " + sql);
                runner.execute(sql);
            }
            for (int i = 0; i < runs; i++) {
                long start = System.nanoTime();
                runner.execute("EXPLAIN " + sql);
                explain[i] = System.nanoTime() - start;
                start = System.nanoTime();
                QueryRunner.MaterializedResultWithPlan result = runner.executeWithPlan(runner.getDefaultSession(), sql);
                full[i] = System.nanoTime() - start;
                planning[i] = runner.getCoordinator().getQueryManager().getFullQueryInfo(result.queryId()).getQueryStats().getPlanningTime().roundTo(
                        java.util.concurrent.TimeUnit.NANOSECONDS);
            }
            System.out.printf("%-24s %14.1f %18.1f %20.1f%n", target[0], median(explain), median(planning), median(full));
            if (showStats) {
                System.out.println("    " + stats(runner, runner.executeWithPlan(runner.getDefaultSession(), sql).queryId()));
            }
        }
        System.out.println("  * Trino's planning time of the count(*) query (analysis and optimization, not split enumeration);"
                + " the count(*) query includes listing and reading every file.");
    }

    // ---------------------------------------------------------------- helpers

    private static boolean sameResult(MaterializedResult expected, MaterializedResult actual)
    {
        List<MaterializedRow> left = expected.getMaterializedRows();
        List<MaterializedRow> right = actual.getMaterializedRows();
        if (left.size() != right.size()) {
            return false;
        }
        for (int r = 0; r < left.size(); r++) {
            List<Object> a = left.get(r).getFields();
            List<Object> b = right.get(r).getFields();
            for (int c = 0; c < a.size(); c++) {
                Object x = a.get(c);
                Object y = b.get(c);
                if (x instanceof Double dx && y instanceof Double dy) {
                    if (Math.abs(dx - dy) > 1e-9 * Math.max(1, Math.abs(dx))) {
                        return false;
                    }
                }
                else if (x == null ? y != null : !x.toString().equals(String.valueOf(y))) {
                    return false;
                }
            }
        }
        return true;
    }

    private static double median(long[] nanos)
    {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2] / 1e6;
    }

    private static List<Path> parquetFiles(Path directory)
            throws IOException
    {
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(path -> path.getFileName().toString().endsWith(".parquet")).toList();
        }
    }

    private static long size(Path path)
    {
        try {
            return Files.size(path);
        }
        catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

}
