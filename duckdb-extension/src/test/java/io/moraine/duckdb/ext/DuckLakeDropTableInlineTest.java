package io.moraine.duckdb.ext;

import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.keyspace.InlineKeys;
import io.moraine.core.keyspace.Subspace;
import io.moraine.core.store.KeyValue;
import io.moraine.core.store.KeyValueCursor;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.SlateStore;
import io.moraine.core.store.StoreOptions;
import io.moraine.core.store.StoreUri;
import io.moraine.core.verify.StoreVerifier;
import io.moraine.core.verify.VerifyProblem;
import io.moraine.core.verify.VerifyReport;
import io.moraine.testing.DuckLakeOracle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static io.moraine.duckdb.ext.ExtensionConnections.count;
import static io.moraine.duckdb.ext.ExtensionConnections.execute;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * DROP TABLE through {@code ducklake:moraine:} leaves nothing behind once it can (RFC 0005): DuckLake's DROP TABLE only
 * ends the table's rows, so a dropped table's inlined rows stay readable at the snapshots before the drop, as on a
 * DuckDB-file catalog; the expiry that removes the table's last row (no snapshot can see it any more) takes every inline
 * record of the table along in the same commit, and {@code bin/moraine verify} reports any that a store still holds.
 */
class DuckLakeDropTableInlineTest
{
    private static final List<String> TABLES = List.of("sales.orders", "main.events");
    private static final String INLINED_TABLES = "SELECT count(*) FROM duckdb_tables() WHERE database_name = 'lake_meta' "
            + "AND table_name LIKE 'ducklake_inlined_%' AND table_name <> 'ducklake_inlined_data_tables'";

    @TempDir
    Path temp;

    @Test
    void droppedTablesKeepTheirInlinedRowsForTimeTravelUntilExpiryTakesThemAll()
            throws Exception
    {
        StoreUri store = StoreUri.parse(temp.resolve("store").toString());
        long beforeDrop;
        Map<ByteBuffer, byte[]> leftOver;
        try (OracleLakes lakes = OracleLakes.open(temp, 10)) {
            for (String step : DuckLakeOracle.WORKLOAD) {
                lakes.both(step);
            }
            // Live inlined rows, an ended inlined row version and inlined deletes of Parquet rows when the tables go.
            lakes.both("INSERT INTO lake.sales.orders (id, client, amount, note) VALUES (200001, 'late-a', 1.00, 'x'), (200002, 'late-b', 2.00, 'y')");
            lakes.both("UPDATE lake.sales.orders SET note = 'z' WHERE id = 200001");
            lakes.both("INSERT INTO lake.main.events VALUES (TIMESTAMP '2026-01-01', 'k9', 7)");
            lakes.both("DELETE FROM lake.main.events WHERE v = 1");
            beforeDrop = count(lakes.moraine(), "SELECT max(snapshot_id) FROM ducklake_snapshots('lake')");
            Map<String, Long> atDrop = inlineRecords(store);
            System.out.println("[drop table] inline records before the drops: " + atDrop);
            assertThat(atDrop).containsKeys("insert chunk", "file delete", "row tombstone");

            lakes.both("DROP VIEW lake.sales.big_orders");
            for (String table : TABLES) {
                lakes.both("DROP TABLE lake." + table);
            }
            // As on a DuckDB-file catalog, the dropped tables' rows (inlined ones included) are there before the drop.
            for (String table : TABLES) {
                lakes.same("SELECT * FROM lake." + table + " AT (VERSION => " + beforeDrop + ") ORDER BY ALL");
            }
            assertThat(count(lakes.moraine(), "SELECT count(*) FROM lake.sales.orders AT (VERSION => " + beforeDrop + ") WHERE id > 200000")).isEqualTo(2);
            // DuckLake's DROP TABLE leaves a DuckDB-file catalog's inlined tables and their rows where they are.
            assertThat(count(lakes.oracle(), INLINED_TABLES)).as("the DuckDB-file catalog's inlined tables after the drops").isPositive();
            long ordersId = count(lakes.moraine(), "SELECT DISTINCT table_id FROM lake_meta.ducklake_table WHERE table_name = 'orders'");
            leftOver = inlineRecordsOf(store, ordersId);
            Map<String, Long> afterDrop = inlineRecords(store);
            System.out.println("[drop table] inline records after the drops: " + afterDrop);
            assertThat(afterDrop).as("DROP TABLE keeps what time travel reads").containsEntry("insert chunk", atDrop.get("insert chunk"));
            assertThat(verify(store).problems()).isEmpty();

            // Expire every snapshot but the newest: no snapshot sees the dropped tables any more.
            lakes.both("CALL ducklake_expire_snapshots('lake', older_than => now())");
            lakes.both("CALL ducklake_cleanup_old_files('lake', cleanup_all => true)");
            assertThat(count(lakes.moraine(), "SELECT count(*) FROM lake_meta.ducklake_table")).isZero();
            // DuckLake's expiry drops a DuckDB-file catalog's inlined tables of the tables it removes.
            assertThat(count(lakes.oracle(), "SELECT count(*) FROM lake_meta.ducklake_inlined_data_tables")).isZero();
            assertThat(count(lakes.oracle(), INLINED_TABLES)).as("the DuckDB-file catalog's inlined tables after expiry").isZero();
            Map<String, Long> afterExpiry = inlineRecords(store);
            System.out.println("[drop table] inline records after expiry: " + afterExpiry);
            assertThat(afterExpiry).as("inline records of tables no snapshot sees").isEmpty();
            VerifyReport report = verify(store);
            assertThat(report.problems()).as(report.summary()).isEmpty();
        }

        // What a store kept before the expiry took a dropped table's inline records along (its schema records and
        // dropped-version markers): verify reports them, once per table.
        leftOver.keySet().removeIf(key -> InlineKeys.kind(key.array()) != InlineKeys.SCHEMA && InlineKeys.kind(key.array()) != InlineKeys.SCHEMA_DROPPED);
        try (MoraineCatalog catalog = MoraineCatalog.open(store, OpenMode.READ_WRITE)) {
            catalog.store().write(leftOver);
        }
        VerifyReport report = verify(store);
        System.out.println("[drop table] verify with records left over: " + report.problems());
        assertThat(report.problems()).singleElement().satisfies(problem -> {
            assertThat(problem.check()).isEqualTo(VerifyProblem.Check.INLINE_ORPHAN);
            assertThat(problem.line()).contains("inline records of table ").contains(leftOver.size() + " records (")
                    .contains("no snapshot can see any more");
        });
        // The repair (bin/moraine verify --repair) removes exactly those records, and the store verifies clean.
        try (MoraineCatalog catalog = MoraineCatalog.open(store, OpenMode.READ_WRITE)) {
            assertThat(io.moraine.core.verify.InlineOrphanRepair.run(catalog)).hasSize(1);
            assertThat(io.moraine.core.verify.InlineOrphanRepair.run(catalog)).as("a second repair finds nothing").isEmpty();
        }
        assertThat(inlineRecords(store)).as("inline records after the repair").isEmpty();
        assertThat(verify(store).problems()).isEmpty();
    }

