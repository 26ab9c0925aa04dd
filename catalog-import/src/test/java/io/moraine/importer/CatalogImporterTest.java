package io.moraine.importer;

import io.moraine.core.catalog.CatalogDump;
import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.catalog.NewCatalog;
import io.moraine.core.row.Row;
import io.moraine.core.catalog.RowScope;
import io.moraine.core.row.TableKind;
import io.moraine.core.error.AlreadyExistsException;
import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.error.MigrationException;
import io.moraine.core.error.NotFoundException;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreUri;
import io.moraine.testing.DuckDbTesting;
import io.moraine.testing.DuckLakeOracle;
import io.moraine.testing.DuckLakeOracle.CatalogDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Real DuckLake catalogs in, moraine stores out: every catalog row equal to its source. */
class CatalogImporterTest
{
    @TempDir
    Path temp;

    @ParameterizedTest
    @EnumSource(CatalogDatabase.class)
    void importedRowsEqualTheSourceCatalogsRowsInEveryTable(CatalogDatabase database)
            throws Exception
    {
        Map<TableKind, List<String>> expected = new EnumMap<>(TableKind.class);
        String spec;
        try (DuckLakeOracle oracle = DuckLakeOracle.create(temp, database)) {
            oracle.runWorkload();
            for (TableKind kind : TableKind.values()) {
                expected.put(kind, oracle.catalogCsv(kind));
            }
            assertThat(expected.get(TableKind.DATA_FILE)).as("the workload wrote Parquet").hasSizeGreaterThan(2);
            assertThat(expected.get(TableKind.DELETE_FILE)).as("the workload wrote delete files").hasSizeGreaterThan(1);
            assertThat(expected.get(TableKind.COLUMN)).as("the workload has history").anyMatch(line -> !line.endsWith(","));
            spec = oracle.catalogSpec();
            oracle.detach();
        }

        StoreUri store = StoreUri.parse(temp.resolve("imported").toString());
        List<String> progress = new ArrayList<>();
        CatalogImporter.Result result = CatalogImporter.importCatalog(DuckLakeSource.parse(spec), store, Optional.empty(),
                (table, rows) -> progress.add(table + "=" + rows));
        for (TableKind kind : TableKind.values()) {
            assertThat(progress).anyMatch(line -> line.startsWith(kind.tableName() + "="));
        }
        assertThat(result.totalRows()).isPositive();

        try (MoraineCatalog catalog = MoraineCatalog.open(store, OpenMode.READ_ONLY)) {
            for (TableKind kind : TableKind.values()) {
                StringWriter dump = new StringWriter();
                CatalogDump.writeCsv(catalog, kind, dump);
                List<String> lines = new ArrayList<>(List.of(dump.toString().split("\n")));
                assertThat(lines.getFirst()).as(kind.tableName() + " header").isEqualTo(expected.get(kind).getFirst());
                assertThat(sorted(lines.subList(1, lines.size()))).as(kind.tableName())
                        .isEqualTo(sorted(expected.get(kind).subList(1, expected.get(kind).size())));
            }
            assertThat(catalog.headSnapshotId()).hasValue(result.headSnapshotId());

            // The import writes the snapshot-time index: every snapshot is found by its own time.
            for (Row snapshot : catalog.scan(TableKind.SNAPSHOT, RowScope.CURRENT).toList()) {
                Instant time = (Instant) snapshot.get("snapshot_time");
                long id = snapshot.getLong("snapshot_id");
                try (CatalogSnapshot asOf = catalog.asOf(time)) {
                    assertThat(asOf.time()).isEqualTo(time);
                    assertThat(asOf.id()).as("as of the time of snapshot " + id).isGreaterThanOrEqualTo(id);
                }
                assertThat(catalog.firstSnapshotAtOrAfter(time).orElseThrow()).as("first at the time of snapshot " + id).isLessThanOrEqualTo(id);
            }
        }
    }

    @Test
    void inlinedRowsAndInlinedDeletesGoToTheInlineSubspace()
            throws Exception
    {
        String spec;
        try (DuckLakeOracle oracle = DuckLakeOracle.create(temp, CatalogDatabase.DUCKDB)) {
            oracle.execute("CREATE TABLE lake.t (a INTEGER, b VARCHAR)");
            oracle.execute("INSERT INTO lake.t VALUES (1, 'x'), (2, 'y'), (3, 'z')");
            oracle.execute("DELETE FROM lake.t WHERE a = 2");
            oracle.execute("CREATE TABLE lake.p (a INTEGER)");
            oracle.execute("INSERT INTO lake.p SELECT range FROM range(100)");
            oracle.execute("DELETE FROM lake.p WHERE a IN (3, 4)");
            spec = oracle.catalogSpec();
            oracle.detach();
        }
        StoreUri store = StoreUri.parse("memory://inlined-" + UUID.randomUUID());
        List<String> progress = new ArrayList<>();
        CatalogImporter.importCatalog(DuckLakeSource.parse(spec), store, Optional.empty(), (table, rows) -> progress.add(table + "=" + rows));
        assertThat(progress).contains("ducklake_inlined_data_1_1=3", "ducklake_inlined_delete_2=0");
        try (MoraineCatalog catalog = MoraineCatalog.open(store, OpenMode.READ_ONLY)) {
            assertThat(count(catalog, io.moraine.core.keyspace.InlineKeys.INSERT, 1)).isEqualTo(1);
            assertThat(count(catalog, io.moraine.core.keyspace.InlineKeys.CHUNK_LOCATOR, 1)).isEqualTo(1);
            assertThat(count(catalog, io.moraine.core.keyspace.InlineKeys.ROW_TOMBSTONE, 1)).isEqualTo(1);
            assertThat(count(catalog, io.moraine.core.keyspace.InlineKeys.FILE_DELETE, 2)).isEqualTo(2);
            assertThat(count(catalog, io.moraine.core.keyspace.InlineKeys.FILE_DELETE_TABLE, 2)).isEqualTo(1);
        }
    }

