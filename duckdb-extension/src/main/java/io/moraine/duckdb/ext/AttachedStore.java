package io.moraine.duckdb.ext;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.ColumnNode;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.catalog.Row;
import io.moraine.core.catalog.TableKind;
import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.error.NotFoundException;
import io.moraine.core.store.OpenMode;
import io.moraine.duckdb.DuckDbTypes;
import io.moraine.inline.InlinedTables;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One ATTACH of a moraine store: the open catalog and the tables it shows. Schema {@code main} holds the ducklake_*
 * tables and the live inlined tables, which are served row for row; the lake's user tables appear in their own
 * schemas, described but not scanned (their data is read through DuckLake).
 */
final class AttachedStore
        implements AutoCloseable
{
    static final String METADATA_SCHEMA = "main";
    private static final char SEPARATOR = '\u001f';

    private final MoraineCatalog catalog;
    private final Map<String, ServedTable> served = new LinkedHashMap<>();

    private AttachedStore(MoraineCatalog catalog)
    {
        this.catalog = catalog;
        for (TableKind kind : TableKind.values()) {
            served.put(kind.tableName(), new CatalogTable(catalog, kind));
        }
        for (InlinedTables.DataTable table : InlinedTables.dataTables(catalog.store().latest())) {
            served.put(table.tableName(), new InlinedDataTable(catalog, table));
        }
        for (InlinedTables.DeleteTable table : InlinedTables.deleteTables(catalog.store().latest())) {
            served.put(table.tableName(), new InlinedDeleteTable(catalog, table));
        }
    }

    static AttachedStore open(AttachRequest request)
    {
        MoraineCatalog catalog;
        try {
            catalog = MoraineCatalog.open(request.store(), request.mode(), request.options());
        }
        catch (NotFoundException e) {
            if (request.mode() == OpenMode.READ_WRITE) {
                throw e;
            }
            throw new NotFoundException(e.getMessage() + " A " + request.mode() + " attach never creates a store: create one with "
                    + "`bin/moraine import --source ducklake:<catalog> --store " + request.store() + "` (or attach it READ_WRITE; on s3:// DuckDB attaches "
                    + "READ_ONLY unless READ_WRITE is given).", e);
        }
        try {
            return new AttachedStore(catalog);
        }
        catch (RuntimeException e) {
            catalog.close();
            throw e;
        }
    }

    MoraineCatalog catalog()
    {
        return catalog;
    }

    /**
     * One line per table: schema, name and "1" for a served table (its columns come as an Arrow schema), or "0"
     * followed by a user table's column names and DuckDB types, separated by U+001F.
     */
    String[] listing()
    {
        List<String> lines = new ArrayList<>();
        for (String name : served.keySet()) {
            lines.add(METADATA_SCHEMA + SEPARATOR + name + SEPARATOR + "1");
        }
        try (CatalogSnapshot snapshot = catalog.latest()) {
            Map<Long, String> schemas = new LinkedHashMap<>();
            for (Row schema : snapshot.schemas()) {
                schemas.put(schema.getLong("schema_id"), schema.getString("schema_name"));
            }
            for (Row table : snapshot.tables()) {
                StringBuilder line = new StringBuilder(schemas.get(table.getLong("schema_id"))).append(SEPARATOR)
                        .append(table.getString("table_name")).append(SEPARATOR).append('0');
                for (ColumnNode column : snapshot.columnTree(table.getLong("table_id"))) {
                    line.append(SEPARATOR).append(column.name()).append(SEPARATOR).append(DuckDbTypes.of(column));
                }
                lines.add(line.toString());
            }
        }
        catch (NotFoundException e) {
            // A store without snapshots yet has no user tables.
        }
        return lines.toArray(String[]::new);
    }

    ServedTable served(String schema, String table)
    {
        ServedTable found = schema.equalsIgnoreCase(METADATA_SCHEMA) ? served.get(table.toLowerCase(Locale.ROOT)) : null;
        if (found == null) {
            throw new InvalidArgumentException("table " + schema + "." + table + " is lake data, not catalog metadata: the standalone "
                    + "moraine attach serves the ducklake_* tables and the inlined tables only. Read the table through DuckLake instead: "
                    + "ATTACH 'ducklake:moraine:" + catalog.uri() + "' AS lake (DATA_PATH '" + dataPath() + "'), then "
                    + "SELECT ... FROM lake." + schema + "." + table);
        }
        return found;
    }

    private String dataPath()
    {
        String path = catalog.facts().get("data_path");
        return path == null ? "<data path>" : path;
    }

    @Override
    public void close()
    {
        catalog.close();
    }
}
