package io.moraine.cli;

import java.util.Map;
import java.util.Optional;

import static java.util.Map.entry;

/**
 * What {@code bin/moraine <command> --help} prints after the command's summary: its usage and every option with its
 * default. docs/commands.md holds the same table; a command without an entry here shows its summary alone.
 */
final class CommandHelp
{
    private static final String STORE = "  --store <store-uri>       the store: a local path, file://<path>, memory://<name> or s3://<bucket>[/<prefix>]\n"
            + "                            (S3 settings from AWS_ENDPOINT, AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, ...)\n";
    private static final String EXISTING_STORE = STORE
            + "                            it must exist: a missing store is refused and nothing is written there\n";
    private static final String STORE_TIMEOUT = "  --store-timeout <time>    give up on a store open or read after this long: 30s, 500ms, 2m (default 30s)\n";

    private static final Map<String, String> TEXTS = Map.ofEntries(
            entry("help", """
                    usage: bin/moraine help [<command>]
                      lists the commands, or shows one command's help (as bin/moraine <command> --help does)
                    """),
            entry("import", "usage: bin/moraine " + ImportCommand.USAGE + "\n"
                    + "  --source ducklake:<catalog> the DuckLake 1.0 catalog to copy: ducklake:<file.ducklake>, ducklake:sqlite:<file>,\n"
                    + "                            ducklake:postgres:<libpq connection string> (required)\n"
                    + STORE.replace("the store:", "the new store:")
                    + "                            it must be empty: import is the one command that creates a store\n"
                    + STORE_TIMEOUT
                    + "  --data-path <path>        the lake's data path in the new store (default: the source catalog's)\n"),
            entry("dump", "usage: bin/moraine " + DumpCommand.USAGE + "\n"
                    + EXISTING_STORE + STORE_TIMEOUT
                    + "  --table <table>           a catalog table: ducklake_<name>, ducklake_inlined_data_<table id>_<schema version>\n"
                    + "                            or ducklake_inlined_delete_<table id> (required)\n"
                    + "  --format csv              the output format (default csv, the only one)\n"),
            entry("cat", "usage: bin/moraine " + CatCommand.USAGE + "\n"
                    + "  <schema>.<table>          the table to print (required)\n"
                    + EXISTING_STORE + STORE_TIMEOUT
                    + "  --snapshot <id>           the snapshot to read (default: the newest)\n"
                    + "  --data-path <path>        read data files from here instead of the catalog's data path (default: the catalog's)\n"),
            entry("verify", "usage: bin/moraine " + VerifyCommand.USAGE + "\n"
                    + EXISTING_STORE + STORE_TIMEOUT
                    + "  --check-files             also check that every referenced file exists (default: off)\n"
                    + "  --data-path <path>        look for the files here instead of the catalog's data path (default: the catalog's)\n"
                    + "  --checkpoint <id>         verify the store as it was at this checkpoint (default: its newest state)\n"
                    + "  --repair                  first remove the inline records of tables no snapshot sees (INLINE_ORPHAN), in one\n"
                    + "                            commit that adds no snapshot; nothing else is changed (default: change nothing)\n"
                    + "  exit status 1 when the store breaks an invariant (each problem printed on one line)\n"),
            entry("flush", "usage: bin/moraine " + FlushCommand.USAGE + "\n"
                    + EXISTING_STORE + STORE_TIMEOUT
                    + "  --table <schema>.<table>  flush only this table (default: every table with inlined rows)\n"
                    + "  flush opens the store as its one writer: a process writing to it (a read-write DuckDB attach) is fenced\n"),
            entry("duckdb", "usage: bin/moraine " + DuckDbCommand.USAGE + "\n"
                    + "  \"<sql>[; <sql>...]\"       statements run in order with the lake attached as 'lake'; the last one's result prints (required)\n"
                    + STORE.replace("the store:", "the lake's store:")
                    + "                            a store that holds no lake becomes a new lake (read-write only; needs --data-path)\n"
                    + STORE_TIMEOUT.replace("(default 30s)", "(META_STORE_TIMEOUT; default 30s)")
                    + "  --data-path <path>        the data path of a new lake (default: an existing lake's own)\n"
                    + "  --mode <mode>             read-write (the store's one writer; fences another) or read-only (default: DuckDB's:\n"
                    + "                            read-write, but read-only for an s3:// store)\n"
                    + "  --checkpoint <id>         read the lake as it was at this checkpoint (implies read-only)\n"),
            entry("trino", "usage: bin/moraine " + HostedCommands.TRINO_USAGE + "\n"
                    + EXISTING_STORE + STORE_TIMEOUT.replace("a store open or read", "a store open or read (moraine.store-timeout)")
                    + "  --port <port>             the HTTP port Trino listens on (default 8080)\n"
                    + "  serves until Ctrl-C\n"),
            entry("trino-query", "usage: bin/moraine " + HostedCommands.TRINO_QUERY_USAGE + "\n"
                    + "  \"<sql>\"                   one statement; catalog 'lake' is the store (required)\n"
                    + EXISTING_STORE + STORE_TIMEOUT),
            entry("spark-sql", "usage: bin/moraine " + HostedCommands.SPARK_SQL_USAGE + "\n"
                    + "  \"<sql>\"                   one statement; catalog 'lake' is the store (required)\n"
                    + EXISTING_STORE
                    + "  --data-path <path>        read data files from here instead of the catalog's data path (default: the catalog's)\n"),
            entry("rowsum", "usage: bin/moraine " + io.moraine.cli.rowsum.RowSummaryCommands.USAGE + "\n"
                    + "  publish                   write the .rowsum sidecar of every data file that embeds row ids and has none yet\n"
                    + "                            (a backfill: one header read per file already published)\n"
                    + "  sweep                     one listing of the data path; deletes every .rowsum whose data file it did not find\n"
                    + "  status                    counts of dense, published, missing and unusable summaries, and the read metrics\n"
                    + EXISTING_STORE + STORE_TIMEOUT
                    + "  --since <snapshot>        publish only files registered after this snapshot (default: every file; needs --table)\n"
                    + "  --table <schema>.<table>  with --since: the tables to publish for, comma-separated (default: none)\n"
                    + "  --concurrency <n>         files published at once (default 4)\n"
                    + "  --attempts <n>            tries per file, backing off from 1 s to 1 min (default 4)\n"
                    + "  --data-path <path>        the lake's data path (default: the catalog's)\n"),
            entry("tiny-files", "usage: bin/moraine " + TinyFileCommands.USAGE + "\n"
                    + "  publish                   copy every current data and delete file of at most the threshold that has no copy yet\n"
                    + "                            into the catalog (one read per file, one store batch per 256 files or 4 MB)\n"
                    + "  status                    copies, their bytes and their share of the catalog (read-only: fences no writer)\n"
                    + "  sweep                     delete copies whose file has no row any more\n"
                    + "  configure                 set the store's threshold\n"
                    + EXISTING_STORE + STORE_TIMEOUT
                    + "  --threshold-bytes <n>     with publish or configure: set tiny_file_threshold_bytes first; 0 turns copying off (default: the store's, 4096)\n"
                    + "  --table <schema>.<table>  with publish: only these tables, comma-separated (default: every table)\n"
                    + "  --concurrency <n>         with publish: files read at once (default 4)\n"
                    + "  --data-path <path>        with publish: the lake's data path (default: the catalog's)\n"
                    + "  publish, sweep and configure open the store as its one writer: a DuckDB attached READ_WRITE is fenced\n"),
            entry("trial", "usage: bin/moraine " + HostedCommands.TRIAL_USAGE + "\n"
                    + "  crash                     SIGKILL a committing child at random and at aimed points; check every acknowledged commit\n"
                    + "  faults                    the same through a proxy injecting resets, 500/503s, stalls and truncated bodies (S3)\n"
                    + "  --trials <n>              how many children to kill (default 10)\n"
                    + "  --store file|s3           where the trial store lives: a local directory or a local S3Proxy (default file; s3 for faults)\n"
                    + "  --committers 1|8          committing threads in each child (default: alternate 1 and 8)\n"
                    + "  --writers 1|2             with crash: 2 runs a JVM committing through the write API and a DuckDB process, both\n"
                    + "                            handing the writer over, and kills either (default 1)\n"
                    + "  --seed <n>                the random seed of kills and faults (default: the clock)\n"
                    + "  --fault-rate <fraction>   with faults: the share of requests given a fault (default 0.05)\n"
                    + "  --store-timeout <time>    the children's store timeout (default 3s)\n"
                    + "  --work <dir>              where stores, logs and data files go (default: a new temporary directory)\n"
                    + "  exit status 1 when a commit was lost or partly visible, or a check failed\n"),
            entry("demo", "usage: bin/moraine " + HostedCommands.DEMO_USAGE + "\n"
                    + "  --once                    run the demo's queries and stop (default: keep serving until Ctrl-C)\n"
                    + "  --port <port>             Trino's HTTP port (default 8080; any free port with --once)\n"
                    + "  --dir <directory>         where the demo lake is written, emptied first (default <java.io.tmpdir>/moraine-demo)\n"),
            entry("bench", """
                    usage: bin/moraine bench <benchmark> [options]; figures are ratios against a baseline measured in the same run
                      catalog   [--snapshots 1000] [--files-per-snapshot 10] [--commits 200] [--repetitions 50]
                      inline    [--rows 1000000] [--chunk-rows 1000] [--commits 1000] [--writers 8] [--repetitions 5]
                                [--warmup-seconds 10] [--s3proxy (default off: also commit on a local S3 server)]
                      trino     [--rows 4000000] [--files 8] [--runs 5] [--warmups 2] [--queries 1,2,.. (default all)]
                                [--planning-files 10000 (0: skip)] [--planning-runs 3] [--dir <directory> (default a temporary one)] [--stats]
                      row-id    [--files 200] [--rows-per-file 20000] [--runs 5] [--warmups 2] [--dir <directory>]
                      rowsum    [--ids 1000000] [--range 10000000] [--runs 5] [--warmups 2] [--dir <directory>]
                      rowsum-s3 [--files 300] [--rows-per-file 20000] [--spread 10] [--lookups 9] [--dir <directory>]
                      tiny-files [--files 5000] [--runs 5] [--dir <directory>]
                      changes   [--files 200] [--scale 10] [--rows-per-file 50] [--repetitions 31] [--planning-files 10000 (0: skip)]
                      duckdb    [--rows 10000] [--repetitions 15] [--warmup-seconds 3] [--threads N (default DuckDB's)]
                      ducklake  [--commits 40] [--files 10000] [--repetitions 9] [--skip-s3] [--skip-postgres]
                      spark     [--rows 8000000] [--files 32] [--inlined-rows 20000] [--runs 5] [--warmups 3] [--dir <directory>]
                      writes    [--commits 40] [--rounds 3] [--rows 1] [--skip-s3]
                                --handoff [--handoffs 20] [--solo-commits 50] [--work <directory>]
                    """));

    private CommandHelp() {}

    static Optional<String> of(String command)
    {
        return Optional.ofNullable(TEXTS.get(command));
    }
}
