package io.moraine.trino;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

/**
 * The DuckDB side of {@link TestMoraineReadsWhileDuckDbWrites}, run in a JVM of its own on duckdb-extension's class
 * path: attaches {@code ducklake:moraine:<store>} read-write with moraine's extension loaded, creates
 * {@code lake.items}, commits {@code <batches>} inserts (alternately inlined and Parquet-sized) and after each prints
 * {@code COMMIT <snapshot id> <count> <sum(batch)> <sum(length(label))>} as DuckDB reads the lake then. After the
 * first commit it waits for a line on its standard input.
 * Arguments: store, data path, extension file, extension directory, batches.
 */
public final class DuckDbLakeWriter
{
    private DuckDbLakeWriter() {}

    static int batchSize(int batch)
    {
        return batch % 2 == 0 ? 5 : 300;
    }

    public static void main(String[] args)
            throws Exception
    {
        Path store = Path.of(args[0]);
        Path data = Path.of(args[1]);
        int batches = Integer.parseInt(args[4]);
        Properties properties = new Properties();
        properties.setProperty("allow_unsigned_extensions", "true");
        try (Connection connection = DriverManager.getConnection("jdbc:duckdb:", properties); Statement statement = connection.createStatement()) {
            statement.execute("SET TimeZone = 'UTC'");
            statement.execute("SET autoinstall_known_extensions = false");
            statement.execute("SET autoload_known_extensions = false");
            statement.execute("SET extension_directory = '" + args[3] + "'");
            statement.execute("LOAD '" + args[2] + "'");
            statement.execute("ATTACH 'ducklake:moraine:" + store + "' AS lake (DATA_PATH '" + data + "/', DATA_INLINING_ROW_LIMIT 10)");
            statement.execute("CREATE TABLE lake.items (batch INTEGER, label VARCHAR)");
            for (int batch = 0; batch < batches; batch++) {
                statement.execute("INSERT INTO lake.items SELECT " + batch + ", 'b" + batch + "-' || i FROM range(" + batchSize(batch) + ") t(i)");
                System.out.println("COMMIT " + single(statement, "SELECT max(snapshot_id) FROM ducklake_snapshots('lake')") + " "
                        + single(statement, "SELECT count(*) || ' ' || sum(batch) || ' ' || sum(length(label)) FROM lake.items"));
                System.out.flush();
                // Paced so that Trino's queries interleave with many commits (no assertion depends on the timing).
                Thread.sleep(100);
                if (batch == 0) {
                    // The reader is set up against the first commit; it says when to go on.
                    new java.io.BufferedReader(new java.io.InputStreamReader(System.in, java.nio.charset.StandardCharsets.UTF_8)).readLine();
                }
            }
        }
    }

    private static String single(Statement statement, String sql)
            throws SQLException
    {
        try (ResultSet result = statement.executeQuery(sql)) {
            result.next();
            return result.getString(1);
        }
    }
}
