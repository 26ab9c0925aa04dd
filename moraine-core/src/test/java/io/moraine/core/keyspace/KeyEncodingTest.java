package io.moraine.core.keyspace;

import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.error.CorruptionException;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class KeyEncodingTest
{
    @Test
    void integerKeysSortNumerically()
    {
        List<Long> values = List.of(Long.MIN_VALUE, -5L, -1L, 0L, 1L, 255L, 256L, Long.MAX_VALUE);
        List<byte[]> keys = new ArrayList<>(values.stream().map(v -> new KeyWriter().int64(v).toBytes()).toList());
        keys.sort(Arrays::compareUnsigned);
        assertThat(keys.stream().map(k -> java.nio.ByteBuffer.wrap(k).getLong() ^ Long.MIN_VALUE).toList()).isEqualTo(values);
    }

    @Test
    void snapshotTimeKeysSortByTimeThenIdAndBoundWholeMicroseconds()
    {
        Instant epoch = Instant.EPOCH;
        List<byte[]> keys = List.of(SnapshotTimeKeys.key(-2, 9), SnapshotTimeKeys.key(-1, 3), SnapshotTimeKeys.key(0, 1),
                SnapshotTimeKeys.key(0, 2), SnapshotTimeKeys.key(5, 0));
        List<byte[]> sorted = new ArrayList<>(keys);
        sorted.sort(Arrays::compareUnsigned);
        assertThat(sorted).containsExactlyElementsOf(keys);
        assertThat(keys.stream().map(SnapshotTimeKeys::snapshotId).toList()).containsExactly(9L, 3L, 1L, 2L, 0L);
        assertThat(Arrays.compareUnsigned(SnapshotTimeKeys.key(0, Long.MAX_VALUE), SnapshotTimeKeys.after(0))).isNegative();
        assertThat(Arrays.compareUnsigned(SnapshotTimeKeys.key(1, Long.MIN_VALUE), SnapshotTimeKeys.after(0))).as("time 1 lies above the bound").isPositive();
        assertThat(SnapshotTimeKeys.after(Long.MAX_VALUE)).isEqualTo(Subspace.SNAPSHOT_TIME.end());

        assertThat(Micros.floorOf(epoch.plusNanos(1500))).isEqualTo(1);
        assertThat(Micros.ceilOf(epoch.plusNanos(1500))).isEqualTo(2);
        assertThat(Micros.floorOf(epoch.minusNanos(500))).isEqualTo(-1);
        assertThat(Micros.ceilOf(epoch.minusNanos(500))).isEqualTo(0);
        assertThat(Micros.ceilOf(epoch.plusNanos(2000))).isEqualTo(2);
        assertThat(Micros.floorOf(Instant.MAX)).isEqualTo(Long.MAX_VALUE);
        assertThat(Micros.ceilOf(Instant.MIN)).isEqualTo(Long.MIN_VALUE);
        assertThatThrownBy(() -> SnapshotTimeKeys.snapshotId(new byte[] {5, 1})).isInstanceOf(CorruptionException.class);
    }

    @Test
    void stringKeysSortLexicographicallyIncludingEmbeddedZeros()
    {
        List<String> values = List.of("", "a", "a\0", "a\0b", "ab", "b");
        List<byte[]> keys = new ArrayList<>(values.stream().map(v -> new KeyWriter().string(v).int64(7).toBytes()).toList());
        List<byte[]> sorted = new ArrayList<>(keys);
        sorted.sort(Arrays::compareUnsigned);
        assertThat(sorted).containsExactlyElementsOf(keys);
    }

    @Test
    void rowsOfOneTableShareAContiguousPrefix()
    {
        Row file = dataFile(7, 3);
        byte[] prefix = RowKeys.prefix(Subspace.CURRENT, TableKind.DATA_FILE, 7L);
        byte[] key = RowKeys.key(Subspace.CURRENT, file);
        assertThat(Arrays.compareUnsigned(key, prefix)).isPositive();
        assertThat(Arrays.compareUnsigned(key, KeyWriter.prefixEnd(prefix))).isNegative();
        byte[] otherTable = RowKeys.key(Subspace.CURRENT, dataFile(8, 1));
        assertThat(Arrays.compareUnsigned(otherTable, KeyWriter.prefixEnd(prefix))).isGreaterThanOrEqualTo(0);
    }

    @Test
    void everyCellTypeRoundTrips()
    {
        Row row = Row.of(TableKind.SCHEMA, 4L, UUID.randomUUID(), 1L, null, "sales \u00e9\0x", "sales/", true);
        byte[] key = RowKeys.key(Subspace.CURRENT, row);
        assertThat(RowValueCodec.decode(TableKind.SCHEMA, key, RowValueCodec.encode(row))).isEqualTo(row);
        Row snapshot = Row.of(TableKind.SNAPSHOT, 3L, Instant.parse("2026-11-29T14:28:00.123456Z"), 2L, 5L, 0L);
        assertThat(RowValueCodec.decode(TableKind.SNAPSHOT, key, RowValueCodec.encode(snapshot))).isEqualTo(snapshot);
    }

    @Test
    void olderValuesWithFewerCellsReadAsNullForTheMissingColumns()
    {
        Row full = Row.of(TableKind.TABLE_STATS, 1L, 10L, 10L, 1024L);
        byte[] value = RowValueCodec.encode(full);
        value[1] = 2; // pretend an older encoding wrote only two columns
        byte[] truncated = Arrays.copyOf(value, 2 + 2 * 9);
        assertThat(RowValueCodec.decode(TableKind.TABLE_STATS, new byte[] {1}, truncated))
                .isEqualTo(Row.of(TableKind.TABLE_STATS, 1L, 10L, null, null));
    }

    @Test
    void garbageIsReportedAsCorruptionNamingTheKey()
    {
        byte[] key = RowKeys.key(Subspace.CURRENT, dataFile(1, 2));
        for (byte[] garbage : List.of(new byte[0], new byte[] {9}, new byte[] {1, 3, 1}, new byte[] {1, 1, 2, 5, 'a'},
                new byte[] {1, 1, 42}, "definitely not a row".getBytes())) {
            assertThatThrownBy(() -> RowValueCodec.decode(TableKind.DATA_FILE, key, garbage))
                    .isInstanceOf(CorruptionException.class)
                    .hasMessageContaining(java.util.HexFormat.of().formatHex(key))
                    .hasMessageContaining("ducklake_data_file");
        }
    }

    static Row dataFile(long tableId, long fileId)
    {
        return Row.ofMap(TableKind.DATA_FILE, java.util.Map.of("data_file_id", fileId, "table_id", tableId,
                "begin_snapshot", 1L, "path", "f" + fileId + ".parquet", "path_is_relative", true, "file_format", "parquet",
                "record_count", 10L, "file_size_bytes", 100L));
    }
}
