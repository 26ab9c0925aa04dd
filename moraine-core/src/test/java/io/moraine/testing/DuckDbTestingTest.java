package io.moraine.testing;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** DuckDB 1.5.5 loads the DuckLake extension from the wheel and round-trips a small DuckLake table. */
class DuckDbTestingTest
{
    @TempDir
    Path temp;

    @Test
    void duckLakeFromTheWheelRoundTripsATable()
            throws Exception
    {
        Path catalog = temp.resolve("lake.ducklake");
        Path data = temp.resolve("data");
        try (Connection connection = DuckDbTesting.openWithDuckLake(); Statement statement = connection.createStatement()) {
            assertThat(queryColumn(statement, "SELECT version()")).containsExactly("v1.5.5");
            assertThat(queryColumn(statement, "SELECT extension_version FROM duckdb_extensions() WHERE extension_name = 'ducklake' AND loaded"))
                    .hasSize(1);
            DuckDbTesting.attachLake(connection, "lake", catalog, data);
            statement.execute("SET threads = 1");
            statement.execute("CREATE TABLE lake.items(id INTEGER, name VARCHAR)");
            statement.execute("INSERT INTO lake.items SELECT i, 'item-' || i FROM range(1000) t(i)");
            statement.execute("DELETE FROM lake.items WHERE id % 10 = 0");
            assertThat(queryColumn(statement, "SELECT count(*) FROM lake.items")).containsExactly("900");
            assertThat(queryColumn(statement, "SELECT count(*) FROM lake.items AT (VERSION => 2)")).containsExactly("1000");
            assertThat(queryColumn(statement, "SELECT count(*) FROM ducklake_snapshots('lake')")).containsExactly("4");
        }
        try (Connection connection = DuckDbTesting.openWithDuckLake(); Statement statement = connection.createStatement()) {
            DuckDbTesting.attachLake(connection, "lake", catalog, data);
            assertThat(queryColumn(statement, "SELECT sum(id) FROM lake.items")).containsExactly(Long.toString(499500 - 49500));
        }
        try (var files = Files.walk(data)) {
            assertThat(files.filter(p -> p.toString().endsWith(".parquet")).count()).isGreaterThanOrEqualTo(2);
        }
    }

    private static List<String> queryColumn(Statement statement, String sql)
            throws Exception
    {
        List<String> values = new ArrayList<>();
        try (ResultSet resultSet = statement.executeQuery(sql)) {
            while (resultSet.next()) {
                values.add(resultSet.getString(1));
            }
        }
        return values;
    }
}