    /** Every inline record of table {@code tableId}. */
    private static Map<ByteBuffer, byte[]> inlineRecordsOf(StoreUri store, long tableId)
    {
        Map<ByteBuffer, byte[]> records = new HashMap<>();
        try (SlateStore reader = SlateStore.open(store, OpenMode.UNPINNED, StoreOptions.DEFAULTS);
                KeyValueCursor cursor = reader.latest().scan(Subspace.INLINE.start(), Subspace.INLINE.end(), 1024)) {
            while (cursor.hasNext()) {
                KeyValue entry = cursor.next();
                if (InlineKeys.component(entry.key(), 0) == tableId) {
                    records.put(ByteBuffer.wrap(entry.key()), entry.value());
                }
            }
        }
        assertThat(records).isNotEmpty();
        return records;
    }

    /** The store's inline records by kind, read while the lake stays attached (a reader never fences the writer). */
    private static Map<String, Long> inlineRecords(StoreUri store)
    {
        Map<String, Long> records = new TreeMap<>();
        try (SlateStore reader = SlateStore.open(store, OpenMode.UNPINNED, StoreOptions.DEFAULTS);
                KeyValueCursor cursor = reader.latest().scan(Subspace.INLINE.start(), Subspace.INLINE.end(), 1024)) {
            while (cursor.hasNext()) {
                KeyValue entry = cursor.next();
                records.merge(kindName(InlineKeys.kind(entry.key())), 1L, Long::sum);
            }
        }
        return records;
    }

    private static VerifyReport verify(StoreUri store)
    {
        return StoreVerifier.verify(store, StoreOptions.DEFAULTS, StoreVerifier.Options.STORE_ONLY);
    }

    private static String kindName(byte kind)
    {
        return switch (kind) {
            case InlineKeys.SCHEMA -> "schema";
            case InlineKeys.INSERT -> "insert chunk";
            case InlineKeys.ROW_TOMBSTONE -> "row tombstone";
            case InlineKeys.FILE_DELETE -> "file delete";
            case InlineKeys.FILE_DELETE_TABLE -> "file delete table marker";
            case InlineKeys.SCHEMA_DROPPED -> "schema dropped marker";
            case InlineKeys.CHUNK_LOCATOR -> "chunk locator";
            default -> "kind " + kind;
        };
    }
}
