package io.moraine.cli;

import io.moraine.core.store.SlateStore;
import io.moraine.core.store.StoreOptions;
import io.moraine.core.store.StoreUri;

import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code bin/moraine duckdb --store <uri> [--data-path <path>] [--mode read-write|read-only] [--checkpoint <id>] "<sql>"}:
 * runs {@code ;}-separated statements in DuckDB 1.5.5 (the JDBC driver) with DuckLake and moraine.duckdb_extension
 * loaded and {@code ducklake:moraine:<uri>} attached as {@code lake} (its catalog tables as
 * {@code __ducklake_metadata_lake}); prints the last statement's result as CSV with a header line.
 */
final class DuckDbCommand
{
    static final String USAGE = "duckdb --store <store-uri> [--store-timeout 30s] [--data-path <path>] [--mode read-write|read-only] [--checkpoint <id>] \"<sql>[; <sql>...]\"";

    private DuckDbCommand() {}

    static void run(String[] args)
            throws Exception
    {
        CommandLine line = CommandLine.parse(args, Set.of("store", CommandLine.STORE_TIMEOUT, "data-path", "mode", "checkpoint"));
        String store = line.required("store");
        List<String> statements = line.positional();
        if (statements.isEmpty()) {
            throw new IllegalArgumentException("give the SQL to run (statements separated by ;): " + USAGE);
        }
        String attach = "ATTACH " + MoraineDuckDb.quote("ducklake:moraine:" + store) + " AS lake" + attachOptions(line, store);
        Writer out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8));
        try (Connection connection = MoraineDuckDb.openWithDuckLake(store); Statement statement = connection.createStatement()) {
            statement.execute(attach);
            // DuckDB's JDBC driver runs every statement of the text in order and returns the last one's result.
            if (statement.execute(String.join(";\n", statements))) {
                try (ResultSet result = statement.getResultSet()) {
                    writeCsv(result, out);
                }
            }
        }
        catch (SQLException e) {
            // DuckDB's message names the error type and moraine's own message; the stack trace adds nothing.
            out.flush();
            throw new CommandFailure(e.getMessage(), e);
        }
        out.flush();
    }

    /**
     * DuckLake's attach options: the data path, and the modes mapped onto DuckLake's (READ_ONLY makes the lake and the
     * nested moraine attach read-only; META_CHECKPOINT pins the nested attach).
     */
    static String attachOptions(CommandLine line, String store)
    {
        List<String> options = new ArrayList<>();
        Optional<String> dataPath = line.option("data-path").map(DuckDbCommand::directory);
        dataPath.ifPresent(path -> options.add("DATA_PATH " + MoraineDuckDb.quote(path)));
        String mode = line.option("mode").orElse("");
        Optional<String> checkpoint = line.option("checkpoint");
        switch (mode) {
            case "" -> { }
            case "read-write" -> options.add("READ_WRITE");
            case "read-only" -> options.add("READ_ONLY");
            default -> throw new IllegalArgumentException("--mode is read-write or read-only, not " + mode);
        }
        if (checkpoint.isPresent()) {
            if (mode.equals("read-write")) {
                throw new IllegalArgumentException("--checkpoint reads the lake as it was at that checkpoint and cannot write: drop --mode read-write");
            }
            if (mode.isEmpty()) {
                options.add("READ_ONLY");
            }
            options.add("META_CHECKPOINT " + MoraineDuckDb.quote(checkpoint.get()));
        }
        Optional<String> timeout = line.option(CommandLine.STORE_TIMEOUT);
        if (timeout.isPresent()) {
            // Checked here, so a malformed duration is a usage error; the nested moraine attach takes it as STORE_TIMEOUT.
            CommandLine.duration(CommandLine.STORE_TIMEOUT, timeout.get());
            options.add("META_STORE_TIMEOUT " + MoraineDuckDb.quote(timeout.get()));
        }
        boolean writes = !options.contains("READ_ONLY");
        if (writes && dataPath.isEmpty() && !SlateStore.holdsData(StoreUri.parse(store), line.storeOptions())) {
            throw new IllegalArgumentException("the store " + store + " holds no lake yet: give --data-path <directory> for the new lake's data files "
                    + "(DuckLake needs one to create a lake; an existing lake keeps the data path it was created with)");
        }
        return options.isEmpty() ? "" : " (" + String.join(", ", options) + ")";
    }

    /** A data path as DuckLake wants it: a directory ending in a separator; a local one absolute. */
    private static String directory(String path)
    {
        String directory = path.contains("://") ? path : Path.of(path).toAbsolutePath().toString();
        return directory.endsWith("/") ? directory : directory + "/";
    }

    /** Prints one table of the store attached read-only as CSV with a header, written by DuckDB's own CSV writer. */
    static void copyCsv(String store, StoreOptions storeOptions, String table)
            throws Exception
    {
        try (Connection connection = MoraineDuckDb.open(store); Statement statement = connection.createStatement()) {
            statement.execute("ATTACH " + MoraineDuckDb.quote(store) + " AS m (TYPE moraine, READ_ONLY, STORE_TIMEOUT '"
                    + storeOptions.timeout().toMillis() + "ms')");
            System.out.flush();
            statement.execute("COPY (SELECT * FROM m.main.\"" + table.replace("\"", "\"\"") + "\") TO '/dev/stdout' (FORMAT csv, HEADER true)");
        }
        catch (SQLException e) {
            throw new CommandFailure(e.getMessage(), e);
        }
    }

    private static void writeCsv(ResultSet result, Writer out)
            throws Exception
    {
        int columns = result.getMetaData().getColumnCount();
        for (int i = 1; i <= columns; i++) {
            out.write((i > 1 ? "," : "") + field(result.getMetaData().getColumnLabel(i)));
        }
        out.write('\n');
        while (result.next()) {
            for (int i = 1; i <= columns; i++) {
                String value = result.getString(i);
                out.write((i > 1 ? "," : "") + (value == null ? "" : field(value)));
            }
            out.write('\n');
        }
    }

    /** A CSV field as DuckDB's writer quotes it: an empty string or one with a separator, quote or newline is quoted. */
    private static String field(String text)
    {
        if (text.isEmpty() || text.chars().anyMatch(c -> c == ',' || c == '"' || c == '\n' || c == '\r')) {
            return '"' + text.replace("\"", "\"\"") + '"';
        }
        return text;
    }
}
