package io.moraine.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * A DuckDB process for engines' write tests ({@link DuckDbOverStore}), run in a JVM of its own on duckdb-extension's class
 * path: attaches {@code ducklake:moraine:<store>} as {@code lake} and runs each statement argument; a query prints
 * its rows as {@code ROW <i> v1|v2|...} (i: the statement's index). Arguments: store, extension file, extension directory, statements.
 */
public final class DuckDbLakeSql
{
    private DuckDbLakeSql() {}

    public static void main(String[] args)
            throws Exception
    {
        Properties properties = new Properties();
        properties.setProperty("allow_unsigned_extensions", "true");
        try (Connection connection = DriverManager.getConnection("jdbc:duckdb:", properties); Statement statement = connection.createStatement()) {
            statement.execute("SET TimeZone = 'UTC'");
            statement.execute("SET autoinstall_known_extensions = false");
            statement.execute("SET autoload_known_extensions = false");
            statement.execute("SET extension_directory = '" + args[2] + "'");
            statement.execute("LOAD '" + args[1] + "'");
            statement.execute("ATTACH 'ducklake:moraine:" + args[0] + "' AS lake");
            for (int i = 3; i < args.length; i++) {
                if (!statement.execute(args[i])) {
                    continue;
                }
                try (ResultSet rows = statement.getResultSet()) {
                    int columns = rows.getMetaData().getColumnCount();
                    while (rows.next()) {
                        List<String> values = new ArrayList<>();
                        for (int column = 1; column <= columns; column++) {
                            values.add(String.valueOf(rows.getString(column)));
                        }
                        System.out.println("ROW " + (i - 3) + " " + String.join("|", values));
                    }
                }
            }
            System.out.flush();
        }
    }
}
