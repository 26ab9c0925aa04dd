package io.moraine.core.inline.read;

import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.row.Row;
import io.moraine.core.catalog.RowScope;
import io.moraine.core.row.TableKind;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreUri;
import io.moraine.importer.CatalogImporter;
import io.moraine.importer.DuckLakeSource;
import io.moraine.importer.OracleImports;
import io.moraine.testing.DuckLakeOracle;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.duckdb.DuckDBConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * DuckLake writes and answers; moraine imports the catalog and reads the inlined rows with the inline reader at every
 * snapshot; DuckDB compares the two row sets exactly (EXCEPT ALL both ways), every type included.
 */
class InlineReaderOracleTest
{
    private static final List<String> INLINING_WORKLOAD = List.of(
            "CREATE TABLE lake.t (id INTEGER, name VARCHAR, amount DECIMAL(10, 2), ts TIMESTAMPTZ, tags VARCHAR[], "
                    + "point STRUCT(x DOUBLE, y DOUBLE), attrs MAP(VARCHAR, BIGINT), uid UUID, data BLOB, span INTERVAL)",
            "INSERT INTO lake.t VALUES (1, 'one', 1.50, TIMESTAMPTZ '2026-03-01 12:00:00+00', ['a', 'b'], {'x': 1, 'y': 2}, "
                    + "MAP {'k': 1}, '11111111-1111-1111-1111-111111111111', '\\x01\\x02'::BLOB, INTERVAL 3 DAY), "
                    + "(2, 'two', NULL, NULL, [], NULL, MAP {}, NULL, NULL, NULL), (3, 'three', 3.00, NULL, NULL, {'x': 3, 'y': 4}, NULL, NULL, NULL, INTERVAL 1 MONTH)",
            "INSERT INTO lake.t VALUES (4, 'four', 4.00, NULL, ['d'], NULL, NULL, NULL, NULL, NULL), (5, 'five', 5.00, NULL, NULL, NULL, NULL, NULL, NULL, NULL)",
            "DELETE FROM lake.t WHERE id = 2",
            // Updates re-inline rows under their row ids while other chunks' ranges still cover them.
            "UPDATE lake.t SET name = 'THREE' WHERE id = 3",
            "UPDATE lake.t SET amount = 9.99 WHERE id IN (1, 4)",
            "ALTER TABLE lake.t ADD COLUMN extra INTEGER",
            "INSERT INTO lake.t (id, name, extra) VALUES (6, 'six', 60), (7, 'seven', 70)",
            "DELETE FROM lake.t WHERE id = 6",
            "CREATE TABLE lake.big (id INTEGER, v VARCHAR)",
            "INSERT INTO lake.big SELECT i, 'v' || i FROM range(2000) t(i)",
            // Inlined deletes against a Parquet file.
            "DELETE FROM lake.big WHERE id IN (5, 7, 11)",
            "DELETE FROM lake.big WHERE id = 1999");

    @TempDir
    Path temp;

    private final BufferAllocator allocator = new RootAllocator();

    @AfterEach
    void closeAllocator()
    {
        allocator.close();
    }

    @ParameterizedTest
    @EnumSource(DuckLakeOracle.CatalogDatabase.class)
    void inlinedRowsAtEverySnapshotEqualDuckLakes(DuckLakeOracle.CatalogDatabase database)
            throws Exception
    {
        StoreUri store = StoreUri.parse(temp.resolve("store").toString());
        try (DuckLakeOracle oracle = DuckLakeOracle.create(temp.resolve("lake"), database)) {
            for (String step : INLINING_WORKLOAD) {
                oracle.execute(step);
            }
            String source = oracle.catalogSpec();
            if (database == DuckLakeOracle.CatalogDatabase.DUCKDB) {
                // A DuckDB file is locked by the oracle, which keeps the lake attached to answer queries: import a copy.
                String copySpec = oracle.catalogCopy(temp.resolve("copy.ducklake"));
                source = copySpec;
            }
            CatalogImporter.importCatalog(DuckLakeSource.parse(source), store, Optional.empty(), CatalogImporter.Progress.SILENT);

            try (MoraineCatalog catalog = MoraineCatalog.open(store, OpenMode.READ_ONLY)) {
                List<Row> registrations = catalog.scan(TableKind.INLINED_DATA_TABLES, RowScope.ALL).toList();
                assertThat(registrations).extracting(row -> row.getString("table_name"))
                        .contains("ducklake_inlined_data_1_1", "ducklake_inlined_data_1_2");
                long head = catalog.headSnapshotId().orElseThrow();
                int compared = 0;
                for (long snapshot = 0; snapshot <= head; snapshot++) {
                    for (Row registration : registrations) {
                        compared += compareAtSnapshot(oracle, catalog, registration, snapshot);
                    }
                    compareFileDeletes(oracle, catalog, snapshot);
                }
                assertThat(compared).as("rows compared over all snapshots").isGreaterThan(20);
                // Every version ever inlined, ended ones included, with its derived row_id / begin / end: the whole
                // inlined table as DuckLake holds it.
                for (Row registration : registrations) {
                    assertThat(compareRows(oracle, catalog, registration, new InlineSelection.ForFlush(Long.MAX_VALUE), "TRUE"))
                            .isEqualTo(Long.parseLong(oracle.query("SELECT count(*) FROM __ducklake_metadata_lake."
                                    + registration.getString("table_name")).getFirst().getFirst()));
                }
            }
        }
    }

