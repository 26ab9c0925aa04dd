package io.moraine.cli;

import java.util.Map;
import java.util.ServiceLoader;

/**
 * The commands {@code bin/moraine} runs from other modules (engine-launchers: trino, trino-query, spark-sql, demo;
 * moraine-bench: trial, bench): the usages {@code help} prints for them, which this module owns with every other
 * command's help, and their code, found through {@link CommandProvider} when that module is on the class path.
 */
public final class HostedCommands
{
    public static final String TRIAL_USAGE = "trial crash|faults [--trials N] [--store file|s3] [--committers 1|8] [--writers 1|2] [--seed N] [--fault-rate 0.05] "
            + "[--store-timeout 3s] [--work <dir>]";
    public static final String DEMO_USAGE = "demo [--once] [--port 8080] [--dir <directory>]";
    public static final String TRINO_USAGE = "trino --store <store-uri> [--store-timeout 30s] [--port 8080]";
    public static final String TRINO_QUERY_USAGE = "trino-query --store <store-uri> [--store-timeout 30s] \"<sql>\"";
    public static final String SPARK_SQL_USAGE = "spark-sql --store <store-uri> [--data-path <dir>] \"<sql>\"";

    public static final String BENCH_TRINO_USAGE = "bench trino [--rows 4000000] [--files 8] [--runs 5] [--warmups 2] [--queries 1,2,..] [--planning-files 10000 (0: skip)]"
            + " [--planning-runs 3] [--dir <directory>] [--stats]";
    public static final String BENCH_ROW_ID_USAGE = "bench row-id [--files 200] [--rows-per-file 20000] [--runs 5] [--warmups 2] [--dir <directory>]";
    public static final String BENCH_ROWSUM_USAGE = "bench rowsum [--ids 1000000] [--range 10000000] [--runs 5] [--warmups 2] [--dir <directory>]";
    public static final String BENCH_ROWSUM_S3_USAGE = "bench rowsum-s3 [--files 300] [--rows-per-file 20000] [--spread 10] [--lookups 9] [--dir <directory>]";
    public static final String BENCH_TINY_FILES_USAGE = "bench tiny-files [--files 5000] [--runs 5] [--dir <directory>]";
    public static final String BENCH_CHANGES_USAGE = "bench changes [--files N] [--scale N] [--rows-per-file N] [--repetitions N] [--planning-files N (0: skip)]";
    public static final String BENCH_DUCKDB_USAGE = "bench duckdb [--rows N] [--repetitions N] [--warmup-seconds N] [--threads N]";
    public static final String BENCH_DUCKLAKE_USAGE = "bench ducklake [--commits N] [--rounds N] [--warmup-seconds N] [--files N] [--repetitions N] [--skip-s3] [--skip-postgres]";
    public static final String BENCH_SPARK_USAGE = "bench spark [--rows 8000000] [--files 32] [--inlined-rows 20000] [--runs 5] [--warmups 3] [--dir <directory>]";
    public static final String BENCH_SPARK_WRITES_USAGE = "bench spark-writes [--rows 8000000] [--runs 3] [--warmups 1] [--stream-seconds 30] [--stream-rows 100]"
            + " [--parts append,merge,stream] [--row-group-rows N] [--dir <directory>]";

    /** Each hosted command and the module that holds its code. */
    private static final Map<String, String> MODULES = Map.of(
            "trial", "moraine-bench",
            "bench", "moraine-bench",
            "demo", "engine-launchers",
            "trino", "engine-launchers",
            "trino-query", "engine-launchers",
            "spark-sql", "engine-launchers");

    private HostedCommands() {}

    /** A command that runs the hosted command {@code name}, or fails saying which module's class path it needs. */
    static Command of(String name)
    {
        if (!MODULES.containsKey(name)) {
            throw new IllegalArgumentException("not a hosted command: " + name);
        }
        return args -> find(name).run(args);
    }

    private static Command find(String name)
    {
        for (CommandProvider provider : ServiceLoader.load(CommandProvider.class)) {
            Command command = provider.commands().get(name);
            if (command != null) {
                return command;
            }
        }
        throw new CommandFailure("this command's code is in module " + MODULES.get(name) + ", which is not on this class path; "
                + "run it as bin/moraine " + name + " (which uses " + MODULES.get(name) + "/target/classpath.txt; make build writes it)");
    }
}
