package io.moraine.testing;

import org.duckdb.DuckDBStruct;
import org.duckdb.JsonNode;

import java.sql.Array;
import java.sql.Blob;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * DuckDB + DuckLake's rows of a table at a snapshot, every cell in {@link CanonicalText}. Each column is selected as
 * itself, except GEOMETRY, which is selected as its WKB (what a connector reading it as binary returns). INTERVAL
 * arrives from DuckDB's driver as DuckDB's text for it ({@code 1 day}, {@code 01:00:00}), the text a connector that
 * reads interval as varchar must produce.
 */
public final class DuckDbCanonicalRows
{
    private static final Pattern GEOMETRY = Pattern.compile("\\bGEOMETRY\\b");
    private static final Pattern VARIANT = Pattern.compile("\\bVARIANT\\b");

    private DuckDbCanonicalRows() {}

    /** The rows of {@code table} at {@code snapshot} with only {@code where} (SQL, or empty) applied, in no order. */
    public static List<List<String>> read(DuckLakeOracle oracle, LakeTable table, long snapshot, List<LakeColumn> columns, String where)
            throws SQLException
    {
        return readExpressions(oracle, table, snapshot, columns.stream().map(column -> expression(table, column)).toList(), where);
    }

    /** The values of SQL expressions (e.g. a nested field, {@code "s"."a"}) over {@code table} at {@code snapshot}, in no order. */
    public static List<List<String>> readExpressions(DuckLakeOracle oracle, LakeTable table, long snapshot, List<String> expressions, String where)
            throws SQLException
    {
        String sql = "SELECT " + String.join(", ", expressions) + " FROM " + table.sqlName("lake") + " AT (VERSION => " + snapshot + ")"
                + (where.isEmpty() ? "" : " WHERE " + where);
        List<List<String>> rows = new ArrayList<>();
        try (Statement statement = oracle.connection().createStatement(); ResultSet result = statement.executeQuery(sql)) {
            while (result.next()) {
                List<String> row = new ArrayList<>(expressions.size());
                for (int i = 1; i <= expressions.size(); i++) {
                    row.add(CanonicalText.of(plain(result.getObject(i))));
                }
                rows.add(row);
            }
        }
        catch (SQLException e) {
            throw new SQLException("DuckDB could not read " + table + " at snapshot " + snapshot + ": " + sql + ": " + e.getMessage(), e);
        }
        return rows;
    }

    /** The rows of any query of the oracle, every cell in {@link CanonicalText}, in no order. */
    public static List<List<String>> query(DuckLakeOracle oracle, String sql)
            throws SQLException
    {
        List<List<String>> rows = new ArrayList<>();
        try (Statement statement = oracle.connection().createStatement(); ResultSet result = statement.executeQuery(sql)) {
            int width = result.getMetaData().getColumnCount();
            while (result.next()) {
                List<String> row = new ArrayList<>(width);
                for (int i = 1; i <= width; i++) {
                    row.add(CanonicalText.of(plain(result.getObject(i))));
                }
                rows.add(row);
            }
        }
        catch (SQLException e) {
            throw new SQLException("DuckDB could not run " + sql + ": " + e.getMessage(), e);
        }
        return rows;
    }

    /** How a column is selected so that its cells compare with an engine's: itself, or GEOMETRY as its WKB. */
    public static String expression(LakeTable table, LakeColumn column)
    {
        String type = column.duckdbType();
        if (type.equals("GEOMETRY")) {
            return "ST_AsWKB(" + column.sqlName() + ")";
        }
        if (GEOMETRY.matcher(type).find() || VARIANT.matcher(type).find()) {
            // VARIANT has no single binary form to compare, and GEOMETRY nested in another type no DuckDB cast to WKB.
            throw new UnsupportedOperationException("column " + column.name() + " of " + table + " has type " + type
                    + ", which the oracle comparison cannot render yet; compare it with a query of its own");
        }
        return column.sqlName();
    }

    /** A DuckDB JDBC value in {@link CanonicalText}. */
    public static String cell(Object value)
            throws SQLException
    {
        return CanonicalText.of(plain(value));
    }

    /** DuckDB's JDBC values as the plain Java values {@link CanonicalText} takes. */
    private static Object plain(Object value)
            throws SQLException
    {
        return switch (value) {
            case null -> null;
            case Timestamp timestamp -> timestamp.toLocalDateTime();
            case Blob blob -> blob.getBytes(1, (int) blob.length());
            case JsonNode json -> json.toString();
            case Array array -> {
                List<Object> elements = new ArrayList<>();
                for (Object element : (Object[]) array.getArray()) {
                    elements.add(plain(element));
                }
                yield elements;
            }
            case DuckDBStruct struct -> {
                Map<String, Object> fields = new LinkedHashMap<>();
                for (Map.Entry<String, Object> field : struct.getMap().entrySet()) {
                    fields.put(field.getKey(), plain(field.getValue()));
                }
                yield new CanonicalText.Struct(fields);
            }
            case Map<?, ?> map -> {
                Map<Object, Object> entries = new LinkedHashMap<>();
                for (Map.Entry<?, ?> entry : map.entrySet()) {
                    entries.put(plain(entry.getKey()), plain(entry.getValue()));
                }
                yield entries;
            }
            default -> value;
        };
    }
}
