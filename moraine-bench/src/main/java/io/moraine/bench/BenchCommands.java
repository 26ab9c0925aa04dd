package io.moraine.bench;

import io.moraine.bench.trial.TrialCommand;
import io.moraine.cli.Command;
import io.moraine.cli.CommandProvider;

import java.util.Arrays;
import java.util.Map;

/** {@code bin/moraine bench} and {@code bin/moraine trial}, which bin/moraine runs with this module's class path. */
public final class BenchCommands
        implements CommandProvider
{
    @Override
    public Map<String, Command> commands()
    {
        return Map.of("bench", BenchCommands::bench, "trial", TrialCommand::run);
    }

    private static void bench(String[] args)
            throws Exception
    {
        String which = args.length == 0 ? "" : args[0];
        String[] rest = Arrays.copyOfRange(args, Math.min(1, args.length), args.length);
        switch (which) {
            case "catalog" -> CatalogBenchmark.main(rest);
            case "inline" -> InlineBenchmark.main(rest);
            case "trino" -> TrinoScanBenchmark.main(rest);
            case "row-id" -> RowIdLookupBenchmark.main(rest);
            case "rowsum" -> RowSummaryBenchmark.main(rest);
            case "rowsum-s3" -> RowIdS3LookupBenchmark.main(rest);
            case "tiny-files" -> TinyFilesBenchmark.main(rest);
            case "changes" -> ChangeFeedBenchmark.main(rest);
            case "duckdb" -> DuckDbAttachBenchmark.main(rest);
            case "ducklake" -> DuckLakeCommitBenchmark.main(rest);
            case "spark" -> SparkScanBenchmark.main(rest);
            case "spark-writes" -> SparkWritesBenchmark.main(rest);
            case "writes" -> WritesBenchmark.main(rest);
            default -> throw new IllegalArgumentException("which benchmark? bench catalog, inline, trino, row-id, rowsum, rowsum-s3, tiny-files, changes, duckdb, ducklake, spark, spark-writes or writes [...]");
        }
    }
}
