package io.moraine.core.catalog;

import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.store.StoreUri;

import java.util.List;
import java.util.UUID;

/** Small helpers shared by the catalog tests. */
final class CatalogTestSupport
{
    private CatalogTestSupport() {}

    static StoreUri memoryStore(String name)
    {
        return StoreUri.parse("memory://" + name + "-" + UUID.randomUUID());
    }

    static MoraineCatalog newCatalog(StoreUri uri)
    {
        return MoraineCatalog.create(uri, NewCatalog.bootstrapped("/lake/data"));
    }

    static List<Row> scan(MoraineCatalog catalog, TableKind kind, RowScope scope)
    {
        return catalog.scan(kind, scope).toList();
    }

    /** The snapshot row DuckLake would add on top of {@code previous}. */
    static Row nextSnapshot(Row previous, long schemaVersionDelta, long catalogIdsUsed, long fileIdsUsed)
    {
        return SnapshotRows.next(previous, schemaVersionDelta, catalogIdsUsed, fileIdsUsed);
    }

    static Row changes(long snapshotId, String changesMade)
    {
        return SnapshotRows.changes(snapshotId, changesMade);
    }

    static Row table(long tableId, long schemaId, String name, long begin)
    {
        return Row.of(TableKind.TABLE, tableId, UUID.randomUUID(), begin, null, schemaId, name, name + "/", true);
    }

    static Row column(long tableId, long columnId, String name, String type, long begin)
    {
        return Row.of(TableKind.COLUMN, columnId, begin, null, tableId, columnId, name, type, null, "NULL", true, null, "literal", "duckdb");
    }

    static Row dataFile(long tableId, long fileId, long begin, long rowIdStart, long records)
    {
        return Row.of(TableKind.DATA_FILE, fileId, tableId, begin, null, null, "ducklake-" + fileId + ".parquet", true, "parquet",
                records, 1000L + fileId, 100L, rowIdStart, null, null, null, null);
    }

    static Row tableStats(long tableId, long records, long nextRowId, long bytes)
    {
        return Row.of(TableKind.TABLE_STATS, tableId, records, nextRowId, bytes);
    }

    static Row head(MoraineCatalog catalog)
    {
        try (CatalogSnapshot snapshot = catalog.latest()) {
            return snapshot.snapshotRow();
        }
    }
}
