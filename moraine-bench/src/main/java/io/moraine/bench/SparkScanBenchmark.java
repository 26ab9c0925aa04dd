package io.moraine.bench;

import io.moraine.cli.CommandLine;
import io.moraine.core.store.StoreUri;
import io.moraine.cli.CommandLine;
import io.moraine.importer.CatalogImporter;
import io.moraine.importer.DuckDbConnections;
import io.moraine.importer.DuckLakeSource;
import io.moraine.launchers.spark.SparkSubmit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import static io.moraine.cli.LocalDirectories.deleteRecursively;

/**
 * {@code bin/moraine bench spark}: writes a lake with DuckDB + DuckLake (a table of Parquet files, one per insert, ids
 * ascending as a lake loaded in commits sorted by the key would be, so that file statistics prune a selective id range, and
 * a table whose rows are all inlined in the catalog), imports it into a moraine store, and runs the Spark side
 * ({@code io.moraine.spark.bench.SparkScanBench}, from spark-connector's test jar) with spark-submit and the bundle:
 * the connector against Spark's built-in Parquet source over the same files in one session, then inlined rows/s.
 */
public final class SparkScanBenchmark
{

    private SparkScanBenchmark() {}

    public static void main(String[] args)
            throws Exception
    {
        CommandLine line = CommandLine.parse(args, Set.of("rows", "files", "inlined-rows", "runs", "warmups", "dir"));
        int rows = line.intOption("rows", 8_000_000);
        int files = line.intOption("files", 32);
        int inlinedRows = line.intOption("inlined-rows", 20_000);
        SparkSubmit spark = SparkSubmit.of(SparkSubmit.checkoutRoot());
        Path testJar = testJar(spark.root());
        Path work = line.option("dir").map(dir -> Path.of(dir, "moraine-bench-spark")).orElse(Files.createTempDirectory("moraine-bench-spark-")).toAbsolutePath();
        deleteRecursively(work);
        Files.createDirectories(work);
        try {
            Path catalogFile = work.resolve("lake.ducklake");
            Path dataPath = work.resolve("data");
            long started = System.nanoTime();
            long perFile = writeLake(catalogFile, dataPath, rows, files, inlinedRows);
            StoreUri store = StoreUri.parse("file://" + work.resolve("moraine-store"));
            CatalogImporter.importCatalog(DuckLakeSource.parse("ducklake:" + catalogFile), store, Optional.empty(), CatalogImporter.Progress.SILENT);
            Path scan = dataPath.resolve("main").resolve("scan");
            long bytes;
            long parquetFiles;
            try (Stream<Path> list = Files.list(scan)) {
                List<Path> parquet = list.filter(file -> file.toString().endsWith(".parquet")).toList();
                parquetFiles = parquet.size();
                bytes = parquet.stream().mapToLong(file -> file.toFile().length()).sum();
            }
            System.out.printf("lake: %,d rows in %d Parquet files (%,.1f MB) under %s, %,d inlined rows; written and imported in %.1f s%n",
                    rows, parquetFiles, bytes / 1e6, scan, inlinedRows, (System.nanoTime() - started) / 1e9);
            long low = perFile * (files / 2) + 10;
            int exit = spark.java("io.moraine.spark.bench.SparkScanBench", testJar, Map.of(
                            "spark.sql.catalog.lake", "io.moraine.spark.MoraineSparkCatalog",
                            "spark.sql.catalog.lake.store", store.toString(),
                            "spark.driver.memory", "3g"),
                    List.of("--data", scan.toString(), "--low-id", Long.toString(low), "--high-id", Long.toString(low + 20_000),
                            "--inlined-rows", Integer.toString(inlinedRows), "--runs", Integer.toString(line.intOption("runs", 5)),
                            "--warmups", Integer.toString(line.intOption("warmups", 3))),
                    Map.of()).inheritIO().start().waitFor();
            if (exit != 0) {
                throw new IllegalStateException("the Spark side of the benchmark failed (spark-submit exit status " + exit + ")");
            }
        }
        finally {
            if (line.option("dir").isEmpty()) {
                deleteRecursively(work);
            }
        }
    }

    /** Writes the two tables; returns the rows per Parquet file. */
    private static long writeLake(Path catalogFile, Path dataPath, int rows, int files, int inlinedRows)
            throws Exception
    {
        long perFile = (rows + files - 1L) / files;
        try (Connection connection = DuckDbConnections.open("", "ducklake"); Statement statement = connection.createStatement()) {
            statement.execute("SET TimeZone = 'UTC'");
            statement.execute("ATTACH 'ducklake:" + catalogFile + "' AS lake (DATA_PATH '" + dataPath + "/', DATA_INLINING_ROW_LIMIT 0)");
            // One thread per insert: one file per insert, ids ascending, so file statistics prune an id range to one file.
            statement.execute("SET threads = 1");
            statement.execute("CREATE TABLE lake.main.scan (id BIGINT, k INTEGER, price DOUBLE, category VARCHAR, day DATE)");
            for (long from = 0; from < rows; from += perFile) {
                statement.execute("""
                        INSERT INTO lake.main.scan
                        SELECT i, (i * 37) %% 1000, ((i * 13) %% 10007) * 0.37, 'category-' || (i %% 8), DATE '2020-01-01' + (i %% 2000)::INTEGER
                        FROM range(%d, %d) t(i)""".formatted(from, Math.min(rows, from + perFile)));
            }
            statement.execute("CALL lake.set_option('data_inlining_row_limit', " + (inlinedRows + 1) + ")");
            statement.execute("CREATE TABLE lake.main.inlined (id BIGINT, k INTEGER, price DOUBLE, category VARCHAR, day DATE)");
            statement.execute("""
                    INSERT INTO lake.main.inlined
                    SELECT i, (i * 37) %% 1000, ((i * 13) %% 10007) * 0.37, 'category-' || (i %% 8), DATE '2020-01-01' + (i %% 2000)::INTEGER
                    FROM range(%d) t(i)""".formatted(inlinedRows));
            try (ResultSet check = statement.executeQuery("SELECT count(*) FROM ducklake_list_files('lake', 'inlined')")) {
                check.next();
                if (check.getLong(1) != 0) {
                    throw new IllegalStateException("DuckLake wrote the inlined table to " + check.getLong(1) + " Parquet files instead of inlining it");
                }
            }
            statement.execute("DETACH lake");
        }
        return perFile;
    }

    static Path testJar(Path root)
            throws IOException
    {
        Path target = root.resolve("spark-connector/target");
        try (Stream<Path> files = Files.exists(target) ? Files.list(target) : Stream.empty()) {
            return files.filter(file -> file.getFileName().toString().startsWith("spark-connector-") && file.getFileName().toString().endsWith("-tests.jar"))
                    .findFirst()
                    .orElseThrow(() -> new SparkSubmit.SparkUnavailableException("no spark-connector-<version>-tests.jar in " + target
                            + " (the benchmark's Spark side): build it with 'make build'"));
        }
    }

}
