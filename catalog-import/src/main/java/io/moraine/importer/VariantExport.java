package io.moraine.importer;

import io.moraine.core.error.UnsupportedFeatureException;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * DuckDB 1.5 cannot export VARIANT through Arrow ("Unsupported type in DuckDB -> Arrow Conversion"), so a query's
 * VARIANT columns are re-projected as their Variant binary encoding: {@code variant_to_parquet_variant} gives the
 * unshredded (metadata, value) pair, cast to a plain struct that Arrow export knows.
 */
final class VariantExport
{
    private VariantExport() {}

    /** The query's result columns, in order, with their DuckDB types. */
    static Map<String, String> columnTypes(Connection connection, String query)
            throws SQLException
    {
        Map<String, String> types = new LinkedHashMap<>();
        try (Statement statement = connection.createStatement(); ResultSet resultSet = statement.executeQuery("DESCRIBE " + query)) {
            while (resultSet.next()) {
                types.put(resultSet.getString("column_name"), resultSet.getString("column_type"));
            }
        }
        return types;
    }

    /**
     * The top-level VARIANT columns; a VARIANT nested in a struct, list or map is refused, since only a top-level
     * column can be re-projected.
     */
    static Set<String> variantColumns(String table, Map<String, String> columnTypes)
    {
        for (Map.Entry<String, String> column : columnTypes.entrySet()) {
            if (column.getValue().contains("VARIANT") && !column.getValue().equals("VARIANT")) {
                // DuckDB 1.5 cannot write such a column to Parquet either, so flushing it with DuckDB first is no way out.
                throw new UnsupportedFeatureException("cannot import inlined column " + column.getKey() + " of " + table + " (type "
                        + column.getValue() + "): a VARIANT inside a STRUCT, LIST or MAP is not supported, only a top-level VARIANT "
                        + "column; delete those rows or move the values to a top-level VARIANT column before importing");
            }
        }
        return columnTypes.entrySet().stream()
                .filter(column -> column.getValue().equals("VARIANT"))
                .map(Map.Entry::getKey)
                .collect(Collectors.toSet());
    }

    /** {@code query} with every column in {@code variants} re-projected as its binary encoding (SQL NULL stays NULL). */
    static String exportable(String query, Map<String, String> columnTypes, Set<String> variants)
    {
        List<String> projection = new ArrayList<>();
        for (String column : columnTypes.keySet()) {
            String quoted = DuckDbTypes.quote(column);
            // Without the CASE, SQL NULL would turn into a Variant null value.
            projection.add(variants.contains(column)
                    ? "CASE WHEN " + quoted + " IS NULL THEN NULL ELSE CAST(variant_to_parquet_variant(" + quoted
                            + ") AS STRUCT(metadata BLOB, value BLOB)) END AS " + quoted
                    : quoted);
        }
        return "SELECT " + String.join(", ", projection) + " FROM (" + query + ")";
    }
}
