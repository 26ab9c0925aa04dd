package io.moraine.core.inline.read;

import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.catalog.NewCatalog;
import io.moraine.core.inline.InlineTestData;
import io.moraine.core.store.StoreUri;
import io.moraine.core.tx.StagedTransaction;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** Windows, projection and memory bounds of inline scans. */
class InlineScanTest
{
    private static final int CHUNKS = 10_000;
    private static final int ROWS_PER_CHUNK = 100;

    private final BufferAllocator allocator = new RootAllocator();

    @AfterEach
    void closeAllocator()
    {
        allocator.close();
    }

    @Test
    void aChunkWhoseSchemaRecordIsMissingIsReportedAsCorruptionNamingTheKey()
    {
        try (MoraineCatalog catalog = MoraineCatalog.create(StoreUri.parse("memory://no-schema-" + UUID.randomUUID()), NewCatalog.bootstrapped("/d"));
                VectorSchemaRoot rows = InlineTestData.rows(allocator, 0, 3, "x")) {
            catalog.begin(0).insert(snapshot(1)).registerInlinedTable(1, 1, InlineTestData.SCHEMA).insertInlined(1, 1, 1, 0, rows).commit();
            byte[] schemaKey = io.moraine.core.keyspace.InlineKeys.schema(1, 1);
            java.util.Map<java.nio.ByteBuffer, byte[]> damage = new java.util.HashMap<>();
            damage.put(java.nio.ByteBuffer.wrap(schemaKey), null);
            catalog.store().write(damage);
            try (InlineScan scan = InlineReader.scan(catalog.store().latest(), 1, new InlineSelection.AtSnapshot(5), Optional.empty(), 10, allocator)) {
                org.assertj.core.api.Assertions.assertThatThrownBy(scan::next)
                        .isInstanceOf(io.moraine.core.error.CorruptionException.class)
                        .hasMessageContaining(java.util.HexFormat.of().formatHex(schemaKey));
            }
        }
    }

    @Test
    void windowsThatSplitChunksReadEachBodyOnceAndReleaseEverythingOnClose()
    {
        try (MoraineCatalog catalog = MoraineCatalog.create(StoreUri.parse("memory://split-" + UUID.randomUUID()), NewCatalog.bootstrapped("/d"))) {
            StagedTransaction transaction = catalog.begin(0).insert(snapshot(1)).registerInlinedTable(1, 1, InlineTestData.SCHEMA);
            for (int chunk = 0; chunk < 5; chunk++) {
                try (VectorSchemaRoot rows = InlineTestData.rows(allocator, chunk * 10L, 10, "r")) {
                    transaction.insertInlined(1, 1, 1, chunk * 10L, rows);
                }
            }
            transaction.commit();
            List<Long> ids = new java.util.ArrayList<>();
            InlineScan scan = InlineReader.scan(catalog.store().latest(), 1, new InlineSelection.AtSnapshot(1), Optional.empty(), 15, allocator);
            try (scan) {
                while (scan.hasNext()) {
                    InlineBatch batch = scan.next();
                    BigIntVector id = (BigIntVector) batch.root().getVector("id");
                    for (int i = 0; i < batch.root().getRowCount(); i++) {
                        ids.add(id.get(i));
                    }
                    assertThat(scan.residentBytes()).as("resident payload after a window").isPositive();
                    if (ids.size() == 15) {
                        break;
                    }
                }
                assertThat(scan.bodiesRead()).as("the first window reads two bodies, keeps the split one, and reads the third ahead").isEqualTo(2);
            }
            assertThat(scan.residentBytes()).as("nothing held once closed, though a chunk's body was kept for the next window").isZero();
            assertThat(ids).containsExactlyElementsOf(java.util.stream.LongStream.range(0, 15).boxed().toList());

            ids.clear();
            try (InlineScan whole = InlineReader.scan(catalog.store().latest(), 1, new InlineSelection.AtSnapshot(1), Optional.empty(), 15, allocator)) {
                while (whole.hasNext()) {
                    BigIntVector id = (BigIntVector) whole.next().root().getVector("id");
                    for (int i = 0; i < id.getValueCount(); i++) {
                        ids.add(id.get(i));
                    }
                }
                assertThat(whole.bodiesRead()).as("every body read exactly once across split windows").isEqualTo(5);
            }
            assertThat(ids).containsExactlyElementsOf(java.util.stream.LongStream.range(0, 50).boxed().toList());
        }
    }

