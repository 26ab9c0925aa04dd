package io.moraine.core.write.maintenance;

import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.store.KeyValueReader;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** Every row of the catalog's tables (current and history) as one store view holds them, each table read once. */
final class CatalogRows
{
    private final MoraineCatalog catalog;
    private final KeyValueReader reader;
    private final Map<TableKind, List<Row>> read = new EnumMap<>(TableKind.class);

    CatalogRows(MoraineCatalog catalog, KeyValueReader reader)
    {
        this.catalog = catalog;
        this.reader = reader;
    }

    List<Row> of(TableKind kind)
    {
        return read.computeIfAbsent(kind, k -> catalog.everyRow(reader, k));
    }
}
