package io.moraine.core.catalog;

import io.moraine.core.row.Row;

/**
 * DuckLake's path resolution (reference §4.2): data_path, then the schema path relative to it, the table path
 * relative to the schema path, and file paths relative to the table path. A NULL path inherits its parent's.
 */
public final class CatalogPaths
{
    private CatalogPaths() {}

    public static String schemaPath(String dataPath, Row schema)
    {
        return resolve(dataPath, schema.getString("path"), (Boolean) schema.get("path_is_relative"));
    }

    public static String tablePath(String dataPath, Row schema, Row table)
    {
        return resolve(schemaPath(dataPath, schema), table.getString("path"), (Boolean) table.get("path_is_relative"));
    }

    /** The full path of a data or delete file row of the table. */
    public static String filePath(String tablePath, Row file)
    {
        return resolve(tablePath, file.getString("path"), (Boolean) file.get("path_is_relative"));
    }

    static String resolve(String parent, String path, Boolean relative)
    {
        if (path == null) {
            return parent;
        }
        return Boolean.TRUE.equals(relative) ? parent + path : path;
    }
}
