package io.moraine.cli;

import io.moraine.core.error.MoraineException;
import io.moraine.core.error.Secrets;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The commands of {@code bin/moraine}. */
public final class Main
{
    private record Entry(String summary, Command command) {}

    private static final Map<String, Entry> COMMANDS = new LinkedHashMap<>();

    static {
        COMMANDS.put("help", new Entry("list the commands, or show one command's options: help <command>", Main::help));
        COMMANDS.put("import", new Entry("copy a DuckLake catalog into a new moraine store: " + ImportCommand.USAGE, ImportCommand::run));
        COMMANDS.put("dump", new Entry("print a catalog table's rows as CSV: " + DumpCommand.USAGE, DumpCommand::run));
        COMMANDS.put("duckdb", new Entry("run SQL in DuckDB 1.5.5 with ducklake:moraine:<store> attached as lake (a new store becomes a new lake), print the last result as CSV: "
                + DuckDbCommand.USAGE, DuckDbCommand::run));
        COMMANDS.put("cat", new Entry("print a table's rows at a snapshot as CSV, read without an engine: " + CatCommand.USAGE, CatCommand::run));
        COMMANDS.put("verify", new Entry("check a store's invariants without changing it, print each problem and a summary (exit 1 on problems): "
                + VerifyCommand.USAGE, VerifyCommand::run));
        COMMANDS.put("flush", new Entry("write inlined rows to Parquet and drain them, like ducklake_flush_inlined_data: " + FlushCommand.USAGE,
                FlushCommand::run));
        COMMANDS.put("rowsum", new Entry("publish, sweep or report the lake's .rowsum row summaries (RFC 0023): "
                + io.moraine.cli.rowsum.RowSummaryCommands.USAGE, io.moraine.cli.rowsum.RowSummaryCommands::run));
        COMMANDS.put("tiny-files", new Entry("keep copies of the lake's tiny files in the catalog, report them, sweep orphans, set the threshold (docs/tiny-files.md): "
                + TinyFileCommands.USAGE, TinyFileCommands::run));
        COMMANDS.put("trial", new Entry("kill a committing child process again and again, check that no acknowledged commit is lost and none is partial: "
                + HostedCommands.TRIAL_USAGE, HostedCommands.of("trial")));
        COMMANDS.put("demo", new Entry("the demo: DuckDB writes a lake through ducklake:moraine: into a local store, a local Trino serves it (and Spark reads it): "
                + HostedCommands.DEMO_USAGE, HostedCommands.of("demo")));
        COMMANDS.put("trino", new Entry("start a local Trino with catalog 'lake' on a store: " + HostedCommands.TRINO_USAGE, HostedCommands.of("trino")));
        COMMANDS.put("trino-query", new Entry("run one statement in a Trino server and print CSV: " + HostedCommands.TRINO_QUERY_USAGE,
                HostedCommands.of("trino-query")));
        COMMANDS.put("spark-sql", new Entry("run one statement in a local Spark (spark-submit with the bundle jar) and print CSV: "
                + HostedCommands.SPARK_SQL_USAGE, HostedCommands.of("spark-sql")));
        COMMANDS.put("bench", new Entry("run a benchmark: bench catalog [--snapshots N] [--files-per-snapshot N] [--commits N] | bench inline [--rows N] [--chunk-rows N] [--commits N] [--writers N] [--repetitions N] [--warmup-seconds N] [--s3proxy] | "
                + HostedCommands.BENCH_TRINO_USAGE + " (moraine vs Trino's Hive connector on the same Parquet files) | "
                + HostedCommands.BENCH_ROW_ID_USAGE + " | "
                + HostedCommands.BENCH_ROWSUM_USAGE + " (a .rowsum sidecar vs deriving from the row-id column) | "
                + HostedCommands.BENCH_ROWSUM_S3_USAGE + " (a $row_id lookup over files on S3, sidecars vs row-id columns) | "
                + HostedCommands.BENCH_TINY_FILES_USAGE + " (a count over many tiny files on S3, catalog copies vs the files) | "
                + HostedCommands.BENCH_CHANGES_USAGE + " (a fixed change feed on a table at 1x and 10x its files) | "
                + HostedCommands.BENCH_DUCKDB_USAGE + " (the standalone DuckDB attach vs a DuckDB-file catalog) | "
                + HostedCommands.BENCH_DUCKLAKE_USAGE + " (DuckLake commits and planning on moraine vs DuckDB-file and PostgreSQL catalogs) | "
                + HostedCommands.BENCH_SPARK_USAGE + " (the Spark connector vs Spark's Parquet source on the same files) | "
                + HostedCommands.BENCH_SPARK_WRITES_USAGE + " (Spark appends vs df.write.parquet, MERGE vs Delta Lake, streaming commits/s)",
                HostedCommands.of("bench")));
    }

