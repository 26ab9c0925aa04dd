package io.moraine.spark.bench;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryProgress;
import org.apache.spark.sql.streaming.Trigger;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

/**
 * The Spark side of {@code bin/moraine bench spark-writes}, run by spark-submit with the bundle jar (and Delta Lake's
 * jars, the MERGE baseline, when given): in one session, (1) an append of the same rows to a moraine table
 * ({@code df.writeTo(t).append()}) against Spark's own Parquet write ({@code df.write.parquet}); (2) a {@code MERGE INTO}
 * updating 1 % of those rows (every hundredth id, so every file is touched) on the moraine table against the same MERGE
 * on a Delta table of the same rows with deletion vectors (merge-on-read, as moraine's delete files are); (3) a stream
 * of micro-batches of a fixed row count ({@code rate-micro-batch}) into {@code writeStream.format("moraine")}, on a
 * 1-second trigger and as fast as Spark runs batches, against the same stream into Spark's {@code noop} sink (Spark's
 * own per-batch cost: the floor any sink's commit rate sits under). Each timed measurement is one execution, the two
 * sides alternating per round after warm-ups; medians and the ratio moraine / baseline are printed.
 */
public final class SparkWritesBench
{
    private static final String COLUMNS = "id BIGINT, k INT, price DOUBLE, category STRING, day DATE";

    private final SparkSession spark;
    private final Map<String, String> options;
    private final Path work;
    private final long rows;
    private final int warmups;
    private final int runs;

    private SparkWritesBench(SparkSession spark, Map<String, String> options)
    {
        this.spark = spark;
        this.options = options;
        this.work = Path.of(required(options, "work"));
        this.rows = Long.parseLong(required(options, "rows"));
        this.warmups = Integer.parseInt(options.getOrDefault("warmups", "1"));
        this.runs = Integer.parseInt(options.getOrDefault("runs", "3"));
    }

    public static void main(String[] args)
            throws Exception
    {
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            options.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        SparkSession spark = SparkSession.builder().getOrCreate();
        SparkWritesBench bench = new SparkWritesBench(spark, options);
        List<String> parts = Arrays.asList(options.getOrDefault("parts", "append,merge,stream").split(","));
        long started = System.nanoTime();
        if (parts.contains("append")) {
            bench.append();
            System.out.printf("  (append part done after %.0f s)%n", (System.nanoTime() - started) / 1e9);
        }
        if (parts.contains("merge")) {
            bench.merge(options.getOrDefault("delta-version", ""));
            System.out.printf("  (MERGE part done after %.0f s)%n", (System.nanoTime() - started) / 1e9);
        }
        if (parts.contains("stream")) {
            bench.stream(Integer.parseInt(options.getOrDefault("stream-seconds", "30")), Integer.parseInt(options.getOrDefault("stream-rows", "100")));
            System.out.printf("  (streaming part done after %.0f s)%n", (System.nanoTime() - started) / 1e9);
        }
        spark.stop();
    }

    /** The rows every write writes: two tasks (the two cores), the columns of {@code bench spark}'s lake. */
    private Dataset<Row> source()
    {
        return spark.range(0, rows, 1, 2).selectExpr(
                "id",
                "CAST((id * 37) % 1000 AS INT) AS k",
                "CAST(((id * 13) % 10007) * 0.37 AS DOUBLE) AS price",
                "concat('category-', id % 8) AS category",
                "date_add(DATE '2020-01-01', CAST(id % 2000 AS INT)) AS day");
    }

