package io.moraine.bench;

import io.moraine.cli.CommandLine;
import io.moraine.core.store.StoreUri;
import io.moraine.cli.CommandLine;
import io.moraine.launchers.trino.TrinoLogging;
import io.moraine.importer.CatalogImporter;
import io.moraine.importer.DuckDbConnections;
import io.moraine.importer.DuckLakeSource;
import io.moraine.trino.MorainePlugin;
import io.opentelemetry.api.common.AttributeKey;
import io.trino.Session;
import io.trino.testing.DistributedQueryRunner;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static io.trino.testing.TestingSession.testSession;
import static io.moraine.cli.LocalDirectories.deleteRecursively;

/**
 * {@code bin/moraine bench row-id}: a table of many DuckLake data files (one per insert) and one UPDATE, read through
 * Trino's moraine connector. A {@code $row_id} point lookup against a full scan of the same table: data files opened
 * (Trino's file-system tracing) and median time, with the ratios lookup/full scan. The UPDATE's file embeds row ids the
 * catalog cannot bound, so the lookup opens it as well as the file whose row-id range holds the row.
 */
public final class RowIdLookupBenchmark
{

    private RowIdLookupBenchmark() {}

    public static void main(String[] args)
            throws Exception
    {
        CommandLine line = CommandLine.parse(args, Set.of("files", "rows-per-file", "runs", "warmups", "dir"));
        int files = line.intOption("files", 200);
        int rowsPerFile = line.intOption("rows-per-file", 20_000);
        int runs = line.intOption("runs", 5);
        int warmups = line.intOption("warmups", 2);
        Path work = line.option("dir").map(dir -> Path.of(dir, "moraine-bench-row-id")).orElse(Files.createTempDirectory("moraine-bench-row-id-")).toAbsolutePath();
        deleteRecursively(work);
        Files.createDirectories(work);
        try {
            Path catalogFile = work.resolve("lake.ducklake");
            writeLake(catalogFile, work.resolve("data"), files, rowsPerFile);
            StoreUri store = StoreUri.parse("file://" + work.resolve("moraine-store"));
            CatalogImporter.importCatalog(DuckLakeSource.parse("ducklake:" + catalogFile), store, Optional.empty(), CatalogImporter.Progress.SILENT);
            TrinoLogging.quiet();
            Session session = Session.builder(testSession()).setCatalog("lake").setSchema("main").build();
            try (DistributedQueryRunner runner = DistributedQueryRunner.builder(session).setWorkerCount(0).build()) {
                runner.installPlugin(new MorainePlugin());
                runner.createCatalog("lake", "moraine", Map.of("moraine.store-uri", store.toString()));
                long rowId = (long) (files / 2) * rowsPerFile + 17;
                String lookup = "SELECT id, v FROM t WHERE \"$row_id\" = " + rowId;
                String fullScan = "SELECT count(*), sum(v) FROM t";
                long lookupRows = runner.execute(lookup).getRowCount();
                if (lookupRows != 1) {
                    throw new IllegalStateException("the lookup of row id " + rowId + " found " + lookupRows + " rows, not 1");
                }
                long lookupFiles = filesOpened(runner, lookup);
                long scanFiles = filesOpened(runner, fullScan);
                double lookupMillis = Timing.medianMillis(warmups, runs, () -> runner.execute(lookup).getRowCount());
                double scanMillis = Timing.medianMillis(warmups, runs, () -> runner.execute(fullScan).getRowCount());
                System.out.printf("table t: %d data files of %,d rows (+1 UPDATE file with embedded row ids)%n", files, rowsPerFile);
                System.out.printf("%-38s %8s %10s%n", "query", "files", "median ms");
                System.out.printf("%-38s %8d %10.1f%n", "$row_id = " + rowId, lookupFiles, lookupMillis);
                System.out.printf("%-38s %8d %10.1f%n", "full scan: count(*), sum(v)", scanFiles, scanMillis);
                System.out.printf("lookup / full scan: files opened %.4f (%d / %d), time %.3f%n", (double) lookupFiles / scanFiles, lookupFiles, scanFiles,
                        lookupMillis / scanMillis);
            }
        }
        finally {
            if (line.option("dir").isEmpty()) {
                deleteRecursively(work);
            }
        }
    }

    private static void writeLake(Path catalogFile, Path dataPath, int files, int rowsPerFile)
            throws Exception
    {
        try (Connection connection = DuckDbConnections.open("", "ducklake"); Statement statement = connection.createStatement()) {
            statement.execute("SET TimeZone = 'UTC'");
            statement.execute("ATTACH 'ducklake:" + catalogFile + "' AS lake (DATA_PATH '" + dataPath + "/', DATA_INLINING_ROW_LIMIT 0)");
            statement.execute("SET threads = 1");
            statement.execute("CREATE TABLE lake.main.t (id BIGINT, v DOUBLE)");
            for (long file = 0; file < files; file++) {
                statement.execute("INSERT INTO lake.main.t SELECT i, i * 0.5 FROM range(%d, %d) r(i)".formatted(file * rowsPerFile, (file + 1) * rowsPerFile));
            }
            // Rows of the first file rewritten: a file with embedded row ids (and a delete file on the first).
            statement.execute("UPDATE lake.main.t SET v = v + 1 WHERE id < 10");
            statement.execute("DETACH lake");
        }
    }

    /** Data files (not delete files) of table t the query opened. */
    private static long filesOpened(DistributedQueryRunner runner, String sql)
    {
        runner.executeWithPlan(runner.getDefaultSession(), sql);
        return runner.getSpans().stream()
                .filter(span -> span.getName().equals("InputFile.newInput"))
                .map(span -> span.getAttributes().get(AttributeKey.stringKey("trino.file.location")))
                .filter(location -> location != null && location.contains("/main/t/") && !location.endsWith("-delete.parquet"))
                .count();
    }

}
