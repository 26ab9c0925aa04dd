package io.moraine.spark;

import io.moraine.core.store.StoreUri;
import io.moraine.testing.DuckDbOverStore;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryProgress;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Structured Streaming into moraine tables: micro-batches of CSV files (one file a batch) appended with exactly-once
 * commits across a restart that replays a batch (the checkpoint's commit log of the last batch removed, as when the
 * driver dies between moraine's commit and Spark's), small batches inlined, and DuckDB reading what the stream wrote.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestMoraineSparkStreaming
{
    private static final String SOURCE_SCHEMA = "id BIGINT, batch INT, label STRING";

    private SparkSession spark;
    private Path directory;
    private Path data;
    private String store;

    @BeforeAll
    void setUp()
            throws Exception
    {
        directory = Files.createTempDirectory("moraine-spark-streaming");
        data = directory.resolve("data");
        store = SparkSessions.createEmptyLake(directory.resolve("store"), data);
        spark = SparkSessions.start(store, Map.of());
    }

    @AfterAll
    void tearDown()
    {
        if (spark != null) {
            spark.stop();
        }
    }

    /** Micro-batches in all; the restart comes after half of them and replays the last batch before it. */
    private static final int BATCHES = 200;

    @Test
    void twoHundredMicroBatchesLandInlinedExactlyOnceAcrossARestartThatReplaysABatch()
            throws Exception
    {
        long started = System.nanoTime();
        int half = BATCHES / 2;
        // the restart's progress must still hold the replayed batch when it ends
        spark.conf().set("spark.sql.streaming.numRecentProgressUpdates", Integer.toString(BATCHES));
        spark.sql("CREATE TABLE lake.main.events (" + SOURCE_SCHEMA + ") TBLPROPERTIES ('data_inlining_row_limit' = '100')");
        Path source = Files.createDirectories(directory.resolve("events-in"));
        Path checkpoint = directory.resolve("events-checkpoint");
        List<Long> expected = new ArrayList<>();
        for (int batch = 0; batch < half; batch++) {
            expected.addAll(writeBatchFile(source, batch, rowsOf(batch), expected.size()));
        }
        runToEnd(eventsQuery(source, checkpoint));
        assertThat(count("lake.main.events")).isEqualTo(expected.size());

        // The driver died after moraine committed the last epoch and before Spark logged it: the restart runs that batch again.
        int replayed = half - 1;
        forgetCommit(checkpoint, replayed);
        for (int batch = half; batch < BATCHES; batch++) {
            expected.addAll(writeBatchFile(source, batch, rowsOf(batch), expected.size()));
        }
        StreamingQuery restarted = eventsQuery(source, checkpoint);
        runToEnd(restarted);
        assertThat(Arrays.stream(restarted.recentProgress()).filter(progress -> progress.batchId() == replayed).mapToLong(StreamingQueryProgress::numInputRows))
                .as("the restart replayed batch " + replayed + " with its rows").containsExactly((long) rowsOf(replayed));
        assertThat(checkpoint.resolve("commits").resolve(Integer.toString(replayed))).as("Spark logged the replayed batch").exists();
        long streamed = System.nanoTime() - started;

        List<String> rows = TextRows.of(spark, "SELECT id, batch, label FROM lake.main.events ORDER BY id");
        assertThat(rows).as("every row exactly once").hasSize(expected.size());
        assertThat(rows.stream().map(row -> Long.parseLong(row.substring(0, row.indexOf('|')))).toList()).containsExactlyElementsOf(expected);
        assertThat(TextRows.of(spark, "SELECT count(*) FROM lake.main.events WHERE _file IS NOT NULL")).as("every micro-batch inlined").containsExactly("0");
        assertThat(parquetFiles("events")).as("no Parquet file written").isEmpty();
        String queryId = restarted.id().toString();
        List<String> epochs = TextRows.of(spark, "SELECT commit_extra_info FROM lake.main.events.snapshots WHERE commit_extra_info LIKE '%" + queryId + "%' "
                + "ORDER BY snapshot_id");
        assertThat(epochs).as("one snapshot per epoch, the replayed one once").hasSize(BATCHES);
        assertThat(epochs.get(replayed)).isEqualTo("{\"stream_writer_id\": \"" + queryId + "\", \"stream_epoch_id\": " + replayed + "}");

        // DuckDB reads the inlined rows, then flushes them: the first Parquet files
        List<String> duckdb = DuckDbOverStore.run(StoreUri.parse(store),
                "SELECT id, batch, label FROM lake.main.events ORDER BY id",
                "SELECT count(*), count(DISTINCT commit_extra_info) FROM ducklake_snapshots('lake') WHERE commit_extra_info LIKE '%" + queryId + "%'",
                "CALL ducklake_flush_inlined_data('lake', schema_name => 'main', table_name => 'events')",
                "SELECT id, batch, label FROM lake.main.events ORDER BY id");
        assertThat(TextRows.ofStatement(duckdb, 0)).as("DuckDB reads the stream's rows").containsExactlyElementsOf(rows);
        assertThat(TextRows.ofStatement(duckdb, 1)).as("DuckDB reads the epochs' extra info").containsExactly(BATCHES + "|" + BATCHES);
        assertThat(TextRows.ofStatement(duckdb, 3)).as("DuckDB reads the flushed rows").containsExactlyElementsOf(rows);
        assertThat(parquetFiles("events")).as("the flush wrote the table's first Parquet files").isNotEmpty();
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
        String flushed = "SELECT count(*) FROM lake.main.events WHERE _file IS NULL";
        while (!TextRows.of(spark, flushed).equals(List.of("0")) && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        assertThat(TextRows.of(spark, flushed)).as("Spark sees the flush").containsExactly("0");
        assertThat(TextRows.of(spark, "SELECT id, batch, label FROM lake.main.events ORDER BY id")).as("Spark reads the flushed rows").containsExactlyElementsOf(rows);
        System.out.printf("streaming: %d micro-batches (%d rows, one replayed) in %.1f s%n", BATCHES, expected.size(), streamed / 1e9);
    }

    @Test
    void aReplayedBatchWrittenToFilesCommitsNothingAndItsFilesAreDeleted()
            throws Exception
    {
        spark.sql("CREATE TABLE lake.main.filed (" + SOURCE_SCHEMA + ") TBLPROPERTIES ('data_inlining_row_limit' = '0')");
        Path source = Files.createDirectories(directory.resolve("filed-in"));
        Path checkpoint = directory.resolve("filed-checkpoint");
        long rows = 0;
        for (int batch = 0; batch < 3; batch++) {
            rows += writeBatchFile(source, batch, 20, rows).size();
        }
        runToEnd(filedQuery(source, checkpoint));
        forgetCommit(checkpoint, 2);
        runToEnd(filedQuery(source, checkpoint));

        assertThat(count("lake.main.filed")).isEqualTo(rows);
        List<String> files = TextRows.of(spark, "SELECT DISTINCT _file FROM lake.main.filed");
        assertThat(files).as("a data file per micro-batch").hasSize(3);
        assertThat(parquetFiles("filed")).as("the replay's file was deleted: only the table's files are left")
                .containsExactlyInAnyOrderElementsOf(files.stream().map(file -> Path.of(file.replaceFirst("^file:", ""))).toList());
    }

    @Test
    void completeModeIsRefusedClearly()
            throws Exception
    {
        spark.sql("CREATE TABLE lake.main.totals (batch INT, n BIGINT)");
        Path source = Files.createDirectories(directory.resolve("totals-in"));
        writeBatchFile(source, 0, 10, 0);
        StreamingQuery query = spark.readStream().schema(SOURCE_SCHEMA).csv(source.toString())
                .groupBy("batch").count().withColumnRenamed("count", "n")
                .writeStream().outputMode("complete").option("checkpointLocation", directory.resolve("totals-checkpoint").toString())
                .trigger(Trigger.AvailableNow()).toTable("lake.main.totals");
        assertThatThrownBy(query::awaitTermination).hasStackTraceContaining("only appends").hasStackTraceContaining("outputMode(\"append\")");
        assertThat(count("lake.main.totals")).isZero();
    }

    /** {@code toTable} on the catalog {@code lake}, one CSV file a micro-batch. */
    private StreamingQuery eventsQuery(Path source, Path checkpoint)
            throws Exception
    {
        return stream(source).writeStream().option("checkpointLocation", checkpoint.toString()).trigger(Trigger.AvailableNow()).toTable("lake.main.events");
    }

    /** {@code format("moraine")} with the store as an option, one CSV file a micro-batch. */
    private StreamingQuery filedQuery(Path source, Path checkpoint)
            throws Exception
    {
        return stream(source).writeStream().format("moraine").option("store", store).option("checkpointLocation", checkpoint.toString())
                .trigger(Trigger.AvailableNow()).start("main.filed");
    }

    private Dataset<Row> stream(Path source)
    {
        return spark.readStream().schema(SOURCE_SCHEMA).option("maxFilesPerTrigger", 1).csv(source.toString());
    }

    private static void runToEnd(StreamingQuery query)
            throws Exception
    {
        query.awaitTermination();
        assertThat(query.exception().isEmpty()).as("the query ended without error").isTrue();
    }

    /** 10 to 100 rows, varying by batch. */
    private static int rowsOf(int batch)
    {
        return 10 + (batch * 37) % 91;
    }

    /** A micro-batch's file: {@code rows} rows with ids from {@code firstId}, modified after the files before it (the source takes the oldest first). */
    private static List<Long> writeBatchFile(Path source, int batch, int rows, long firstId)
            throws IOException
    {
        List<Long> ids = LongStream.range(firstId, firstId + rows).boxed().toList();
        Path file = source.resolve("batch-%03d.csv".formatted(batch));
        Files.write(file, ids.stream().map(id -> id + "," + batch + ",b" + batch + "-" + id).toList());
        Files.setLastModifiedTime(file, FileTime.fromMillis(System.currentTimeMillis() - 3_600_000L + batch * 1000L));
        return ids;
    }

    /** Removes Spark's record that batch {@code batchId} was committed, as a driver dying right after moraine's commit leaves it. */
    private static void forgetCommit(Path checkpoint, int batchId)
            throws IOException
    {
        Path commits = checkpoint.resolve("commits");
        assertThat(commits.resolve(Integer.toString(batchId))).exists();
        Files.delete(commits.resolve(Integer.toString(batchId)));
        Files.deleteIfExists(commits.resolve("." + batchId + ".crc"));
    }

    private long count(String table)
    {
        return spark.sql("SELECT count(*) FROM " + table).first().getLong(0);
    }

    /** The Parquet files under the lake's data path in a directory named {@code table} (DuckLake's schema/table layout). */
    private List<Path> parquetFiles(String table)
            throws IOException
    {
        try (Stream<Path> files = Files.walk(data)) {
            return files.filter(file -> file.getFileName().toString().endsWith(".parquet"))
                    .filter(file -> data.relativize(file).toString().contains(table + "/")).toList();
        }
    }
}
