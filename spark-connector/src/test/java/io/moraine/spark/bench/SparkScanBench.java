package io.moraine.spark.bench;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Spark side of {@code bin/moraine bench spark}, run by spark-submit with the bundle jar: in one session, the same
 * Parquet files read through the moraine connector ({@code lake.main.scan}) and through Spark's built-in Parquet source
 * ({@code spark.read().parquet(dir)}), with equal task layout (one task per file on both sides: the connector plans a
 * partition per file, and {@code spark.sql.files.maxPartitionBytes = openCostInBytes = 1g} makes Spark's file source do
 * the same). Iceberg's method: each measurement is one execution (single-shot), after 3 warm-ups, 5 measured, the order
 * of the two sources alternating per round; medians and ratios printed. Then the inlined table's scan in rows/s.
 */
public final class SparkScanBench
{
    private record Query(String name, String sql, boolean noop) {}

    private SparkScanBench() {}

    public static void main(String[] args)
    {
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            options.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        String data = required(options, "data");
        long lowId = Long.parseLong(required(options, "low-id"));
        long highId = Long.parseLong(required(options, "high-id"));
        long inlinedRows = Long.parseLong(required(options, "inlined-rows"));
        int warmups = Integer.parseInt(options.getOrDefault("warmups", "3"));
        int runs = Integer.parseInt(options.getOrDefault("runs", "5"));

        SparkSession spark = SparkSession.builder().getOrCreate();
        spark.conf().set("spark.sql.files.maxPartitionBytes", "1g");
        spark.conf().set("spark.sql.files.openCostInBytes", "1g");
        spark.read().parquet(data).createOrReplaceTempView("builtin");

        List<Query> queries = List.of(
                new Query("full scan, all columns -> noop", "SELECT * FROM %s", true),
                // Exact aggregates (no floating-point sums, whose last digits depend on the order of the tasks), so both answers compare.
                new Query("sum(k), max(price), count(category)", "SELECT sum(k), max(price), count(category) FROM %s", false),
                new Query("selective id range (1 of the files)", "SELECT count(*), sum(k), max(price) FROM %s WHERE id BETWEEN " + lowId + " AND " + highId, false));
        System.out.printf("%-40s %12s %12s %9s%n", "query (median of " + runs + ", ms)", "built-in", "moraine", "ratio");
        double product = 1;
        for (Query query : queries) {
            String builtin = query.sql().formatted("builtin");
            String moraine = query.sql().formatted("lake.main.scan");
            check(spark, query, builtin, moraine);
            List<Double> builtinTimes = new ArrayList<>();
            List<Double> moraineTimes = new ArrayList<>();
            for (int round = 0; round < warmups + runs; round++) {
                boolean builtinFirst = round % 2 == 0;
                double first = time(() -> run(spark, builtinFirst ? builtin : moraine, query.noop()));
                double second = time(() -> run(spark, builtinFirst ? moraine : builtin, query.noop()));
                if (round >= warmups) {
                    builtinTimes.add(builtinFirst ? first : second);
                    moraineTimes.add(builtinFirst ? second : first);
                }
            }
            double b = median(builtinTimes);
            double m = median(moraineTimes);
            product *= m / b;
            System.out.printf("%-40s %12.0f %12.0f %8.2fx%n", query.name(), b, m, m / b);
        }
        System.out.printf("%-40s %34.2fx%n", "geometric mean moraine / built-in", Math.pow(product, 1.0 / queries.size()));

        String inlined = "SELECT * FROM lake.main.inlined";
        long counted = spark.sql("SELECT count(*) FROM (" + inlined + ")").first().getLong(0);
        if (counted != inlinedRows) {
            throw new IllegalStateException("lake.main.inlined has " + counted + " rows, expected " + inlinedRows);
        }
        List<Double> times = new ArrayList<>();
        for (int round = 0; round < warmups + runs; round++) {
            double elapsed = time(() -> run(spark, inlined, true));
            if (round >= warmups) {
                times.add(elapsed);
            }
        }
        double ms = median(times);
        System.out.printf("inlined rows, full scan -> noop: %,d rows in %.0f ms = %,.0f rows/s (median of %d)%n", inlinedRows, ms, inlinedRows / (ms / 1000), runs);
        spark.stop();
    }

    /** Both sources give the same answer (the full scan: the same row count) before anything is timed. */
    private static void check(SparkSession spark, Query query, String builtin, String moraine)
    {
        if (query.noop()) {
            long b = spark.sql("SELECT count(*) FROM (" + builtin + ")").first().getLong(0);
            long m = spark.sql("SELECT count(*) FROM (" + moraine + ")").first().getLong(0);
            if (b != m) {
                throw new IllegalStateException(query.name() + ": built-in counts " + b + " rows, moraine " + m);
            }
            return;
        }
        List<Row> b = spark.sql(builtin).collectAsList();
        List<Row> m = spark.sql(moraine).collectAsList();
        if (!b.equals(m)) {
            throw new IllegalStateException(query.name() + ": built-in answers " + b + ", moraine " + m);
        }
    }

    private static void run(SparkSession spark, String sql, boolean noop)
    {
        Dataset<Row> answer = spark.sql(sql);
        if (noop) {
            answer.write().format("noop").mode("overwrite").save();
        }
        else {
            answer.collectAsList();
        }
    }

    private static double time(Runnable action)
    {
        long started = System.nanoTime();
        action.run();
        return (System.nanoTime() - started) / 1e6;
    }

    private static double median(List<Double> values)
    {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return sorted.length % 2 == 1 ? sorted[sorted.length / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
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
