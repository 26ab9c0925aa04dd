package io.moraine.launchers.spark;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One real Spark driver ({@link SparkSubmit}: PyPI's pyspark, only the bundle jar added) kept for many statements: it
 * runs {@code spark/run_statements.py}, which takes one SQL statement per line from a named pipe (spark-submit does not
 * pass stdin on to a PySpark application) and answers on stdout with its rows.
 */
final class SparkDriverSession
        implements AutoCloseable
{
    private final Process process;
    private final Path pipe;
    private final BufferedReader output;
    private Writer input;

    private SparkDriverSession(Process process, Path pipe)
    {
        this.process = process;
        this.pipe = pipe;
        this.output = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    /** Starts the driver with {@code conf} (the catalogs) and waits until its session is up. */
    static SparkDriverSession start(SparkSubmit spark, Path directory, Map<String, String> conf)
            throws IOException
    {
        Path script = directory.resolve("run_statements.py");
        try (InputStream in = SparkDriverSession.class.getResourceAsStream("/spark/run_statements.py")) {
            Files.write(script, in.readAllBytes());
        }
        Path pipe = directory.resolve("statements.fifo");
        try {
            if (new ProcessBuilder("mkfifo", pipe.toString()).inheritIO().start().waitFor() != 0) {
                throw new IOException("mkfifo " + pipe + " failed");
            }
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while making " + pipe, e);
        }
        Process process = spark.python(script, conf, List.of(pipe.toString()), Map.of())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        SparkDriverSession session = new SparkDriverSession(process, pipe);
        String line;
        while ((line = session.output.readLine()) != null && !line.equals("READY")) {
            // spark-submit's own output before the session is up
        }
        if (line == null) {
            throw new IOException("the Spark driver ended before its session was up (its log is above)");
        }
        // opens once the driver opens its end
        session.input = new OutputStreamWriter(Files.newOutputStream(pipe), StandardCharsets.UTF_8);
        return session;
    }

    /** The rows of {@code sql}, each its values joined by {@code |} (NULL for a null); fails with Spark's error. */
    List<String> query(String sql)
            throws IOException
    {
        input.write(sql.replace('\n', ' ') + "\n");
        input.flush();
        List<String> rows = new ArrayList<>();
        String error = null;
        while (true) {
            String line = output.readLine();
            if (line == null) {
                throw new IOException("the Spark driver ended while running: " + sql);
            }
            if (line.equals("DONE")) {
                break;
            }
            if (line.startsWith("ROW ")) {
                rows.add(line.substring(4));
            }
            else if (line.startsWith("ERROR ")) {
                error = line.substring(6);
            }
        }
        if (error != null) {
            throw new IllegalStateException("Spark failed " + sql + ": " + error);
        }
        return rows;
    }

    @Override
    public void close()
            throws Exception
    {
        if (input != null) {
            input.close();
        }
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
        Files.deleteIfExists(pipe);
    }
}
