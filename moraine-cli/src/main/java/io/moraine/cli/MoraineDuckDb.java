package io.moraine.cli;


import io.moraine.importer.DuckDbConnections;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

/**
 * DuckDB 1.5.5 connections (the JDBC driver) with moraine.duckdb_extension loaded and, for {@code ducklake:moraine:}
 * attaches, DuckLake loaded from moraine's extension directory (nothing is downloaded at run time).
 */
public final class MoraineDuckDb
{
    public static final String EXTENSION_PROPERTY = "moraine.duckdb.shim.extension";

    private MoraineDuckDb() {}

    /** A connection with only the moraine extension loaded (the standalone attach). */
    public static Connection open()
            throws SQLException
    {
        return open(false, false);
    }

    /** {@link #open()} for attaching {@code store}: an {@code s3://} path needs httpfs loaded before DuckDB attaches it. */
    public static Connection open(String store)
            throws SQLException
    {
        return open(false, isRemote(store));
    }

    /** A connection with DuckLake and the moraine extension loaded: {@code ATTACH 'ducklake:moraine:<store>'}. */
    public static Connection openWithDuckLake()
            throws SQLException
    {
        return open(true, false);
    }

    /** {@link #openWithDuckLake()} for attaching {@code store}, with httpfs loaded when it is on {@code s3://}. */
    public static Connection openWithDuckLake(String store)
            throws SQLException
    {
        return open(true, isRemote(store));
    }

    private static boolean isRemote(String store)
    {
        return store.startsWith("s3://");
    }

    private static Connection open(boolean duckLake, boolean httpfs)
            throws SQLException
    {
        Path extension = extension();
        Properties properties = new Properties();
        properties.setProperty("allow_unsigned_extensions", "true");
        Connection connection = DriverManager.getConnection("jdbc:duckdb:", properties);
        try (Statement statement = connection.createStatement()) {
            statement.execute("SET TimeZone = 'UTC'");
            if (duckLake || httpfs) {
                statement.execute("SET autoinstall_known_extensions = false");
                statement.execute("SET autoload_known_extensions = false");
                statement.execute("SET extension_directory = " + quote(DuckDbConnections.extensionDirectory().toString()));
            }
            if (duckLake) {
                statement.execute("LOAD ducklake");
            }
            if (httpfs) {
                statement.execute("LOAD httpfs");
            }
            statement.execute("LOAD " + quote(extension.toAbsolutePath().toString()));
        }
        catch (SQLException | RuntimeException e) {
            connection.close();
            throw e;
        }
        return connection;
    }

    /** A SQL string literal. */
    public static String quote(String text)
    {
        return "'" + text.replace("'", "''") + "'";
    }

    private static Path extension()
    {
        String configured = System.getProperty(EXTENSION_PROPERTY);
        Path built = Path.of("duckdb-shim/target/extension/moraine.duckdb_extension");
        // Without the property (bin/moraine sets it): the checkout root, or a module directory as in a test.
        Path extension = configured != null ? Path.of(configured) : Files.isRegularFile(built) ? built : Path.of("..").resolve(built);
        if (!Files.isRegularFile(extension)) {
            throw new IllegalArgumentException("the DuckDB extension " + extension + " is not built; run make build");
        }
        return extension;
    }
}
