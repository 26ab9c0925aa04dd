package io.moraine.spark.tools;

import io.moraine.spark.MoraineSparkCatalog;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.StructField;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Runs one SQL statement in Spark with catalog {@code lake} on a moraine store and prints the answer as CSV with a
 * header line, each value in Spark's own text for it ({@code CAST(value AS STRING)}; NULL is an empty field, an empty
 * string {@code ""}). Started by {@code spark-submit --class io.moraine.spark.tools.SparkSql
 * moraine-spark-bundle-<version>.jar --store <uri> "<sql>"} (what {@code bin/moraine spark-sql} does); a session
 * without a master runs {@code local[*]}.
 */
public final class SparkSql
{
    public static final String USAGE = "spark-sql --store <store-uri> [--data-path <dir>] \"<sql>\"";

    private SparkSql() {}

    public static void main(String[] args)
    {
        String store = null;
        String dataPath = null;
        List<String> statements = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--store" -> store = value(args, ++i);
                case "--data-path" -> dataPath = value(args, ++i);
                default -> statements.add(args[i]);
            }
        }
        if (store == null || statements.size() != 1) {
            System.err.println("usage: " + USAGE + (store == null ? " (no --store given)" : " (give exactly one statement, quoted)"));
            System.exit(2);
        }
        SparkSession.Builder builder = SparkSession.builder()
                .appName("moraine spark-sql")
                .config("spark.sql.catalog.lake", MoraineSparkCatalog.class.getName())
                .config("spark.sql.catalog.lake.store", store)
                .config("spark.ui.enabled", "false");
        if (dataPath != null) {
            builder.config("spark.sql.catalog.lake.data-path", dataPath);
        }
        if (!new org.apache.spark.SparkConf().contains("spark.master")) {
            builder.master("local[*]");
        }
        SparkSession spark = builder.getOrCreate();
        try {
            print(spark.sql(statements.getFirst()), new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true, StandardCharsets.UTF_8));
        }
        finally {
            spark.stop();
        }
    }

    static void print(Dataset<Row> answer, PrintStream out)
    {
        StructField[] fields = answer.schema().fields();
        out.print(line(Arrays.stream(fields).map(StructField::name).toList()));
        Column[] asText = Arrays.stream(fields).map(field -> functions.col("`" + field.name().replace("`", "``") + "`").cast("string")).toArray(Column[]::new);
        for (Row row : answer.select(asText).collectAsList()) {
            List<String> values = new ArrayList<>(fields.length);
            for (int i = 0; i < fields.length; i++) {
                values.add(row.isNullAt(i) ? null : row.getString(i));
            }
            out.print(line(values));
        }
        out.flush();
    }

    /** One CSV line (RFC 4180): a field with a comma, quote or line break is quoted, and so is an empty string. */
    static String line(List<String> fields)
    {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < fields.size(); i++) {
            if (i > 0) {
                line.append(',');
            }
            String text = fields.get(i);
            if (text != null) {
                boolean quote = text.isEmpty() || text.chars().anyMatch(c -> c == ',' || c == '"' || c == '\n' || c == '\r');
                line.append(quote ? '"' + text.replace("\"", "\"\"") + '"' : text);
            }
        }
        return line.append('\n').toString();
    }

    private static String value(String[] args, int index)
    {
        if (index >= args.length) {
            System.err.println("usage: " + USAGE + " (" + args[index - 1] + " needs a value)");
            System.exit(2);
        }
        return args[index];
    }
}