    @Test
    void aMillionRowsInTenThousandChunksScanWithBoundedResidentPayload()
    {
        try (MoraineCatalog catalog = MoraineCatalog.create(StoreUri.parse("memory://large-" + UUID.randomUUID()), NewCatalog.bootstrapped("/d"))) {
            long payloadBytes = 0;
            StagedTransaction transaction = catalog.begin(0).registerInlinedTable(1, 1, InlineTestData.SCHEMA);
            for (long snapshot = 1; snapshot <= CHUNKS / 1000; snapshot++) {
                transaction.insert(snapshot(snapshot));
            }
            for (int chunk = 0; chunk < CHUNKS; chunk++) {
                try (VectorSchemaRoot rows = InlineTestData.rows(allocator, (long) chunk * ROWS_PER_CHUNK, ROWS_PER_CHUNK, "row")) {
                    transaction.insertInlined(1, 1, 1 + chunk / 1000, (long) chunk * ROWS_PER_CHUNK, rows);
                    payloadBytes += rows.getFieldVectors().stream().mapToLong(vector -> vector.getBufferSize()).sum();
                }
            }
            transaction.commit();

            long rows = 0;
            long idSum = 0;
            long windows = 0;
            try (InlineScan scan = InlineReader.scan(catalog.store().latest(), 1, new InlineSelection.AtSnapshot(100), Optional.empty(), 8192, allocator)) {
                assertThat(scan.selectedRows()).isEqualTo((long) CHUNKS * ROWS_PER_CHUNK);
                while (scan.hasNext()) {
                    InlineBatch batch = scan.next();
                    BigIntVector ids = (BigIntVector) batch.root().getVector("id");
                    BigIntVector rowIds = (BigIntVector) batch.root().getVector("row_id");
                    for (int i = 0; i < batch.root().getRowCount(); i++) {
                        idSum += ids.get(i);
                        assertThat(rowIds.get(i)).isEqualTo(ids.get(i));
                    }
                    rows += batch.root().getRowCount();
                    windows++;
                }
                assertThat(rows).isEqualTo((long) CHUNKS * ROWS_PER_CHUNK);
                assertThat(idSum).isEqualTo(rows * (rows - 1) / 2);
                // Each chunk is read once, plus once more where a window boundary splits it.
                assertThat(scan.bodiesRead()).isBetween((long) CHUNKS, CHUNKS + windows);
                // One window's payload, not the table's: far below the whole table's bytes.
                assertThat(scan.peakResidentBytes()).as("peak resident payload").isLessThan(2L << 20).isLessThan(payloadBytes / 10);
                System.out.printf("inline scan: %,d rows in %,d chunks, table payload %,d bytes, peak resident %,d bytes%n",
                        rows, CHUNKS, payloadBytes, scan.peakResidentBytes());
            }

            // A chunk-body cache serves a second scan without store reads; chunks are immutable, so it cannot go stale.
            ChunkBodyCache cache = new ChunkBodyCache(64L << 20);
            for (int pass = 0; pass < 2; pass++) {
                try (InlineScan cached = InlineReader.scan(catalog.store().latest(), 1, new InlineSelection.AtSnapshot(100), Optional.of(List.of("id")),
                        8192, allocator, cache)) {
                    long counted = 0;
                    while (cached.hasNext()) {
                        counted += cached.next().root().getRowCount();
                    }
                    assertThat(counted).isEqualTo((long) CHUNKS * ROWS_PER_CHUNK);
                }
            }
            assertThat(cache.misses()).isEqualTo(CHUNKS);
            assertThat(cache.hits()).isGreaterThanOrEqualTo(CHUNKS);

            // COUNT(*): no user column projected, no body read.
            try (InlineScan count = InlineReader.scan(catalog.store().latest(), 1, new InlineSelection.AtSnapshot(100), Optional.of(List.of()), 8192, allocator)) {
                long counted = 0;
                while (count.hasNext()) {
                    counted += count.next().root().getRowCount();
                }
                assertThat(counted).isEqualTo((long) CHUNKS * ROWS_PER_CHUNK);
                assertThat(count.bodiesRead()).isZero();
            }

            // An insertion window reads only the chunks inserted in it (1,000 chunks were inserted at snapshot 4).
            try (InlineScan window = InlineReader.scan(catalog.store().latest(), 1, new InlineSelection.InsertedBetween(4, 4), Optional.of(List.of("id")), 8192, allocator)) {
                long inWindow = 0;
                while (window.hasNext()) {
                    inWindow += window.next().root().getRowCount();
                }
                assertThat(inWindow).isEqualTo(1000L * ROWS_PER_CHUNK);
                assertThat(window.bodiesRead()).isBetween(1000L, 1000L + 1000L * ROWS_PER_CHUNK / 8192 + 1);
            }
        }
    }

    private static io.moraine.core.row.Row snapshot(long id)
    {
        return io.moraine.core.row.Row.of(io.moraine.core.row.TableKind.SNAPSHOT, id, java.time.Instant.EPOCH.plusSeconds(id), 1L, 2L, 1L);
    }
}
