package io.moraine.cli.cat;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.LakeTable;

/** A table's name as DuckLake writes it, {@code schema.table}, for errors about its files. */
final class TableNames
{
    private TableNames() {}

    /** The name of table {@code tableId} at {@code snapshot}, or {@code table <id>} when the snapshot does not have it. */
    static String of(CatalogSnapshot snapshot, long tableId)
    {
        return snapshot.model().table(tableId).map(LakeTable::qualifiedName).orElse("table " + tableId);
    }
}