    private static long count(MoraineCatalog catalog, byte kind, long tableId)
    {
        byte[] prefix = io.moraine.core.keyspace.InlineKeys.prefix(kind, tableId);
        long count = 0;
        try (var cursor = catalog.store().latest().scan(prefix, io.moraine.core.keyspace.KeyWriter.prefixEnd(prefix), 100)) {
            while (cursor.hasNext()) {
                cursor.next();
                count++;
            }
        }
        return count;
    }

    @Test
    void badSourcesAndTargetsEndWithAClearMessageAndNoPartialStore()
            throws Exception
    {
        assertThatThrownBy(() -> DuckLakeSource.parse("ducklake:" + temp.resolve("missing.ducklake")))
                .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("does not exist");
        assertThatThrownBy(() -> DuckLakeSource.parse("/some/file.ducklake"))
                .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("ducklake:sqlite:");
        assertThatThrownBy(() -> DuckLakeSource.parse("ducklake:mysql:db=x"))
                .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("unsupported catalog database 'mysql'");

        Path notALake = temp.resolve("plain.duckdb");
        try (Connection connection = DuckDbTesting.openWithDuckLake(); Statement statement = connection.createStatement()) {
            statement.execute("ATTACH '" + notALake + "' AS plain");
            statement.execute("CREATE TABLE plain.things (a INTEGER)");
        }
        assertThatThrownBy(() -> CatalogImporter.importCatalog(DuckLakeSource.parse("ducklake:duckdb:" + notALake),
                StoreUri.parse("memory://x-" + UUID.randomUUID()), Optional.empty(), CatalogImporter.Progress.SILENT))
                .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("not a DuckLake catalog");

        Path garbage = Files.writeString(temp.resolve("garbage.ducklake"), "this is not a database");
        assertThatThrownBy(() -> CatalogImporter.importCatalog(DuckLakeSource.parse("ducklake:" + garbage),
                StoreUri.parse("memory://y-" + UUID.randomUUID()), Optional.empty(), CatalogImporter.Progress.SILENT))
                .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("cannot open source catalog");

        String spec;
        Path catalogFile;
        try (DuckLakeOracle oracle = DuckLakeOracle.create(temp.resolve("lake"), CatalogDatabase.DUCKDB)) {
            oracle.execute("CREATE TABLE lake.t (a INTEGER)");
            spec = oracle.catalogSpec();
            catalogFile = Path.of(spec.substring("ducklake:".length()));
            oracle.detach();
        }
        DuckLakeSource source = DuckLakeSource.parse(spec);

        StoreUri occupied = StoreUri.parse("memory://occupied-" + UUID.randomUUID());
        MoraineCatalog.create(occupied, NewCatalog.bootstrapped("/x")).close();
        assertThatThrownBy(() -> CatalogImporter.importCatalog(source, occupied, Optional.empty(), CatalogImporter.Progress.SILENT))
                .isInstanceOf(AlreadyExistsException.class).hasMessageContaining("not empty");

        StoreUri interrupted = StoreUri.parse(temp.resolve("interrupted").toString());
        assertThatThrownBy(() -> CatalogImporter.importCatalog(source, interrupted, Optional.empty(), CatalogImporter.Progress.SILENT,
                (snapshot, writes) -> {
                    throw new IllegalStateException("import interrupted before its batch");
                })).hasMessageContaining("interrupted");
        assertThatThrownBy(() -> MoraineCatalog.open(interrupted, OpenMode.READ_WRITE)).isInstanceOf(NotFoundException.class);
        CatalogImporter.Result retried = CatalogImporter.importCatalog(source, interrupted, Optional.of("/moved/data"), CatalogImporter.Progress.SILENT);
        try (MoraineCatalog catalog = MoraineCatalog.open(interrupted, OpenMode.READ_ONLY)) {
            assertThat(catalog.facts().get("data_path")).isEqualTo("/moved/data/");
            assertThat(catalog.headSnapshotId()).hasValue(retried.headSnapshotId());
        }

        try (Connection connection = DuckDbTesting.openWithDuckLake(); Statement statement = connection.createStatement()) {
            statement.execute("ATTACH '" + catalogFile + "' AS meta");
            statement.execute("UPDATE meta.ducklake_metadata SET value = '0.3' WHERE key = 'version'");
        }
        assertThatThrownBy(() -> CatalogImporter.importCatalog(source, StoreUri.parse("memory://old-" + UUID.randomUUID()),
                Optional.empty(), CatalogImporter.Progress.SILENT))
                .isInstanceOf(MigrationException.class).hasMessageContaining("format 0.3").hasMessageContaining("AUTOMATIC_MIGRATION");
    }

    private static List<String> sorted(List<String> lines)
    {
        List<String> copy = new ArrayList<>(lines);
        Collections.sort(copy);
        return copy;
    }
}
