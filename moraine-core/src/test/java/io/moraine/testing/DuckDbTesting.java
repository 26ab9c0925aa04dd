package io.moraine.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Opens DuckDB 1.5.5 JDBC connections that load the DuckLake extension from the extension directory prepared by
 * build-support/bootstrap.sh, with extension auto-install and auto-load turned off so that nothing is downloaded.
 */
public final class DuckDbTesting
{
    public static final String EXTENSION_DIR_PROPERTY = "moraine.duckdb.extension.dir";

    private DuckDbTesting() {}

    /** The DuckDB extension directory; fails with instructions when the bootstrap has not run. */
    public static Path extensionDirectory()
    {
        String configured = System.getProperty(EXTENSION_DIR_PROPERTY,
                Path.of(System.getProperty("user.home"), ".cache", "moraine", "duckdb-extensions").toString());
        Path directory = Path.of(configured);
        if (!Files.isDirectory(directory)) {
            throw new IllegalStateException("DuckDB extension directory " + directory + " does not exist; run "
                    + "build-support/bootstrap.sh (make test does) to lay out the DuckLake extension there");
        }
        return directory;
    }

    /** An in-memory DuckDB with the DuckLake extension loaded. */
    public static Connection openWithDuckLake()
            throws SQLException
    {
        Connection connection = DriverManager.getConnection("jdbc:duckdb:");
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

    /** Attaches a DuckLake lake ({@code ducklake:<catalog file>}) with its data under {@code dataPath}. */
    public static void attachLake(Connection connection, String alias, Path catalogFile, Path dataPath)
            throws SQLException
    {
        try (Statement statement = connection.createStatement()) {
            statement.execute("ATTACH 'ducklake:" + catalogFile + "' AS " + alias + " (DATA_PATH '" + dataPath + "/')");
        }
    }
}
