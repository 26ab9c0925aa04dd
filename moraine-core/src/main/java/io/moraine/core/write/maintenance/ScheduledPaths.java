package io.moraine.core.write.maintenance;

import io.moraine.core.catalog.CatalogPaths;
import io.moraine.core.error.CorruptionException;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;

import java.util.HashMap;
import java.util.Map;

/**
 * Paths in {@code ducklake_files_scheduled_for_deletion}, as DuckLake writes and reads them: a data or delete file's
 * full path (under its table's path, found from the first schema and table rows of the table, as DuckLake's
 * {@code GetPath} finds a dropped table's), stored relative to {@code data_path} when it lies under it.
 */
final class ScheduledPaths
{
    private final String dataPath;
    private final CatalogRows rows;
    private final Map<Long, String> tablePaths = new HashMap<>();

    ScheduledPaths(String dataPath, CatalogRows rows)
    {
        this.dataPath = dataPath;
        this.rows = rows;
    }

    /** The path and path_is_relative a scheduled row holds for data or delete file {@code file}. */
    Stored stored(Row file)
    {
        String full = CatalogPaths.filePath(tablePath(file.getLong("table_id")), file);
        return full.startsWith(dataPath) ? new Stored(full.substring(dataPath.length()), true) : new Stored(full, false);
    }

    /** The full path of a scheduled row's file. */
    String resolve(Row scheduled)
    {
        String path = scheduled.getString("path");
        return Boolean.TRUE.equals(scheduled.get("path_is_relative")) ? dataPath + path : path;
    }

    private String tablePath(long tableId)
    {
        return tablePaths.computeIfAbsent(tableId, id -> {
            Row table = rows.of(TableKind.TABLE).stream().filter(row -> row.getLong("table_id") == id).findFirst()
                    .orElseThrow(() -> missing("ducklake_table has no row of table " + id));
            long schemaId = table.getLong("schema_id");
            Row schema = rows.of(TableKind.SCHEMA).stream().filter(row -> row.getLong("schema_id") == schemaId).findFirst()
                    .orElseThrow(() -> missing("ducklake_schema has no row of schema " + schemaId + " (of table " + id + ")"));
            return CatalogPaths.tablePath(dataPath, schema, table);
        });
    }

    private static CorruptionException missing(String what)
    {
        return new CorruptionException(what + ", yet files of the table are listed; the catalog is inconsistent — run bin/moraine verify on the store");
    }

    record Stored(String path, boolean relative) {}
}
