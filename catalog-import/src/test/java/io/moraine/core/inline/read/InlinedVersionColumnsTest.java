package io.moraine.core.inline.read;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.row.Row;
import io.moraine.core.scan.InlinedVersionColumns;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreUri;
import io.moraine.core.types.TableColumn;
import io.moraine.core.types.TableSchema;
import io.moraine.importer.OracleImports;
import io.moraine.testing.DuckLakeOracle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Inlined rows keep the column names of the schema version they were written in: after a rename, the version's columns
 * name the column as it was then, under the same column id.
 */
class InlinedVersionColumnsTest
{
    @TempDir
    Path temp;

    @Test
    void aVersionWrittenBeforeARenameNamesTheColumnAsItWasThen()
            throws Exception
    {
        StoreUri store = StoreUri.parse(temp.resolve("store").toString());
        try (DuckLakeOracle oracle = DuckLakeOracle.create(temp.resolve("lake"), DuckLakeOracle.CatalogDatabase.DUCKDB)) {
            oracle.execute("CREATE TABLE lake.t (id INTEGER, name VARCHAR)");
            oracle.execute("INSERT INTO lake.t VALUES (1, 'one')");
            oracle.execute("ALTER TABLE lake.t RENAME COLUMN name TO label");
            oracle.execute("INSERT INTO lake.t VALUES (2, 'two')");
            OracleImports.importInto(oracle, temp.resolve("copy.ducklake"), store);
        }
        try (MoraineCatalog catalog = MoraineCatalog.open(store, OpenMode.READ_ONLY); CatalogSnapshot head = catalog.latest()) {
            long tableId = head.table("main", "t").orElseThrow().getLong("table_id");
            TableColumn label = TableSchema.of(head.columnTree(tableId)).column("label").orElseThrow();
            List<Long> versions = head.inlinedDataTables(tableId).stream().map(row -> row.getLong("schema_version")).sorted().toList();
            assertThat(versions).hasSize(2);

            TableSchema beforeRename = InlinedVersionColumns.of(head, tableId, versions.getFirst()).orElseThrow();
            assertThat(beforeRename.column(label.columnId()).map(TableColumn::name)).contains("name");
            TableSchema afterRename = InlinedVersionColumns.of(head, tableId, versions.getLast()).orElseThrow();
            assertThat(afterRename.column(label.columnId()).map(TableColumn::name)).contains("label");
            assertThat(InlinedVersionColumns.of(head, tableId, head.schemaVersion() + 1)).as("a version newer than the snapshot").isEmpty();
        }
    }

    @Test
    void aSnapshotBeforeTheVersionDoesNotSeeIt()
            throws Exception
    {
        StoreUri store = StoreUri.parse(temp.resolve("store").toString());
        try (DuckLakeOracle oracle = DuckLakeOracle.create(temp.resolve("lake"), DuckLakeOracle.CatalogDatabase.DUCKDB)) {
            oracle.execute("CREATE TABLE lake.t (id INTEGER)");
            oracle.execute("INSERT INTO lake.t VALUES (1)");
            oracle.execute("ALTER TABLE lake.t ADD COLUMN extra VARCHAR");
            oracle.execute("INSERT INTO lake.t VALUES (2, 'x')");
            OracleImports.importInto(oracle, temp.resolve("copy.ducklake"), store);
        }
        try (MoraineCatalog catalog = MoraineCatalog.open(store, OpenMode.READ_ONLY)) {
            long newest;
            long tableId;
            try (CatalogSnapshot head = catalog.latest()) {
                tableId = head.table("main", "t").orElseThrow().getLong("table_id");
                newest = head.inlinedDataTables(tableId).stream().mapToLong(row -> row.getLong("schema_version")).max().orElseThrow();
            }
            try (CatalogSnapshot first = catalog.at(firstSnapshotWithTable(catalog, tableId))) {
                assertThat(first.schemaVersion()).isLessThan(newest);
                assertThat(InlinedVersionColumns.of(first, tableId, newest)).isEmpty();
            }
        }
    }

    private static long firstSnapshotWithTable(MoraineCatalog catalog, long tableId)
    {
        try (CatalogSnapshot head = catalog.latest()) {
            Row table = head.table(tableId).orElseThrow();
            return table.getLong("begin_snapshot");
        }
    }
}
