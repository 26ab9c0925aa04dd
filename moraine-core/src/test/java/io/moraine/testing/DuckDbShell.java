package io.moraine.testing;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Properties;

/**
 * The DuckDB process of a {@link DuckDbSession}, run in a JVM of its own on duckdb-extension's class path with moraine's
 * extension and DuckLake loaded: reads one statement a line (base64) from its standard input, runs it, and answers
 * each row as {@code R} and its cells in {@link CanonicalText} (or, for a line {@code TEXT <base64>}, as the driver's
 * {@code getString} gives them; base64, comma-separated), then {@code OK}, or
 * {@code ERR} and the error's message (base64). Arguments: a name (unused), extension file, extension directory.
 */
public final class DuckDbShell
{
    /** The prefix of a line whose rows are answered as text rather than canonically. */
    static final String TEXT = "TEXT ";

    private DuckDbShell() {}

    public static void main(String[] args)
            throws Exception
    {
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        Base64.Encoder encoder = Base64.getEncoder();
        Properties properties = new Properties();
        properties.setProperty("allow_unsigned_extensions", "true");
        try (Connection connection = DriverManager.getConnection("jdbc:duckdb:", properties); Statement statement = connection.createStatement();
                BufferedReader input = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            statement.execute("SET TimeZone = 'UTC'");
            statement.execute("SET threads = 1"); // DuckLake's catalog cache race after writes (RFC 0006)
            statement.execute("SET autoinstall_known_extensions = false");
            statement.execute("SET autoload_known_extensions = false");
            statement.execute("SET extension_directory = '" + args[2] + "'");
            statement.execute("LOAD '" + args[1] + "'");
            statement.execute("LOAD ducklake");
            statement.execute("LOAD parquet");
            out.println("READY");
            out.flush();
            for (String line = input.readLine(); line != null; line = input.readLine()) {
                // "TEXT <sql>": cells as the driver's getString gives them (DuckDbOverStore's format), else canonical
                boolean asText = line.startsWith(TEXT);
                String sql = new String(Base64.getDecoder().decode(asText ? line.substring(TEXT.length()) : line), StandardCharsets.UTF_8);
                // a statement of its own per line: DuckDB's driver closes a statement whose query failed
                try (Statement each = connection.createStatement()) {
                    if (each.execute(sql)) {
                        try (ResultSet rows = each.getResultSet()) {
                            int columns = rows.getMetaData().getColumnCount();
                            while (rows.next()) {
                                List<String> cells = new ArrayList<>(columns);
                                for (int column = 1; column <= columns; column++) {
                                    String cell = asText ? String.valueOf(rows.getString(column)) : DuckDbCanonicalRows.cell(rows.getObject(column));
                                    cells.add(encoder.encodeToString(cell.getBytes(StandardCharsets.UTF_8)));
                                }
                                out.println("R " + String.join(",", cells));
                            }
                        }
                    }
                    out.println("OK");
                }
                catch (SQLException | RuntimeException e) {
                    out.println("ERR " + encoder.encodeToString(String.valueOf(e.getMessage()).getBytes(StandardCharsets.UTF_8)));
                }
                out.flush();
            }
        }
    }
}