    private void append()
            throws IOException
    {
        Dataset<Row> source = source();
        List<Double> moraine = new ArrayList<>();
        List<Double> parquet = new ArrayList<>();
        for (int round = 0; round < warmups + runs; round++) {
            String table = "lake.main.append_" + round;
            String rowGroupRows = options.getOrDefault("row-group-rows", "");
            spark.sql("CREATE TABLE " + table + " (" + COLUMNS + ")"
                    + (rowGroupRows.isEmpty() ? "" : " TBLPROPERTIES ('parquet_row_group_size' = '" + rowGroupRows + "')"));
            Path directory = work.resolve("parquet-" + round);
            boolean moraineFirst = round % 2 == 0;
            double first = moraineFirst ? time(() -> appendTo(source, table)) : time(() -> source.write().parquet(directory.toString()));
            double second = moraineFirst ? time(() -> source.write().parquet(directory.toString())) : time(() -> appendTo(source, table));
            if (round >= warmups) {
                moraine.add(moraineFirst ? first : second);
                parquet.add(moraineFirst ? second : first);
            }
            long count = spark.sql("SELECT count(*) FROM " + table).first().getLong(0);
            if (count != rows) {
                throw new IllegalStateException(table + " has " + count + " rows after the append, expected " + rows);
            }
            if (round + 1 < warmups + runs) {
                spark.sql("DROP TABLE " + table);
            }
            deleteRecursively(directory);
        }
        double m = median(moraine);
        double p = median(parquet);
        System.out.printf("append %,d rows (2 tasks, moraine row groups of %s rows), median of %d: df.write.parquet %,.0f ms (baseline), moraine writeTo.append %,.0f ms, "
                + "moraine / Parquet %.2fx (goal <= 1.1x), median of the rounds' ratios %.2fx; runs moraine %s, Parquet %s%n", rows,
                options.getOrDefault("row-group-rows", "122,880 (DuckLake's default)"), runs, p, m, m / p, medianRatio(moraine, parquet), rounded(moraine),
                rounded(parquet));
    }

    private static void appendTo(Dataset<Row> source, String table)
    {
        try {
            source.writeTo(table).append();
        }
        catch (org.apache.spark.sql.catalyst.analysis.NoSuchTableException e) {
            throw new IllegalStateException(e);
        }
    }

    private void merge(String deltaVersion)
    {
        boolean delta = !deltaVersion.isEmpty();
        String moraine = "lake.main.merge_target";
        spark.sql("CREATE TABLE " + moraine + " (" + COLUMNS + ")");
        appendTo(source(), moraine);
        String deltaTable = "delta.`" + work.resolve("delta-merge-target") + "`";
        if (delta) {
            spark.sql("CREATE TABLE " + deltaTable + " (" + COLUMNS + ") USING delta TBLPROPERTIES ('delta.enableDeletionVectors' = 'true')");
            source().write().format("delta").mode("append").save(work.resolve("delta-merge-target").toString());
        }
        long updated = (rows + 99) / 100;
        List<Double> moraineTimes = new ArrayList<>();
        List<Double> deltaTimes = new ArrayList<>();
        int rounds = warmups + runs;
        for (int round = 0; round < rounds; round++) {
            // A different hundredth of the ids each round: every round updates rows no earlier round did.
            spark.sql("SELECT id, CAST(-" + (round + 1) + " AS DOUBLE) AS price, 'updated-" + round + "' AS category FROM range(" + round + ", " + rows + ", 100)")
                    .createOrReplaceTempView("merge_source");
            String statement = "MERGE INTO %s t USING merge_source s ON t.id = s.id WHEN MATCHED THEN UPDATE SET price = s.price, category = s.category";
            boolean moraineFirst = round % 2 == 0 || !delta;
            double first = time(() -> spark.sql(statement.formatted(moraineFirst ? moraine : deltaTable)));
            double second = delta ? time(() -> spark.sql(statement.formatted(moraineFirst ? deltaTable : moraine))) : 0;
            if (round >= warmups) {
                moraineTimes.add(moraineFirst ? first : second);
                deltaTimes.add(moraineFirst ? second : first);
            }
        }
        String check = "SELECT count(*), count_if(category LIKE 'updated-%%') FROM %s";
        Row moraineCounts = spark.sql(check.formatted(moraine)).first();
        if (moraineCounts.getLong(0) != rows || moraineCounts.getLong(1) < updated * (rounds - 1)) {
            throw new IllegalStateException(moraine + " holds " + moraineCounts + " (rows, updated rows) after " + rounds + " MERGEs of " + updated + " rows each");
        }
        double m = median(moraineTimes);
        if (!delta) {
            System.out.printf("MERGE INTO updating 1%% (%,d of %,d rows), median of %d: moraine %,.0f ms (no baseline: Delta Lake's jars were not given); runs %s%n",
                    updated, rows, runs, m, rounded(moraineTimes));
            return;
        }
        Row deltaCounts = spark.sql(check.formatted(deltaTable)).first();
        if (!deltaCounts.equals(moraineCounts)) {
            throw new IllegalStateException("after the MERGEs Delta holds " + deltaCounts + " (rows, updated rows), moraine " + moraineCounts);
        }
        double d = median(deltaTimes);
        System.out.printf("MERGE INTO updating 1%% (%,d of %,d rows, every 100th id), median of %d: Delta Lake %s with deletion vectors %,.0f ms (baseline), "
                        + "moraine %,.0f ms, moraine / Delta %.2fx (goal <= 1.0x), median of the rounds' ratios %.2fx; runs moraine %s, Delta %s%n",
                updated, rows, runs, deltaVersion, d, m, m / d, medianRatio(moraineTimes, deltaTimes), rounded(moraineTimes), rounded(deltaTimes));
    }

