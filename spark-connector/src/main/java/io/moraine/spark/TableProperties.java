package io.moraine.spark;

import io.moraine.core.write.LakeOptions;
import org.apache.spark.sql.connector.catalog.TableCatalog;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Spark table properties on a moraine table: {@code comment} is the table's comment, DuckLake's table options
 * ({@link LakeOptions#SUPPORTED}, e.g. {@code data_inlining_row_limit}) are set on the table, the properties Spark adds
 * by itself are ignored, and any other property is refused.
 */
final class TableProperties
{
    /** Set by Spark itself, or carrying nothing DuckLake stores. */
    private static final Set<String> IGNORED = Set.of(TableCatalog.PROP_OWNER, TableCatalog.PROP_PROVIDER, TableCatalog.PROP_EXTERNAL,
            TableCatalog.PROP_IS_MANAGED_LOCATION, TableCatalog.PROP_COMMENT, "moraine.table-id", "moraine.snapshot-id");

    private TableProperties() {}

    /** The lake options among {@code properties}, refusing unknown ones and a location. */
    static Map<String, String> lakeOptions(Map<String, String> properties, String table)
    {
        Map<String, String> options = new LinkedHashMap<>();
        properties.forEach((key, value) -> {
            if (key.equals(TableCatalog.PROP_LOCATION)) {
                throw SparkErrors.unsupported("table " + table + " is given a LOCATION; DuckLake places a table's files under the lake's data path itself");
            }
            if (LakeOptions.SUPPORTED.contains(key)) {
                options.put(key, value);
            }
            else if (!IGNORED.contains(key) && !key.startsWith("option.")) {
                throw SparkErrors.unsupported("table property '" + key + "' on " + table + " means nothing to moraine; use comment or a DuckLake option: "
                        + String.join(", ", LakeOptions.SUPPORTED));
            }
        });
        return options;
    }
}
