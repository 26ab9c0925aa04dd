package io.moraine.sidecars.rowsum;

import org.junit.jupiter.api.Test;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.HexFormat;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

/** The byte layout docs/rowsum.md specifies, checked field by field on the examples it shows. */
class RowSummaryFormatTest
{
    private static final DataFileIdentity FILE = new DataFileIdentity(5, 9, "s3://b/d/f.parquet", 1234);

    @Test
    void permutedRangeExampleFromTheDocs()
            throws Exception
    {
        // file order 12, 10, 11: the set is the range 10..12; rank 0 (id 10) sits at position 1, rank 1 at 2, rank 2 at 0
        RowSummary summary = RowSummary.fromFileOrder(new long[] {12, 10, 11});
        assertThat(summary.set()).isEqualTo(new DenseRowIds(10, 3));
        assertThat(summary.order()).isEqualTo(new RowOrder.Permuted(new int[] {1, 2, 0}));

        byte[] bytes = RowSummaryFormat.encode(FILE, summary);
        ByteBuffer in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        byte[] path = FILE.path().getBytes(UTF_8);
        int tail = 24 + path.length;
        int headerLength = tail + 32;

        assertThat(in.getInt(0)).isEqualTo(1);
        assertThat(in.getLong(4)).isEqualTo(5);
        assertThat(in.getLong(12)).isEqualTo(9);
        assertThat(in.getInt(20)).isEqualTo(path.length);
        assertThat(Arrays.copyOfRange(bytes, 24, tail)).isEqualTo(path);
        assertThat(in.getLong(tail)).isEqualTo(1234);
        assertThat(in.getLong(tail + 8)).isEqualTo(3);
        assertThat(in.getLong(tail + 16)).isEqualTo(17);
        assertThat(in.getLong(tail + 24)).isEqualTo(1);

        assertThat(HexFormat.of().formatHex(bytes, headerLength, headerLength + 17))
                .isEqualTo("01" + "0a00000000000000" + "0300000000000000");
        // positions 1, 2, 0 at 2 bits: bits 0 / 3 -> 0x09
        assertThat(HexFormat.of().formatHex(bytes, headerLength + 17, bytes.length)).isEqualTo("09");
        assertThat(bytes).hasSize(92);
        assertThat(RowSummaryFormat.decodeHeader(bytes, bytes.length).headerLength()).isEqualTo(74);
    }

    @Test
    void roaringSetIsThePortable64BitSerializationByteForByte()
            throws Exception
    {
        int compared = 0;
        for (long[] ids : new long[][] {{1, (1L << 32) + 5}, RowIdShapes.sparse(200_000, 10, 1), RowIdShapes.sparse(3_000, 3_000_000, 2),
                RowIdShapes.dense(7, 70_000), {0, 65_535, 65_536, (5L << 32) | 0xFFFF_FFFFL}}) {
            RoaringRowIds ours = RoaringRowIds.of(ids);
            Roaring64NavigableMap theirs = new Roaring64NavigableMap();
            theirs.add(ids);
            theirs.runOptimize();
            ByteArrayOutputStream portable = new ByteArrayOutputStream();
            try (DataOutputStream out = new DataOutputStream(portable)) {
                theirs.serializePortable(out);
            }
            byte[] set = RowSummaryFormat.encodeSet(ours);
            assertThat(set[0]).isEqualTo(RowSummaryFormat.SET_ROARING64);
            assertThat(Arrays.copyOfRange(set, 1, set.length)).isEqualTo(portable.toByteArray());
            ByteBuffer in = ByteBuffer.wrap(set).order(ByteOrder.LITTLE_ENDIAN);
            assertThat(in.getLong(1)).isEqualTo(Arrays.stream(ids).map(id -> id >>> 32).distinct().count());   // number of 32-bit bitmaps
            assertThat(in.getShort(13) & 0xFFFF).isIn(12346, 12347);                // a 32-bit portable Roaring cookie
            // and what RoaringBitmap's reader makes of our bytes is the same set
            Roaring64NavigableMap decoded = new Roaring64NavigableMap();
            decoded.deserializePortable(new DataInputStream(new ByteArrayInputStream(set, 1, set.length - 1)));
            assertThat(decoded).isEqualTo(theirs);
            assertThat(ours.toArray()).isEqualTo(ids);
            for (long id : new long[] {ids[0], ids[ids.length - 1], ids[ids.length / 2], ids[ids.length / 2] + 1, 1L << 40}) {
                assertThat(ours.rank(id)).isEqualTo(id <= 0 ? 0 : theirs.rankLong(id - 1));
                assertThat(ours.contains(id)).isEqualTo(theirs.contains(id));
            }
            compared++;
        }
        assertThat(compared).isEqualTo(5);
    }

    @Test
    void repeatedExampleFromTheDocs()
    {
        // flushed file order 10, 10, 11, 13, 13, 13: ids 10, 11, 13 at positions {0,1}, {2}, {3,4,5}; the order is the
        // physical row count, then the offsets, then the positions
        RowSummary summary = RowSummary.fromFileOrder(new long[] {10, 10, 11, 13, 13, 13});
        assertThat(summary.set()).isEqualTo(new SortedRowIds(new long[] {10, 11, 13}));
        assertThat(summary.order()).isEqualTo(new RowOrder.Repeated(new int[] {0, 2, 3, 6}, new int[] {0, 1, 2, 3, 4, 5}));
        byte[] order = RowSummaryFormat.encodeOrder(summary);
        // offsets 0, 2, 3, 6 at 3 bits (values up to 6): bits 4 / 6,7 / 10,11 -> 0xD0 0x0C; positions 0..5 at 3 bits: bits 3 / 7 / 9,10 / 14 / 15,17 -> 0x88 0xC6 0x02
        assertThat(HexFormat.of().formatHex(order))
                .isEqualTo("0600000000000000" + "d00c" + "88c602");
    }
}
