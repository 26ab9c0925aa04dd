package io.moraine.launchers.spark;

import io.moraine.cli.CommandLine;
import io.moraine.cli.HostedCommands;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code bin/moraine spark-sql}: one statement in a local Spark (PyPI's pyspark, through its own spark-submit, with the
 * moraine bundle jar) with catalog {@code lake} on a store; prints the answer as CSV with a header line. Spark and
 * Trino do not share a class path, so Spark runs in its own process, as it would for a user.
 */
public final class SparkCommands
{
    private SparkCommands() {}

    public static void query(String[] args)
            throws Exception
    {
        CommandLine line = CommandLine.parse(args, Set.of("store", "data-path"));
        if (line.positional().size() != 1) {
            throw new IllegalArgumentException("give exactly one SQL statement, quoted: " + HostedCommands.SPARK_SQL_USAGE);
        }
        int exit = run(line.required("store"), line.option("data-path").orElse(null), line.positional().getFirst());
        if (exit != 0) {
            System.exit(exit);
        }
    }

    /** Runs {@code sql} through spark-submit, its CSV to this process's output; the exit status of spark-submit. */
    public static int run(String store, String dataPath, String sql)
            throws Exception
    {
        SparkSubmit spark = SparkSubmit.of(SparkSubmit.checkoutRoot());
        List<String> arguments = new ArrayList<>(List.of("--store", store));
        if (dataPath != null) {
            arguments.addAll(List.of("--data-path", dataPath));
        }
        arguments.add(sql);
        System.out.flush();
        return spark.java("io.moraine.spark.tools.SparkSql", spark.bundle(), Map.of(), arguments, Map.of()).inheritIO().start().waitFor();
    }
}
