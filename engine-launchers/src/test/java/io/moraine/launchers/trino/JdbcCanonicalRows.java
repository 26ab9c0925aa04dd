package io.moraine.launchers.trino;

import io.moraine.testing.CanonicalText;
import io.trino.jdbc.Row;
import io.trino.jdbc.RowField;

import java.sql.Array;
import java.sql.Connection;
import java.sql.Date;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Rows Trino's JDBC driver returns, every cell in {@link CanonicalText}: what a Trino server in another process read, in
 * the text the oracle's rows ({@code DuckDbCanonicalRows}) are in. The driver gives a timestamp with time zone as a
 * {@code Timestamp} at its instant, a timestamp as a {@code Timestamp} of its local date-time, a uuid as its text, an
 * array as a {@code java.sql.Array}, a row as its {@code Row}; each is turned into the plain Java value
 * {@code CanonicalText} takes, by the column's Trino type.
 */
final class JdbcCanonicalRows
{
    private JdbcCanonicalRows() {}

    static List<List<String>> query(Connection connection, String sql)
            throws SQLException
    {
        List<List<String>> rows = new ArrayList<>();
        try (Statement statement = connection.createStatement(); ResultSet result = statement.executeQuery(sql)) {
            ResultSetMetaData metaData = result.getMetaData();
            int width = metaData.getColumnCount();
            while (result.next()) {
                List<String> row = new ArrayList<>(width);
                for (int i = 1; i <= width; i++) {
                    row.add(CanonicalText.of(plain(metaData.getColumnTypeName(i), result.getObject(i))));
                }
                rows.add(row);
            }
        }
        catch (SQLException e) {
            throw new SQLException("Trino could not run " + sql + ": " + e.getMessage(), e);
        }
        return rows;
    }

    private static Object plain(String type, Object value)
            throws SQLException
    {
        return switch (value) {
            case null -> null;
            case Timestamp timestamp when type.endsWith("with time zone") -> timestamp.toInstant();
            case Timestamp timestamp -> timestamp.toLocalDateTime();
            case Date date -> date.toLocalDate();
            case String text when type.equals("uuid") -> UUID.fromString(text);
            case Array array -> nested(Arrays.asList((Object[]) array.getArray()));
            case List<?> list -> nested(list);
            case Map<?, ?> map -> {
                Map<Object, Object> entries = new LinkedHashMap<>();
                for (Map.Entry<?, ?> entry : map.entrySet()) {
                    entries.put(plain("", entry.getKey()), plain("", entry.getValue()));
                }
                yield entries;
            }
            case Row row -> {
                Map<String, Object> fields = new LinkedHashMap<>();
                for (RowField field : row.getFields()) {
                    fields.put(field.getName().orElseThrow(), plain("", field.getValue()));
                }
                yield new CanonicalText.Struct(fields);
            }
            default -> value;
        };
    }

    /** Nested values are read without their Trino type: the oracle workload nests only text and integers. */
    private static List<Object> nested(List<?> values)
            throws SQLException
    {
        List<Object> plain = new ArrayList<>(values.size());
        for (Object value : values) {
            plain.add(plain("", value));
        }
        return plain;
    }
}