    @Test
    void expiringInlinedVersionsSplitsChunksAndLeavesWhatDuckLakeLeaves()
            throws Exception
    {
        StoreUri store = StoreUri.parse(temp.resolve("expiry-store").toString());
        try (DuckLakeOracle oracle = DuckLakeOracle.create(temp.resolve("expiry-lake"), DuckLakeOracle.CatalogDatabase.DUCKDB)) {
            for (String step : INLINING_WORKLOAD) {
                oracle.execute(step);
            }
            OracleImports.importInto(oracle, temp.resolve("before-expiry.ducklake"), store);

            List<Row> registrations;
            try (MoraineCatalog catalog = MoraineCatalog.open(store, OpenMode.READ_ONLY)) {
                registrations = catalog.scan(TableKind.INLINED_DATA_TABLES, RowScope.ALL).toList();
            }
            // Expiry deletes the versions no surviving snapshot can see: here, every ended version plus one live row
            // in the middle of a chunk (which splits that chunk). DuckLake issues it as a selective DELETE on the
            // inlined table; run the same DELETE on DuckLake's own table as the oracle.
            Map<String, List<List<String>>> expired = new java.util.HashMap<>();
            for (Row registration : registrations) {
                String table = registration.getString("table_name");
                expired.put(table, oracle.query("SELECT row_id, begin_snapshot FROM __ducklake_metadata_lake." + table
                        + " WHERE end_snapshot IS NOT NULL OR row_id = 1"));
                oracle.execute("DELETE FROM __ducklake_metadata_lake." + table + " WHERE end_snapshot IS NOT NULL OR row_id = 1");
            }
            int removed = 0;
            try (MoraineCatalog catalog = MoraineCatalog.open(store, OpenMode.READ_WRITE)) {
                var expiry = catalog.begin();
                for (Row registration : registrations) {
                    String table = registration.getString("table_name");
                    List<io.moraine.core.tx.InlineOperation.RowVersion> gone = expired.get(table).stream()
                            .map(version -> new io.moraine.core.tx.InlineOperation.RowVersion(Long.parseLong(version.get(0)), Long.parseLong(version.get(1))))
                            .toList();
                    removed += gone.size();
                    if (!gone.isEmpty()) {
                        expiry.expireInlinedVersions(registration.getLong("table_id"), registration.getLong("schema_version"), gone);
                    }
                }
                expiry.commit();
                assertThat(removed).as("versions expired").isGreaterThan(2);
                for (Row registration : registrations) {
                    assertThat(compareRows(oracle, catalog, registration, new InlineSelection.ForFlush(Long.MAX_VALUE), "TRUE"))
                            .isEqualTo(Long.parseLong(oracle.query("SELECT count(*) FROM __ducklake_metadata_lake."
                                    + registration.getString("table_name")).getFirst().getFirst()));
                }
            }
        }
    }

    private int compareAtSnapshot(DuckLakeOracle oracle, MoraineCatalog catalog, Row registration, long snapshot)
            throws Exception
    {
        return (int) compareRows(oracle, catalog, registration, new InlineSelection.AtSnapshot(snapshot),
                snapshot + " >= begin_snapshot AND (" + snapshot + " < end_snapshot OR end_snapshot IS NULL)");
    }