    private void stream(int seconds, int rowsPerBatch)
            throws Exception
    {
        spark.conf().set("spark.sql.streaming.numRecentProgressUpdates", "100000");
        String store = required(options, "store");
        Path data = Path.of(required(options, "data"));
        System.out.printf("streaming: rate-micro-batch source, %d rows a micro-batch in 2 partitions, %d s per run%n", rowsPerBatch, seconds);
        for (String trigger : List.of("1 second", "0 (as fast as Spark runs batches)")) {
            Trigger sparkTrigger = trigger.startsWith("1") ? Trigger.ProcessingTime("1 second") : Trigger.ProcessingTime(0);
            String table = trigger.startsWith("1") ? "events_1s" : "events_asap";
            spark.sql("CREATE TABLE lake.main." + table + " (ts TIMESTAMP, value BIGINT) TBLPROPERTIES ('data_inlining_row_limit' = '" + rowsPerBatch + "')");
            StreamRun moraine = runStream(sparkTrigger, seconds, rowsPerBatch, query -> query.format("moraine").option("store", store), "main." + table);
            long rowsWritten = spark.sql("SELECT count(*) FROM lake.main." + table).first().getLong(0);
            long fileRows = spark.sql("SELECT count(*) FROM lake.main." + table + " WHERE _file IS NOT NULL").first().getLong(0);
            long files = parquetFiles(data.resolve("main").resolve(table));
            // stopping the query may interrupt a batch after moraine committed it and before Spark reported its progress
            if (rowsWritten < moraine.rows() || rowsWritten > moraine.rows() + rowsPerBatch) {
                throw new IllegalStateException("lake.main." + table + " holds " + rowsWritten + " rows, the stream reported " + moraine.rows());
            }
            StreamRun floor = runStream(sparkTrigger, seconds, rowsPerBatch, query -> query.format("noop"), null);
            System.out.printf("  trigger %s: moraine %d commits (%,d rows) in %.1f s = %.1f commits/s sustained, %d Parquet files, %,d rows in files "
                            + "(goals: >= 20 commits/s, 0 files); noop sink (Spark's own per-batch floor) %.1f batches/s; moraine / noop %.2fx%n",
                    trigger, moraine.batches(), moraine.rows(), moraine.seconds(), moraine.perSecond(), files, fileRows, floor.perSecond(),
                    moraine.perSecond() / floor.perSecond());
            System.out.printf("    moraine batch durations (median ms): %s; noop: %s%n", moraine.durations(), floor.durations());
        }
    }

