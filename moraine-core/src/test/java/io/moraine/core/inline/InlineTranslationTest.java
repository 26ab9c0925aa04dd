package io.moraine.core.inline;

import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.catalog.NewCatalog;
import io.moraine.core.keyspace.InlineKeys;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.error.CorruptionException;
import io.moraine.core.error.NotFoundException;
import io.moraine.core.keyspace.KeyWriter;
import io.moraine.core.store.KeyValueCursor;
import io.moraine.core.store.StoreUri;
import io.moraine.core.tx.StagedTransaction;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The inline subspace written through staged transactions (RFC 0005's mapping table). */
class InlineTranslationTest
{
    private final BufferAllocator allocator = new RootAllocator();

    @AfterEach
    void closeAllocator()
    {
        allocator.close();
    }

    @Test
    void chunksLocatorsAndTombstonesAreWrittenInTheCommitBatch()
    {
        try (MoraineCatalog catalog = catalog(); VectorSchemaRoot rows = InlineTestData.rows(allocator, 1, 3, "a")) {
            catalog.begin(0).registerInlinedTable(1, 1, InlineTestData.SCHEMA).insertInlined(1, 1, 1, 0, rows).commit();
            assertThat(keys(catalog, InlineKeys.INSERT, 1)).hasSize(1);
            assertThat(keys(catalog, InlineKeys.CHUNK_LOCATOR, 1)).singleElement()
                    .satisfies(key -> assertThat(InlineKeys.component(key, 1)).isEqualTo(2));
            assertThat(catalog.scan(TableKind.INLINED_DATA_TABLES, io.moraine.core.catalog.RowScope.ALL).toList()).singleElement()
                    .satisfies(row -> assertThat(row.getString("table_name")).isEqualTo("ducklake_inlined_data_1_1"));

            catalog.begin(1).endInlinedRows(1, List.of(1L), 2).commit();
            assertThat(keys(catalog, InlineKeys.ROW_TOMBSTONE, 1)).singleElement()
                    .satisfies(key -> assertThat(InlineKeys.component(key, 2)).isEqualTo(2));
        }
    }

    @Test
    void overlappingLocatorsSharingARangeEndAreBothKept()
    {
        // RFC 0005: an UPDATE re-inlines a row whose id another live chunk's range still ends on.
        try (MoraineCatalog catalog = catalog();
                VectorSchemaRoot first = InlineTestData.rows(allocator, 10, 3, "v1");
                VectorSchemaRoot updated = InlineTestData.rows(allocator, 12, 1, "v2")) {
            catalog.begin(0).registerInlinedTable(1, 1, InlineTestData.SCHEMA).insertInlined(1, 1, 1, 10, first).commit();
            // Snapshot 2 updates row 12: ends the old version and inlines the new one under the same row id.
            catalog.begin(1).endInlinedRows(1, List.of(12L), 2).insertInlined(1, 1, 2, 12, updated).commit();
            List<byte[]> locators = keys(catalog, InlineKeys.CHUNK_LOCATOR, 1);
            assertThat(locators).hasSize(2);
            assertThat(locators).allSatisfy(key -> assertThat(InlineKeys.component(key, 1)).isEqualTo(12));
            // Both chunks still cover row 12, so a later deletion of it finds it.
            catalog.begin(2).endInlinedRows(1, List.of(12L, 10L), 3).commit();
            assertThat(keys(catalog, InlineKeys.ROW_TOMBSTONE, 1)).hasSize(3);
        }
    }

    @Test
    void aCommitThatInlinesANarrowChunkStillFindsRowsOfWiderOnes()
    {
        // A MERGE that re-inlines one updated row and deletes another row of an older, wider chunk in one commit.
        try (MoraineCatalog catalog = catalog();
                VectorSchemaRoot first = InlineTestData.rows(allocator, 0, 6, "v1");
                VectorSchemaRoot updated = InlineTestData.rows(allocator, 3, 1, "v2")) {
            catalog.begin(0).registerInlinedTable(1, 1, InlineTestData.SCHEMA).insertInlined(1, 1, 1, 0, first).commit();
            catalog.begin(1).insertInlined(1, 1, 2, 3, updated).endInlinedRows(1, List.of(3L, 4L), 2).commit();
            assertThat(keys(catalog, InlineKeys.ROW_TOMBSTONE, 1)).hasSize(2);
        }
    }

    @Test
    void badInlineWritesAreTypedErrorsNamingTheKeyAndWriteNothing()
    {
        try (MoraineCatalog catalog = catalog(); VectorSchemaRoot rows = InlineTestData.rows(allocator, 1, 2, "a")) {
            assertThatThrownBy(() -> catalog.begin(0).insertInlined(1, 7, 1, 0, rows).commit())
                    .isInstanceOf(NotFoundException.class)
                    .hasMessageContaining("no inline schema record");
            catalog.begin(0).registerInlinedTable(1, 1, InlineTestData.SCHEMA).insertInlined(1, 1, 1, 0, rows).commit();
            assertThatThrownBy(() -> catalog.begin(1).endInlinedRows(1, List.of(99L), 2).commit())
                    .isInstanceOf(NotFoundException.class)
                    .hasMessageContaining("no inlined chunk holds that row id")
                    .hasMessageContaining(java.util.HexFormat.of().formatHex(InlineKeys.rowTombstone(1, 99, 2)));
            assertThatThrownBy(() -> catalog.begin(1).removeInlinedFileDeletes(1, 5, List.of(3L)).commit())
                    .isInstanceOf(NotFoundException.class)
                    .hasMessageContaining("has no row (file_id 5, row_id 3)");
            assertThat(keys(catalog, InlineKeys.ROW_TOMBSTONE, 1)).isEmpty();

            byte[] chunkKey = keys(catalog, InlineKeys.INSERT, 1).getFirst();
            catalog.store().write(Map.of(ByteBuffer.wrap(chunkKey), new byte[] {1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 42, 42}));
            byte[] body = catalog.store().latest().get(chunkKey);
            assertThatThrownBy(() -> InlineArrow.decodeChunk(chunkKey, body, InlineTestData.SCHEMA, allocator).close())
                    .isInstanceOf(CorruptionException.class)
                    .hasMessageContaining(java.util.HexFormat.of().formatHex(chunkKey));
        }
    }

    @Test
    void flushDrainsChunksAndConsumedTombstonesAndDeregistrationDeduplicatesSchemas()
    {
        try (MoraineCatalog catalog = catalog();
                VectorSchemaRoot first = InlineTestData.rows(allocator, 0, 4, "a");
                VectorSchemaRoot second = InlineTestData.rows(allocator, 4, 2, "b")) {
            catalog.begin(0).registerInlinedTable(1, 1, InlineTestData.SCHEMA).insertInlined(1, 1, 1, 0, first).commit();
            catalog.begin(1).endInlinedRows(1, List.of(1L), 2).registerInlinedTable(1, 2, InlineTestData.SCHEMA)
                    .insertInlined(1, 2, 2, 4, second).commit();
            // Flush version 1 at snapshot 2: its chunk goes, and so does the tombstone only it needed.
            catalog.begin(2).drainInlined(1, 1, 2).deregisterInlinedTable(1, 1).commit();
            assertThat(keys(catalog, InlineKeys.INSERT, 1)).hasSize(1);
            assertThat(keys(catalog, InlineKeys.CHUNK_LOCATOR, 1)).hasSize(1);
            assertThat(keys(catalog, InlineKeys.ROW_TOMBSTONE, 1)).isEmpty();
            assertThat(keys(catalog, InlineKeys.SCHEMA_DROPPED, 1)).hasSize(1);
            byte[] version1 = catalog.store().latest().get(InlineKeys.schema(1, 1));
            assertThat(InlineArrow.sameAsVersion(InlineKeys.schema(1, 1), version1)).hasValue(2);
            assertThat(catalog.scan(TableKind.INLINED_DATA_TABLES, io.moraine.core.catalog.RowScope.ALL).toList()).singleElement()
                    .satisfies(row -> assertThat(row.getLong("schema_version")).isEqualTo(2));

            // A pruned data file takes its inlined deletions along; DROP TABLE takes everything.
            Row file = Row.of(TableKind.DATA_FILE, 0L, 1L, 1L, null, null, "f.parquet", true, "parquet", 10L, 1L, 1L, 0L, null, null, null, null);
            catalog.begin(2).insert(file).deleteInlinedFileRows(1, 0, List.of(1L, 2L), 3).commit();
            assertThat(keys(catalog, InlineKeys.FILE_DELETE, 1)).hasSize(2);
            catalog.begin(3).delete(TableKind.DATA_FILE, 1L, 0L).commit();
            assertThat(keys(catalog, InlineKeys.FILE_DELETE, 1)).isEmpty();
            assertThat(keys(catalog, InlineKeys.FILE_DELETE_TABLE, 1)).hasSize(1);
            catalog.begin(3).dropInlined(1).commit();
            for (byte kind = InlineKeys.SCHEMA; kind <= InlineKeys.CHUNK_LOCATOR; kind++) {
                assertThat(keys(catalog, kind, 1)).as("inline kind %d", kind).isEmpty();
            }
        }
    }

    @Test
    void droppingAnInlinedDeleteTableTakesItsFileDeletesAndLeavesTheInlinedData()
    {
        try (MoraineCatalog catalog = catalog(); VectorSchemaRoot rows = InlineTestData.rows(allocator, 0, 2, "a")) {
            catalog.begin(0).registerInlinedTable(1, 1, InlineTestData.SCHEMA).insertInlined(1, 1, 1, 0, rows)
                    .deleteInlinedFileRows(1, 7, List.of(1L, 2L), 1).deleteInlinedFileRows(2, 8, List.of(3L), 1).commit();
            catalog.begin(1).dropFileDeleteTable(1).commit();
            assertThat(keys(catalog, InlineKeys.FILE_DELETE, 1)).isEmpty();
            assertThat(keys(catalog, InlineKeys.FILE_DELETE_TABLE, 1)).isEmpty();
            assertThat(keys(catalog, InlineKeys.INSERT, 1)).hasSize(1);
            // Another table's delete table stays.
            assertThat(keys(catalog, InlineKeys.FILE_DELETE, 2)).hasSize(1);
            assertThat(keys(catalog, InlineKeys.FILE_DELETE_TABLE, 2)).hasSize(1);
        }
    }

    @Test
    void deletingATablesLastRowTakesEveryInlineRecordOfItAlong()
    {
        // DuckLake's DROP TABLE ends the table's row: its inline records stay for time travel. The expiry that deletes
        // the table's rows once no snapshot sees it takes them along, in the same commit.
        try (MoraineCatalog catalog = catalog(); VectorSchemaRoot rows = InlineTestData.rows(allocator, 0, 3, "a");
                VectorSchemaRoot other = InlineTestData.rows(allocator, 0, 1, "o")) {
            catalog.begin(0).insert(table(1, 1, "t")).insert(table(2, 1, "u")).registerInlinedTable(1, 1, InlineTestData.SCHEMA)
                    .insertInlined(1, 1, 1, 0, rows).registerInlinedTable(2, 1, InlineTestData.SCHEMA).insertInlined(2, 1, 1, 0, other).commit();
            // A rename (a second row of table 1), an ended row, a second version, inlined file deletes; a flush of version 1.
            catalog.begin(1).endRow(TableKind.TABLE, 2, 1L, 1L).insert(table(1, 2, "t2")).endInlinedRows(1, List.of(1L), 2)
                    .registerInlinedTable(1, 2, InlineTestData.SCHEMA).deleteInlinedFileRows(1, 7, List.of(1L), 2).commit();
            catalog.begin(2).deregisterInlinedTable(1, 2).commit();
            // DROP TABLE.
            catalog.begin(2).endRow(TableKind.TABLE, 3, 1L, 2L).commit();
            long records = inlineRecords(catalog, 1);
            assertThat(records).as("after DROP TABLE").isEqualTo(1 + 1 + 1 + 1 + 1 + 1 + 1 + 1); // 2 schemas, chunk, locator, tombstone, file delete + marker, dropped marker

            // One of the two rows goes: the other still names the table, so nothing inline goes.
            catalog.begin(3).delete(TableKind.TABLE, 1L, 1L).commit();
            assertThat(inlineRecords(catalog, 1)).isEqualTo(records);
            // The last one (with what DuckLake's clean-up deletes beside it): every kind of record of table 1 goes.
            catalog.begin(3).delete(TableKind.TABLE, 1L, 2L).delete(TableKind.INLINED_DATA_TABLES, 1L, 1L).commit();
            assertThat(inlineRecords(catalog, 1)).isZero();
            assertThat(keys(catalog, InlineKeys.INSERT, 2)).as("another table's").hasSize(1);
            assertThat(keys(catalog, InlineKeys.SCHEMA, 2)).hasSize(1);
        }
    }

    private static Row table(long tableId, long begin, String name)
    {
        return Row.ofMap(TableKind.TABLE, Map.of("table_id", tableId, "table_uuid", new UUID(0, tableId), "begin_snapshot", begin,
                "schema_id", 0L, "table_name", name, "path", name + "/", "path_is_relative", true));
    }

    private static long inlineRecords(MoraineCatalog catalog, long tableId)
    {
        long records = 0;
        for (byte kind = InlineKeys.SCHEMA; kind <= InlineKeys.CHUNK_LOCATOR; kind++) {
            records += keys(catalog, kind, tableId).size();
        }
        return records;
    }

    private static MoraineCatalog catalog()
    {
        MoraineCatalog catalog = MoraineCatalog.create(StoreUri.parse("memory://inline-" + UUID.randomUUID()), NewCatalog.bootstrapped("/d"));
        // Snapshots 1..4 exist so that transactions can name them; inline translation does not check them.
        StagedTransaction transaction = catalog.begin(0);
        for (long s = 1; s <= 4; s++) {
            transaction.insert(Row.of(TableKind.SNAPSHOT, s, java.time.Instant.EPOCH.plusSeconds(s), 1L, 2L, 1L));
        }
        transaction.commit();
        return catalog;
    }

    private static List<byte[]> keys(MoraineCatalog catalog, byte kind, long tableId)
    {
        byte[] prefix = InlineKeys.prefix(kind, tableId);
        List<byte[]> keys = new ArrayList<>();
        try (KeyValueCursor cursor = catalog.store().latest().scan(prefix, KeyWriter.prefixEnd(prefix), 100)) {
            cursor.forEachRemaining(entry -> keys.add(entry.key()));
        }
        return keys;
    }
}
