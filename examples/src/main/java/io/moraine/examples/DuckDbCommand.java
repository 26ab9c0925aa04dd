package io.moraine.examples;

import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;
import java.util.Set;

/**
 * {@code bin/moraine duckdb --store <uri> [--mode read-write|read-only] [--checkpoint <id>] "<sql>"...}: runs statements in DuckDB
 * 1.5.5 (the JDBC driver) with moraine.duckdb_extension loaded and the store attached as {@code m}; every statement
 * that returns rows prints them as CSV with a header line.
 */
final class DuckDbCommand
{
    static final String USAGE = "duckdb --store <store-uri> [--mode read-write|read-only] [--checkpoint <id>] \"<sql>\"...";
    static final String EXTENSION_PROPERTY = "moraine.duckdb.shim.extension";

    private DuckDbCommand() {}

    static void run(String[] args)
            throws Exception
    {
        CommandLine line = CommandLine.parse(args, Set.of("store", "mode", "checkpoint"));
        String store = line.required("store");
        List<String> statements = line.positional();
        if (statements.isEmpty()) {
            throw new IllegalArgumentException("give at least one SQL statement: " + USAGE);
        }
        Path extension = extension();
        StringBuilder options = new StringBuilder("TYPE moraine");
        switch (line.option("mode").orElse("")) {
            case "" -> { }
            case "read-write" -> options.append(", READ_WRITE");
            case "read-only" -> options.append(", READ_ONLY");
            default -> throw new IllegalArgumentException("--mode is read-write or read-only, not " + line.option("mode").get());
        }
        line.option("checkpoint").ifPresent(id -> options.append(", CHECKPOINT '").append(id.replace("'", "''")).append('\''));

        Properties properties = new Properties();
        properties.setProperty("allow_unsigned_extensions", "true");
        Writer out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8));
        try (Connection connection = DriverManager.getConnection("jdbc:duckdb:", properties); Statement statement = connection.createStatement()) {
            statement.execute("LOAD '" + extension.toAbsolutePath().toString().replace("'", "''") + "'");
            statement.execute("ATTACH '" + store.replace("'", "''") + "' AS m (" + options + ")");
            for (String sql : statements) {
                if (statement.execute(sql)) {
                    try (ResultSet result = statement.getResultSet()) {
                        writeCsv(result, out);
                    }
                }
            }
        }
        catch (SQLException e) {
            // DuckDB's message names the error type and moraine's own message; the stack trace adds nothing.
            out.flush();
            System.err.println("moraine duckdb: " + e.getMessage());
            System.exit(1);
        }
        out.flush();
    }

    /** Prints one table of the store attached read-only as CSV with a header, written by DuckDB's own CSV writer. */
    static void copyCsv(String store, String table)
            throws Exception
    {
        Properties properties = new Properties();
        properties.setProperty("allow_unsigned_extensions", "true");
        try (Connection connection = DriverManager.getConnection("jdbc:duckdb:", properties); Statement statement = connection.createStatement()) {
            statement.execute("LOAD '" + extension().toAbsolutePath().toString().replace("'", "''") + "'");
            statement.execute("ATTACH '" + store.replace("'", "''") + "' AS m (TYPE moraine, READ_ONLY)");
            System.out.flush();
            statement.execute("COPY (SELECT * FROM m.main.\"" + table.replace("\"", "\"\"") + "\") TO '/dev/stdout' (FORMAT csv, HEADER true)");
        }
        catch (SQLException e) {
            System.err.println("moraine dump: " + e.getMessage());
            System.exit(1);
        }
    }

    private static Path extension()
    {
        Path extension = Path.of(System.getProperty(EXTENSION_PROPERTY, "duckdb-shim/target/extension/moraine.duckdb_extension"));
        if (!Files.isRegularFile(extension)) {
            throw new IllegalArgumentException("the DuckDB extension " + extension + " is not built; run make build");
        }
        return extension;
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
