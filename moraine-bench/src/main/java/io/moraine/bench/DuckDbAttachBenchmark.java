package io.moraine.bench;

import io.moraine.cli.CommandLine;
import io.moraine.core.store.StoreUri;
import io.moraine.cli.CommandLine;
import io.moraine.importer.CatalogImporter;
import io.moraine.importer.DuckDbConnections;
import io.moraine.importer.DuckLakeSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;

/**
 * {@code bin/moraine bench duckdb}: {@code SELECT * FROM ducklake_data_file} of a catalog with N data files, read in
 * one DuckDB 1.5.5 session through moraine's standalone attach and from the same catalog in a DuckDB file (the
 * DuckLake catalog moraine imported it from). Both results are materialized in DuckDB, so every column is read.
 */
public final class DuckDbAttachBenchmark
{

    private DuckDbAttachBenchmark() {}

    public static void main(String[] args)
            throws Exception
    {
        CommandLine line = CommandLine.parse(args, Set.of("rows", "repetitions", "warmup-seconds", "threads"));
        int rows = line.intOption("rows", 10_000);
        int repetitions = line.intOption("repetitions", 15);
        Duration warmup = Duration.ofSeconds(line.intOption("warmup-seconds", 3));
        Path extension = Path.of(System.getProperty("moraine.duckdb.shim.extension", "duckdb-shim/target/extension/moraine.duckdb_extension"));
        Path directory = Files.createTempDirectory("moraine-bench-duckdb");
        Path catalogFile = directory.resolve("catalog.ducklake");
        try (Connection connection = DuckDbConnections.open(""); Statement statement = connection.createStatement()) {
            statement.execute("ATTACH 'ducklake:" + catalogFile + "' AS lake (DATA_PATH '" + directory.resolve("data") + "/')");
            statement.execute("CREATE TABLE lake.t (a INTEGER)");
            statement.execute("DETACH lake");
        }
        try (Connection connection = DuckDbConnections.open(catalogFile.toString()); Statement statement = connection.createStatement()) {
            statement.execute("INSERT INTO ducklake_data_file SELECT i, 1, 1, NULL, i, 'ducklake-' || i || '.parquet', true, 'parquet', "
                    + "1000 + i, 40000 + i, 900, i * 1000, NULL, NULL, NULL, NULL FROM range(" + rows + ") r(i)");
        }
        StoreUri store = StoreUri.parse(directory.resolve("store").toString());
        CatalogImporter.importCatalog(DuckLakeSource.parse("ducklake:" + catalogFile), store, Optional.empty(), CatalogImporter.Progress.SILENT);

        Properties properties = new Properties();
        properties.setProperty("allow_unsigned_extensions", "true");
        try (Connection connection = DriverManager.getConnection("jdbc:duckdb:", properties); Statement statement = connection.createStatement()) {
            int threads = line.intOption("threads", 0);
            if (threads > 0) {
                statement.execute("SET threads = " + threads);
            }
            statement.execute("LOAD '" + extension.toAbsolutePath() + "'");
            statement.execute("ATTACH '" + catalogFile + "' AS duckdb_file (READ_ONLY)");
            statement.execute("ATTACH '" + store + "' AS moraine (TYPE moraine, READ_ONLY)");
            for (String catalog : new String[] {"duckdb_file", "moraine"}) {
                try (var result = statement.executeQuery("SELECT count(*) FROM " + catalog + ".ducklake_data_file")) {
                    result.next();
                    if (result.getLong(1) != rows) {
                        throw new IllegalStateException(catalog + " holds " + result.getLong(1) + " data files, not " + rows);
                    }
                }
            }
            double file = Timing.medianMillisAfterWarmup(warmup, repetitions, () -> materialize(statement, "duckdb_file"));
            double moraine = Timing.medianMillisAfterWarmup(warmup, repetitions, () -> materialize(statement, "moraine"));
            System.out.printf("SELECT * FROM ducklake_data_file, %d rows, threads=%s, median of %d: moraine standalone attach %.2f ms, "
                    + "DuckDB-file DuckLake catalog %.2f ms, ratio %.2fx%n", rows, threads > 0 ? threads : "default", repetitions, moraine, file,
                    moraine / file);
        }
    }

    private static long materialize(Statement statement, String catalog)
            throws Exception
    {
        statement.execute("CREATE OR REPLACE TEMP TABLE sink AS SELECT * FROM " + catalog + ".ducklake_data_file");
        return 0;
    }
}
