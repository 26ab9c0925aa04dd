package io.moraine.bench;

import io.moraine.cli.CommandLine;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.catalog.NewCatalog;
import io.moraine.core.store.StoreOptions;
import io.moraine.core.store.StoreUri;
import io.moraine.launchers.spark.SparkSubmit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static io.moraine.cli.LocalDirectories.deleteRecursively;

/**
 * {@code bin/moraine bench spark-writes}: creates an empty moraine lake (a {@code file://} store and data path) and runs
 * the Spark side ({@code io.moraine.spark.bench.SparkWritesBench}, from spark-connector's test jar) with spark-submit,
 * the bundle and Delta Lake's jars (the MERGE baseline, copied to {@code moraine-bench/target/spark-baselines} by the
 * build): an append against {@code df.write.parquet}, a 1 % MERGE against Delta Lake's, and micro-batch streaming
 * commits per second against Spark's {@code noop} sink.
 */
public final class SparkWritesBenchmark
{
    public static final String DELTA_VERSION = "4.4.0";

    private SparkWritesBenchmark() {}

    public static void main(String[] args)
            throws Exception
    {
        CommandLine line = CommandLine.parse(args, Set.of("rows", "runs", "warmups", "stream-seconds", "stream-rows", "parts", "row-group-rows", "dir"));
        long rows = line.intOption("rows", 8_000_000);
        if (rows < 100) {
            throw new IllegalArgumentException("--rows must be at least 100 (the MERGE updates every hundredth row); got " + rows);
        }
        SparkSubmit spark = SparkSubmit.of(SparkSubmit.checkoutRoot());
        Path testJar = SparkScanBenchmark.testJar(spark.root());
        List<Path> delta = deltaJars(spark.root());
        Path work = line.option("dir").map(dir -> Path.of(dir, "moraine-bench-spark-writes")).orElse(Files.createTempDirectory("moraine-bench-spark-writes-"))
                .toAbsolutePath();
        deleteRecursively(work);
        Files.createDirectories(work);
        try {
            Path data = work.resolve("data");
            Files.createDirectories(data);
            StoreUri store = StoreUri.parse("file://" + work.resolve("moraine-store"));
            try (MoraineCatalog ignored = MoraineCatalog.openOrCreate(store, NewCatalog.bootstrapped(data + "/"), StoreOptions.DEFAULTS)) {
                // an empty lake
            }
            System.out.printf("Spark 4.2.0 local[2], one session; moraine lake %s, data path %s; MERGE baseline: %s%n", store, data,
                    delta.isEmpty() ? "none (Delta Lake's jars are missing)" : "Delta Lake " + DELTA_VERSION + " (" + delta.getFirst().getFileName() + ")");
            List<String> arguments = new ArrayList<>(List.of("--work", work.toString(), "--rows", Long.toString(rows), "--store", store.toString(),
                    "--data", data.toString(), "--runs", Integer.toString(line.intOption("runs", 3)), "--warmups", Integer.toString(line.intOption("warmups", 1)),
                    "--stream-seconds", Integer.toString(line.intOption("stream-seconds", 30)), "--stream-rows", Integer.toString(line.intOption("stream-rows", 100)),
                    "--parts", line.option("parts").orElse("append,merge,stream")));
            Map<String, String> conf = new java.util.LinkedHashMap<>(Map.of(
                    "spark.sql.catalog.lake", "io.moraine.spark.MoraineSparkCatalog",
                    "spark.sql.catalog.lake.store", store.toString(),
                    "spark.driver.memory", "3g"));
            line.option("row-group-rows").ifPresent(rowGroupRows -> arguments.addAll(List.of("--row-group-rows", rowGroupRows)));
            if (!delta.isEmpty()) {
                arguments.addAll(List.of("--delta-version", DELTA_VERSION));
                conf.put("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension");
                conf.put("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog");
            }
            int exit = spark.java("io.moraine.spark.bench.SparkWritesBench", testJar, delta, conf, arguments, Map.of()).inheritIO().start().waitFor();
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

    /** Delta Lake's delta-spark and delta-storage jars, as the build copied them; none when they are missing (the MERGE runs without a baseline). */
    private static List<Path> deltaJars(Path root)
            throws IOException
    {
        Path directory = root.resolve("moraine-bench/target/spark-baselines");
        List<Path> jars;
        try (Stream<Path> files = Files.exists(directory) ? Files.list(directory) : Stream.empty()) {
            jars = files.filter(file -> file.getFileName().toString().startsWith("delta-") && file.getFileName().toString().endsWith(DELTA_VERSION + ".jar"))
                    .sorted().toList();
        }
        if (jars.size() != 2) {
            System.err.println("bench spark-writes: Delta Lake " + DELTA_VERSION + "'s jars (delta-spark_2.13, delta-storage) are not in " + directory
                    + " (the build copies them from Maven Central); the MERGE runs without its baseline");
            return List.of();
        }
        return jars;
    }
}