    /** Compares the rows moraine selects with the rows DuckLake's inlined table holds under {@code predicate}. */
    private long compareRows(DuckLakeOracle oracle, MoraineCatalog catalog, Row registration, InlineSelection selection, String predicate)
            throws Exception
    {
        long tableId = registration.getLong("table_id");
        long version = registration.getLong("schema_version");
        String table = registration.getString("table_name");
        List<VectorSchemaRoot> ours = new ArrayList<>();
        ByteArrayOutputStream ipc = new ByteArrayOutputStream();
        long rows = 0;
        try (InlineScan scan = InlineReader.scanVersion(catalog.store().latest(), tableId, version, selection, Optional.empty(), 2, allocator)) {
            ArrowStreamWriter writer = null;
            VectorSchemaRoot sink = null;
            while (scan.hasNext()) {
                InlineBatch batch = scan.next();
                if (batch.schemaVersion() != version) {
                    continue;
                }
                if (writer == null) {
                    sink = VectorSchemaRoot.create(batch.root().getSchema(), allocator);
                    writer = new ArrowStreamWriter(sink, null, ipc);
                    writer.start();
                }
                try (var recordBatch = new org.apache.arrow.vector.VectorUnloader(batch.root()).getRecordBatch()) {
                    new org.apache.arrow.vector.VectorLoader(sink).load(recordBatch);
                }
                writer.writeBatch();
                rows += batch.root().getRowCount();
            }
            if (writer != null) {
                writer.end();
                writer.close();
                sink.close();
            }
        }
        String userColumns = oracle.query("SELECT column_name FROM (DESCRIBE __ducklake_metadata_lake." + table + ") "
                        + "WHERE column_name NOT IN ('row_id', 'begin_snapshot', 'end_snapshot')")
                .stream().map(row -> "\"" + row.getFirst() + "\"").collect(Collectors.joining(", "));
        String theirs = "SELECT " + userColumns + ", row_id, begin_snapshot, end_snapshot FROM __ducklake_metadata_lake." + table
                + " WHERE " + predicate;
        long expected = Long.parseLong(oracle.query("SELECT count(*) FROM (" + theirs + ")").getFirst().getFirst());
        assertThat(rows).as("%s where %s: row count", table, predicate).isEqualTo(expected);
        if (rows == 0) {
            return 0;
        }
        try (ArrowStreamReader reader = new ArrowStreamReader(new ByteArrayInputStream(ipc.toByteArray()), allocator);
                ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator)) {
            Data.exportArrayStream(allocator, reader, stream);
            ((DuckDBConnection) oracle.connection()).registerArrowStream("moraine_rows", stream);
            String ours2 = "SELECT * FROM moraine_rows";
            // SQLite catalogs keep nested and other non-native values as text: compare as moraine's types.
            String castColumns = oracle.query("SELECT column_name, column_type FROM (DESCRIBE moraine_rows)").stream()
                    .map(column -> "CAST(\"" + column.get(0) + "\" AS " + column.get(1) + ")")
                    .collect(Collectors.joining(", "));
            theirs = "SELECT " + castColumns + " FROM (" + theirs + ")";
            long missing = Long.parseLong(oracle.query("SELECT count(*) FROM (" + theirs + " EXCEPT ALL " + ours2 + ")").getFirst().getFirst());
            assertThat(missing).as("%s where %s: DuckLake rows moraine lacks", table, predicate).isZero();
        }
        return rows;
    }

    private void compareFileDeletes(DuckLakeOracle oracle, MoraineCatalog catalog, long snapshot)
            throws Exception
    {
        long bigTable = 2;
        Map<Long, long[]> ours = io.moraine.core.scan.InlinedFileDeletes.positionsAt(catalog.store().latest(), bigTable, snapshot);
        List<String> oursText = new ArrayList<>();
        ours.forEach((file, positions) -> {
            for (long position : positions) {
                oursText.add(file + ":" + position);
            }
        });
        List<String> theirs = oracle.query("SELECT file_id || ':' || row_id FROM __ducklake_metadata_lake.ducklake_inlined_delete_2 WHERE begin_snapshot <= "
                + snapshot).stream().map(List::getFirst).toList();
        assertThat(oursText).as("inlined file deletes at snapshot %d", snapshot).containsExactlyInAnyOrderElementsOf(theirs);
    }
}