    private Main() {}

    public static void main(String[] args)
    {
        QuietLogging.install();
        int status = run(args);
        if (status != 0) {
            System.exit(status);
        }
    }

    /**
     * Runs one command and returns its exit status: 0 done, 1 failed, 2 usage error. Errors are printed to standard
     * error with credential values masked ({@link Secrets}).
     */
    public static int run(String[] args)
    {
        String name = args.length == 0 ? "help" : args[0];
        Entry entry = COMMANDS.get(name);
        if (entry == null) {
            System.err.println("unknown command '" + name + "'");
            listCommands(System.err);
            return 2;
        }
        String[] rest = Arrays.copyOfRange(args, Math.min(1, args.length), args.length);
        if (Arrays.asList(rest).contains("--help") || Arrays.asList(rest).contains("-h")) {
            System.out.print(commandHelp(name));
            return 0;
        }
        try {
            entry.command().run(rest);
            return 0;
        }
        catch (MoraineException e) {
            System.err.println(Secrets.redact("moraine " + name + ": " + e.code() + ": " + e.getMessage()));
            return 1;
        }
        catch (IllegalArgumentException e) {
            System.err.println(Secrets.redact("moraine " + name + ": " + e.getMessage()));
            System.err.println("(bin/moraine " + name + " --help shows its options)");
            return 2;
        }
        catch (CommandFailure e) {
            System.err.println(Secrets.redact("moraine " + name + ": " + e.getMessage()));
            return 1;
        }
        catch (Exception e) {
            StringWriter trace = new StringWriter();
            e.printStackTrace(new PrintWriter(trace));
            System.err.println(Secrets.redact("moraine " + name + " failed: " + e));
            System.err.print(Secrets.redact(trace.toString()));
            return 1;
        }
    }

    /** The command names, in the order help lists them. */
    static Set<String> commandNames()
    {
        return Collections.unmodifiableSet(COMMANDS.keySet());
    }

    private static void help(String[] args)
    {
        if (args.length == 0) {
            listCommands(System.out);
            return;
        }
        if (args.length > 1 || !COMMANDS.containsKey(args[0])) {
            throw new IllegalArgumentException("help takes one command name, one of " + COMMANDS.keySet() + "; not " + Arrays.toString(args));
        }
        System.out.print(commandHelp(args[0]));
    }

    private static void listCommands(PrintStream out)
    {
        out.println("usage: bin/moraine <command> [options]   (bin/moraine <command> --help shows a command's options)");
        COMMANDS.forEach((name, entry) -> out.printf("  %-11s %s%n", name, entry.summary()));
        out.println("exit status: 0 done, 1 failed, 2 usage error (unknown command or option, missing value)");
    }

    /** A command's summary, usage and options with their defaults, and the exit statuses. */
    private static String commandHelp(String name)
    {
        String summary = COMMANDS.get(name).summary();
        Optional<String> help = CommandHelp.of(name);
        // A summary ends in the command's usage, which the help repeats with every option explained.
        int usage = summary.indexOf(": " + name + " ");
        return (help.isPresent() && usage > 0 ? summary.substring(0, usage) : summary) + "\n"
                + help.orElse("")
                + "exit status: 0 done, 1 failed, 2 usage error (unknown option, missing value)\n";
    }
}