    private record StreamRun(long batches, long rows, double seconds, Map<String, Long> durations)
    {
        /** Batches per second from the first batch's start to the last's start, after the first (which plans and compiles). */
        double perSecond()
        {
            return batches <= 1 ? 0 : (batches - 1) / seconds;
        }
    }

    private interface SinkSettings
    {
        org.apache.spark.sql.streaming.DataStreamWriter<Row> apply(org.apache.spark.sql.streaming.DataStreamWriter<Row> writer);
    }

    private StreamRun runStream(Trigger trigger, int seconds, int rowsPerBatch, SinkSettings sink, String table)
            throws TimeoutException, InterruptedException, org.apache.spark.sql.streaming.StreamingQueryException
    {
        Dataset<Row> events = spark.readStream().format("rate-micro-batch")
                .option("rowsPerBatch", Integer.toString(rowsPerBatch))
                .option("numPartitions", "2")
                .load()
                .selectExpr("timestamp AS ts", "value");
        Path checkpoint = work.resolve("checkpoint-" + System.nanoTime());
        org.apache.spark.sql.streaming.DataStreamWriter<Row> writer = sink.apply(events.writeStream()
                .option("checkpointLocation", checkpoint.toString())
                .trigger(trigger));
        StreamingQuery query = table == null ? writer.start() : writer.start(table);
        Thread.sleep(seconds * 1000L);
        // stopped between batches where it can (a 1-second trigger idles between them)
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (query.status().isTriggerActive() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        query.stop();
        if (query.exception().isDefined()) {
            throw query.exception().get();
        }
        StreamingQueryProgress[] progress = Arrays.stream(query.recentProgress()).filter(p -> p.numInputRows() > 0).toArray(StreamingQueryProgress[]::new);
        if (progress.length < 2) {
            throw new IllegalStateException("the stream ran " + progress.length + " micro-batches in " + seconds + " s");
        }
        double span = (Instant.parse(progress[progress.length - 1].timestamp()).toEpochMilli() - Instant.parse(progress[0].timestamp()).toEpochMilli()) / 1000.0;
        long rowsWritten = Arrays.stream(progress).mapToLong(StreamingQueryProgress::numInputRows).sum();
        Map<String, Long> durations = new LinkedHashMap<>();
        for (String phase : List.of("triggerExecution", "addBatch", "queryPlanning", "walCommit", "commitOffsets", "latestOffset")) {
            List<Double> values = Arrays.stream(progress).skip(1).map(p -> p.durationMs().get(phase)).filter(v -> v != null).map(Long::doubleValue).toList();
            if (!values.isEmpty()) {
                durations.put(phase, Math.round(median(values)));
            }
        }
        return new StreamRun(progress.length, rowsWritten, span, durations);
    }

    private static long parquetFiles(Path directory)
            throws IOException
    {
        if (!Files.exists(directory)) {
            return 0;
        }
        try (Stream<Path> files = Files.walk(directory)) {
            return files.filter(file -> file.toString().endsWith(".parquet")).count();
        }
    }

    private static double time(Runnable action)
    {
        long started = System.nanoTime();
        action.run();
        return (System.nanoTime() - started) / 1e6;
    }

    private static String rounded(List<Double> values)
    {
        return values.stream().map(value -> String.format("%,.0f", value)).toList().toString();
    }

    /** The median of each round's ratio: the two sides of a round ran back to back, under the same load. */
    private static double medianRatio(List<Double> moraine, List<Double> baseline)
    {
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < moraine.size(); i++) {
            ratios.add(moraine.get(i) / baseline.get(i));
        }
        return median(ratios);
    }

    private static double median(List<Double> values)
    {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return sorted.length % 2 == 1 ? sorted[sorted.length / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
    }

    private static void deleteRecursively(Path directory)
    {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(file -> file.toFile().delete());
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String required(Map<String, String> options, String name)
    {
        String value = options.get(name);
        if (value == null) {
            throw new IllegalArgumentException("missing --" + name + " (given: " + Arrays.toString(options.keySet().toArray()) + ")");
        }
        return value;
    }
}
