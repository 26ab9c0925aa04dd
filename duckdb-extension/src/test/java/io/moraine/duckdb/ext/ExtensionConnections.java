package io.moraine.duckdb.ext;

import io.moraine.testing.DuckDbTesting;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/** A stock duckdb_jdbc connection opened with allow_unsigned_extensions and the built extension loaded. */
final class ExtensionConnections
{
    private ExtensionConnections() {}

    static Path extension()
    {
        Path extension = Path.of(System.getProperty("moraine.duckdb.shim.extension",
                "../duckdb-shim/target/extension/moraine.duckdb_extension")).toAbsolutePath();
        if (!Files.isRegularFile(extension)) {
            throw new IllegalStateException(extension + " does not exist; build duckdb-shim (its generate-resources phase builds it)");
        }
        return extension;
    }

    static Connection open()
            throws SQLException
    {
        Properties properties = new Properties();
        properties.setProperty("allow_unsigned_extensions", "true");
        Connection connection = DriverManager.getConnection("jdbc:duckdb:", properties);
        try (Statement statement = connection.createStatement()) {
            statement.execute("SET TimeZone = 'UTC'");
            statement.execute("SET autoinstall_known_extensions = false");
            statement.execute("SET autoload_known_extensions = false");
            statement.execute("SET extension_directory = '" + DuckDbTesting.extensionDirectory() + "'");
            statement.execute("LOAD '" + extension() + "'");
        }
        catch (SQLException e) {
            connection.close();
            throw e;
        }
        return connection;
    }

    static void execute(Connection connection, String sql)
            throws SQLException
    {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    static List<List<String>> query(Connection connection, String sql)
            throws SQLException
    {
        List<List<String>> rows = new ArrayList<>();
        try (Statement statement = connection.createStatement(); ResultSet result = statement.executeQuery(sql)) {
            int columns = result.getMetaData().getColumnCount();
            while (result.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= columns; i++) {
                    row.add(result.getString(i));
                }
                rows.add(row);
            }
        }
        return rows;
    }

    static long count(Connection connection, String sql)
            throws SQLException
    {
        return Long.parseLong(query(connection, sql).getFirst().getFirst());
    }
}
