package io.moraine.core.catalog;

import io.moraine.core.error.NotFoundException;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;

import static java.util.Objects.requireNonNull;

/**
 * Resolves the data and delete file paths of one table ({@link CatalogPaths}) and checks each against the
 * {@link AllowedLocations} before anything reads it: the one place the Scan API and the change feed take file paths
 * from, so every engine gets the check.
 */
public final class TableFileLocations
{
    private final String dataPath;
    private final String tablePath;
    // The innermost absolute path a relative file path of the table resolves against.
    private final String root;
    private final AllowedLocations allowed;

    private TableFileLocations(String dataPath, String tablePath, String root, AllowedLocations allowed)
    {
        this.dataPath = dataPath;
        this.tablePath = tablePath;
        this.root = root;
        this.allowed = requireNonNull(allowed, "allowed is null");
    }

    /** The locations of table {@code tableId} at {@code snapshot}, its relative paths under {@code dataPath}. */
    public static TableFileLocations forTable(CatalogSnapshot snapshot, String dataPath, long tableId, AllowedLocations allowed)
    {
        Row table = snapshot.table(tableId).orElseThrow(() -> new NotFoundException("table " + tableId + " is not visible at snapshot " + snapshot.id()));
        Row schema = snapshot.visible(TableKind.SCHEMA, table.getLong("schema_id")).toList().getFirst();
        return of(dataPath, schema, table, allowed);
    }

    /** The locations of the table with rows {@code schema} and {@code table}. */
    public static TableFileLocations of(String dataPath, Row schema, Row table, AllowedLocations allowed)
    {
        return new TableFileLocations(dataPath, CatalogPaths.tablePath(dataPath, schema, table), root(dataPath, schema, table), allowed);
    }

    /** The innermost absolute path of the chain data path, schema path, table path. */
    static String root(String dataPath, Row schema, Row table)
    {
        if (isAbsolute(table)) {
            return CatalogPaths.tablePath(dataPath, schema, table);
        }
        if (isAbsolute(schema)) {
            return CatalogPaths.schemaPath(dataPath, schema);
        }
        return dataPath;
    }

    private static boolean isAbsolute(Row row)
    {
        return row.getString("path") != null && !Boolean.TRUE.equals(row.get("path_is_relative"));
    }

    public String tablePath()
    {
        return tablePath;
    }

    /** The table's path relative paths resolve under. */
    public String dataPath()
    {
        return dataPath;
    }

    /** The resolved path of data or delete file row {@code file}, checked before it is read. */
    public String readPath(Row file)
    {
        String path = CatalogPaths.filePath(tablePath, file);
        allowed.checkRegistered(path, isAbsolute(file) ? path : root, dataPath, "read " + kindOf(file));
        return path;
    }

    /** The resolved path of a data or delete file row a commit registers, checked. */
    public String newPath(Row file)
    {
        String path = CatalogPaths.filePath(tablePath, file);
        allowed.checkNew(path, isAbsolute(file) ? path : root, dataPath, "register " + kindOf(file));
        return path;
    }

    private static String kindOf(Row file)
    {
        return file.kind() == TableKind.DELETE_FILE ? "delete file " + file.getLong("delete_file_id") : "data file " + file.getLong("data_file_id");
    }
}
