package io.moraine.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One DuckDB process with moraine's extension and DuckLake loaded ({@link DuckDbShell}), kept for many statements: an
 * engine module's test attaches {@code ducklake:moraine:} stores and DuckDB-file lakes in it and compares what DuckDB
 * reads there with what its engine reads, without starting a JVM per statement. Values come back in
 * {@link CanonicalText}.
 */
public final class DuckDbSession
        implements AutoCloseable
{
    private final Process process;
    private final Writer input;
    private final BufferedReader output;

    private DuckDbSession(Process process)
    {
        this.process = process;
        this.input = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        this.output = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    /** Starts the process (run from an engine module's directory, beside {@code duckdb-extension}). */
    public static DuckDbSession start()
            throws Exception
    {
        Process process = new ProcessBuilder(DuckDbOverStore.javaCommand(DuckDbShell.class, "shell"))
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        DuckDbSession session = new DuckDbSession(process);
        String ready = session.output.readLine();
        if (!"READY".equals(ready)) {
            process.destroyForcibly();
            throw new IllegalStateException("DuckDB's process did not start: " + ready);
        }
        return session;
    }

    /** Runs {@code sql} (a statement, or several separated by semicolons); fails with DuckDB's error. */
    public void execute(String sql)
            throws IOException
    {
        query(sql);
    }

    /** The rows of {@code sql}, every cell in {@link CanonicalText}, in DuckDB's order. */
    public List<List<String>> query(String sql)
            throws IOException
    {
        return answer("", sql);
    }

    /** The rows of {@code sql}, every cell as DuckDB's JDBC driver's {@code getString} gives it ({@code "null"} for NULL). */
    public List<List<String>> queryAsText(String sql)
            throws IOException
    {
        return answer(DuckDbShell.TEXT, sql);
    }

    private List<List<String>> answer(String prefix, String sql)
            throws IOException
    {
        input.write(prefix + Base64.getEncoder().encodeToString(sql.getBytes(StandardCharsets.UTF_8)) + "\n");
        input.flush();
        List<List<String>> rows = new ArrayList<>();
        Base64.Decoder decoder = Base64.getDecoder();
        while (true) {
            String line = output.readLine();
            if (line == null) {
                throw new IOException("DuckDB's process ended while running: " + sql);
            }
            if (line.equals("OK")) {
                return rows;
            }
            if (line.startsWith("ERR ")) {
                throw new DuckDbError(sql, new String(decoder.decode(line.substring(4)), StandardCharsets.UTF_8));
            }
            if (line.startsWith("R ")) {
                String body = line.substring(2);
                List<String> cells = Arrays.stream(body.split(",", -1))
                        .map(cell -> new String(decoder.decode(cell), StandardCharsets.UTF_8))
                        .toList();
                rows.add(cells);
            }
        }
    }

    @Override
    public void close()
            throws Exception
    {
        input.close();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }

    /** DuckDB refused a statement. */
    public static final class DuckDbError
            extends IOException
    {
        public DuckDbError(String sql, String message)
        {
            super("DuckDB: " + message + " (running " + sql + ")");
        }
    }
}
