package io.moraine.importer;

import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.error.StoreException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * DuckDB 1.5.5 connections that load extensions (DuckLake, the SQLite and PostgreSQL scanners) from moraine's
 * extension directory, {@code ~/.cache/moraine/duckdb-extensions} (or {@code $MORAINE_CACHE_DIR/duckdb-extensions},
 * or the system property {@value #EXTENSION_DIR_PROPERTY}), with auto-install and auto-load off: nothing is
 * downloaded at run time.
 */
public final class DuckDbConnections
{
    public static final String EXTENSION_DIR_PROPERTY = "moraine.duckdb.extension.dir";

    private DuckDbConnections() {}

    public static Path extensionDirectory()
    {
        String cache = System.getenv("MORAINE_CACHE_DIR");
        Path base = cache != null ? Path.of(cache) : Path.of(System.getProperty("user.home"), ".cache", "moraine");
        Path directory = Path.of(System.getProperty(EXTENSION_DIR_PROPERTY, base.resolve("duckdb-extensions").toString()));
        if (!Files.isDirectory(directory)) {
            throw new InvalidArgumentException("the DuckDB extension directory " + directory + " does not exist; run "
                    + "build-support/bootstrap.sh (make build does) to prepare it, or set -D" + EXTENSION_DIR_PROPERTY);
        }
        return directory;
    }

    /**
     * Opens DuckDB on {@code databasePath} (empty for in-memory) and loads {@code extensions}, e.g. "ducklake",
     * "sqlite_scanner", "postgres_scanner".
     */
    public static Connection open(String databasePath, String... extensions)
    {
        try {
            Connection connection = DriverManager.getConnection("jdbc:duckdb:" + databasePath);
            try (Statement statement = connection.createStatement()) {
                statement.execute("SET autoinstall_known_extensions = false");
                statement.execute("SET autoload_known_extensions = false");
                statement.execute("SET extension_directory = '" + extensionDirectory().toString().replace("'", "''") + "'");
                statement.execute("SET TimeZone = 'UTC'");
                for (String extension : extensions.length == 0 ? new String[] {"ducklake"} : extensions) {
                    statement.execute("LOAD " + extension);
                }
            }
            catch (SQLException | RuntimeException e) {
                connection.close();
                throw e;
            }
            return connection;
        }
        catch (SQLException e) {
            throw new StoreException("cannot open DuckDB with its extensions (" + e.getMessage().strip() + "); check that "
                    + "build-support/bootstrap.sh prepared " + extensionDirectory(), e);
        }
    }
}
