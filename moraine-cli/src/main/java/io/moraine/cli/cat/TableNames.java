package io.moraine.cli.cat;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.row.Row;

/** A table's name as DuckLake writes it, {@code schema.table}, for errors about its files. */
final class TableNames
{
    private TableNames() {}

    /** The name of table {@code tableId} at {@code snapshot}, or {@code table <id>} when the snapshot does not have it. */
    static String of(CatalogSnapshot snapshot, long tableId)
    {
        return snapshot.table(tableId).map(table -> schemaName(snapshot, table.getLong("schema_id")) + "." + table.getString("table_name"))
                .orElse("table " + tableId);
    }

    private static String schemaName(CatalogSnapshot snapshot, long schemaId)
    {
        return snapshot.schemas().stream().filter(schema -> schema.getLong("schema_id") == schemaId).map(schema -> schema.getString("schema_name")).findFirst()
                .orElse("schema " + schemaId);
    }
}
