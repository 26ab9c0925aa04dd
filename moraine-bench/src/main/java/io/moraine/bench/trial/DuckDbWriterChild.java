package io.moraine.bench.trial;

import io.moraine.cli.MoraineDuckDb;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Random;

/**
 * A writer of {@code bin/moraine trial crash --writers 2}: DuckDB (duckdb_jdbc, DuckLake and the moraine extension, in
 * this JVM) attached read-write to {@code ducklake:moraine:<store>} with {@code META_WRITER_MODE 'handoff'}, inserting
 * batches into {@code main.t} until it is killed: a few rows (DuckLake inlines them) or a data file's worth. It
 * announces {@code before-commit} before the INSERT and {@code after-commit-before-ack} after it returned, and
 * {@code before-write} from inside the extension's commit ({@link TrialCommitHook}); its acknowledgements name no
 * snapshot (DuckDB does not say which snapshot an INSERT made), the checker finds it by the batch's rows.
 */
public final class DuckDbWriterChild
{
    static final List<String> PHASES = List.of("before-commit", "before-write", "after-commit-before-ack");

    private DuckDbWriterChild() {}

    /** Args: as {@link CoreWriterChild}. */
    public static void main(String[] args)
            throws Exception
    {
        String store = args[0];
        String dataPath = args[1];
        Path logFile = Path.of(args[2]);
        long firstBatch = Long.parseLong(args[3]);
        Random random = new Random(Long.parseLong(args[4]));
        TrialChild.Announcer announcer = new TrialChild.Announcer(args[5]);
        String endpoint = args[7];
        TrialCommitHook.announcer = announcer;
        System.setProperty(TrialCommitHook.PROPERTY, TrialCommitHook.class.getName());
        try (TrialLog log = new TrialLog(logFile); Connection connection = MoraineDuckDb.openWithDuckLake(store); Statement statement = connection.createStatement()) {
            statement.execute("SET threads = 1");
            statement.execute("SET ducklake_max_retry_count = 100");
            String options = ", META_WRITER_MODE 'handoff'";
            if (!endpoint.equals("none")) {
                java.net.URI uri = java.net.URI.create(endpoint);
                statement.execute("CREATE SECRET trial_store (TYPE s3, KEY_ID " + MoraineDuckDb.quote(TrialStore.ACCESS_KEY) + ", SECRET "
                        + MoraineDuckDb.quote(TrialStore.SECRET_KEY) + ", REGION 'us-east-1', ENDPOINT " + MoraineDuckDb.quote(uri.getAuthority())
                        + ", URL_STYLE 'path', USE_SSL false, SCOPE " + MoraineDuckDb.quote(store.substring(0, store.indexOf('/', "s3://".length()))) + ")");
                options += ", READ_WRITE";
            }
            statement.execute("ATTACH " + MoraineDuckDb.quote("ducklake:moraine:" + store) + " AS lake (DATA_PATH " + MoraineDuckDb.quote(dataPath) + options + ")");
            WriterLoop.ready(announcer);
            WriterLoop.run(firstBatch, random, (batch, rows, inlined) -> {
                // DuckLake inlines an insert of at most the table's limit (10 by default) and writes a file otherwise.
                int count = inlined ? Math.min(rows, 10) : Math.max(rows, 11);
                CommitContent content = new CommitContent(batch, inlined ? CommitContent.Kind.INLINED : CommitContent.Kind.PARQUET, count, List.of());
                log.intent(content);
                announcer.announce("before-commit");
                try {
                    statement.execute("INSERT INTO lake.main.t SELECT " + batch + " * " + TrialTable.MAX_ROWS_PER_BATCH + " + i, " + batch
                            + " FROM range(" + count + ") r(i) ORDER BY i");
                }
                catch (SQLException | RuntimeException e) {
                    // DuckLake's conflicts and a failed commit alike: it may or may not have landed.
                    log.failed(content, e);
                    throw e;
                }
                announcer.announce("after-commit-before-ack");
                log.acknowledged(content, -1);
                WriterLoop.ack();
            });
        }
    }
}
