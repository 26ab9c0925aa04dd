package io.moraine.examples.duckdb;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * DuckDB connections with the DuckLake extension loaded from moraine's extension directory
 * ({@code ~/.cache/moraine/duckdb-extensions}, or {@code $MORAINE_CACHE_DIR/duckdb-extensions}), with extension
 * auto-install and auto-load off so that nothing is downloaded.
 */
public final class DuckLakeConnections
{
    private DuckLakeConnections() {}

    public static Path extensionDirectory()
    {
        String cache = System.getenv("MORAINE_CACHE_DIR");
        Path base = cache != null ? Path.of(cache) : Path.of(System.getProperty("user.home"), ".cache", "moraine");
        Path directory = Path.of(System.getProperty("moraine.duckdb.extension.dir", base.resolve("duckdb-extensions").toString()));
        if (!Files.isDirectory(directory)) {
            throw new IllegalStateException("the DuckLake extension directory " + directory + " does not exist; run "
                    + "build-support/bootstrap.sh (make build does) to prepare it");
        }
        return directory;
    }

    /** A DuckDB connection ({@code jdbc:duckdb:} plus {@code databasePath}, empty for in-memory) with DuckLake loaded. */
    public static Connection open(String databasePath)
            throws SQLException
    {
        Connection connection = DriverManager.getConnection("jdbc:duckdb:" + databasePath);
        try (Statement statement = connection.createStatement()) {
            statement.execute("SET autoinstall_known_extensions = false");
            statement.execute("SET autoload_known_extensions = false");
            statement.execute("SET extension_directory = '" + extensionDirectory().toString().replace("'", "''") + "'");
            statement.execute("LOAD ducklake");
        }
        catch (SQLException e) {
            connection.close();
            throw e;
        }
        return connection;
    }
}
