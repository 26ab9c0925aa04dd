package io.moraine.sidecars.rowsum;

import io.moraine.core.io.LocalFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;

import static io.moraine.sidecars.rowsum.RowIdShapes.dense;
import static io.moraine.sidecars.rowsum.RowIdShapes.flushed;
import static io.moraine.sidecars.rowsum.RowIdShapes.scattered;
import static io.moraine.sidecars.rowsum.RowIdShapes.shuffled;
import static io.moraine.sidecars.rowsum.RowIdShapes.sparse;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Every set encoding with every order encoding, through a written and re-read sidecar, against the row-id column. */
class RowSummaryRoundTripTest
{
    @TempDir
    Path directory;
    private final RowSummaryMetrics metrics = new RowSummaryMetrics();
    private int files;

    @Test
    void rangeAscending()
            throws IOException
    {
        assertRoundTrip(dense(1_000, 5_000), DenseRowIds.class, RowOrder.Ascending.class);
    }

    @Test
    void roaringAscending()
            throws IOException
    {
        assertRoundTrip(sparse(50_000, 10, 1), RoaringRowIds.class, RowOrder.Ascending.class);
    }

    @Test
    void sortedAscending()
            throws IOException
    {
        assertRoundTrip(scattered(3_000), SortedRowIds.class, RowOrder.Ascending.class);
    }

    @Test
    void rangePermuted()
            throws IOException
    {
        assertRoundTrip(shuffled(dense(77, 40_000), 2), DenseRowIds.class, RowOrder.Permuted.class);
    }

    @Test
    void sortedPermuted()
            throws IOException
    {
        assertRoundTrip(shuffled(scattered(3_001), 3), SortedRowIds.class, RowOrder.Permuted.class);
    }

    @Test
    void roaringPermutedMillionRows()
            throws IOException
    {
        // one million sparse ids over a ten-million range, in an update rewrite's shuffled file order
        long[] ids = shuffled(sparse(1_000_000, 10, 4), 5);
        RowSummarySidecar sidecar = assertRoundTrip(ids, RoaringRowIds.class, RowOrder.Permuted.class);
        // 20-bit positions: the order is the packed permutation and nothing else (RFC 0023: 2.5 MB at a million rows)
        assertThat(sidecar.header().orderLength()).isEqualTo(2_500_000);
    }

    @Test
    void rangeRepeated()
            throws IOException
    {
        assertRoundTrip(flushed(dense(0, 20_000), 6), DenseRowIds.class, RowOrder.Repeated.class);
    }

    @Test
    void roaringRepeated()
            throws IOException
    {
        assertRoundTrip(flushed(sparse(60_000, 7, 7), 8), RoaringRowIds.class, RowOrder.Repeated.class);
    }

    @Test
    void sortedRepeatedInShuffledOrder()
            throws IOException
    {
        assertRoundTrip(shuffled(flushed(scattered(2_000), 9), 10), SortedRowIds.class, RowOrder.Repeated.class);
    }

    @Test
    void emptyAndSingleRowFiles()
            throws IOException
    {
        assertRoundTrip(new long[0], DenseRowIds.class, RowOrder.Ascending.class);
        assertRoundTrip(new long[] {42}, DenseRowIds.class, RowOrder.Ascending.class);
        // one id, two versions: positions are 1 bit wide
        assertRoundTrip(new long[] {42, 42}, DenseRowIds.class, RowOrder.Repeated.class);
        assertRoundTrip(new long[] {9, 3}, SortedRowIds.class, RowOrder.Permuted.class);
    }

    @Test
    void aSummaryThatNamesAPositionOutsideTheFileCannotBeBuilt()
    {
        assertThatThrownBy(() -> new RowSummary(4, new DenseRowIds(0, 4), new RowOrder.Permuted(new int[] {0, 1, 2, 4})))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("position 4 is outside 0..3");
        assertThatThrownBy(() -> new RowSummary(4, new DenseRowIds(0, 4), new RowOrder.Permuted(new int[] {0, 1, 1, 3})))
                .hasMessageContaining("appears twice");
        assertThatThrownBy(() -> new RowSummary(3, new DenseRowIds(0, 2), new RowOrder.Repeated(new int[] {0, 2, 3}, new int[] {1, 0, 2})))
                .hasMessageContaining("ascend");
    }

    private RowSummarySidecar assertRoundTrip(long[] idsInFileOrder, Class<? extends RowIdSet> setType, Class<? extends RowOrder> orderType)
            throws IOException
    {
        RowSummary derived = RowSummary.fromFileOrder(idsInFileOrder);
        assertThat(derived.set()).isInstanceOf(setType);
        assertThat(derived.order()).isInstanceOf(orderType);

        DataFileIdentity file = new DataFileIdentity(3, ++files, directory.resolve("ducklake-" + files + ".parquet").toString(), 1_000_000L + files);
        long written = RowSummaryWriter.write(LocalFileSystem.INSTANCE, file, derived);
        assertThat(directory.resolve("ducklake-" + files + ".parquet.rowsum")).hasSize(written);

        RowSummaryReader reader = new RowSummaryReader(LocalFileSystem.INSTANCE, metrics);
        RowSummarySidecar sidecar = reader.open(file).orElseThrow();
        assertThat(sidecar.header().identity()).isEqualTo(file);
        assertThat(sidecar.header().rowCount()).isEqualTo(idsInFileOrder.length);
        assertThat(sidecar.set()).isInstanceOf(setType).isEqualTo(derived.set());

        long[] distinct = Arrays.stream(idsInFileOrder).sorted().distinct().toArray();
        assertThat(sidecar.set().toArray()).isEqualTo(distinct);
        assertThat(sidecar.set().cardinality()).isEqualTo(distinct.length);
        for (int r = 0; r < distinct.length; r++) {
            assertThat(sidecar.set().rank(distinct[r])).isEqualTo(r);
        }

        RowSummary loaded = sidecar.loadSummary().orElseThrow();
        assertThat(loaded).isEqualTo(derived);

        // the loaded summary puts every id back at exactly the positions of the row-id column
        long[] rebuilt = new long[idsInFileOrder.length];
        Arrays.fill(rebuilt, -1);
        long placed = 0;
        for (long id : distinct) {
            for (int position : loaded.positionsOf(id)) {
                assertThat(rebuilt[position]).isEqualTo(-1);
                rebuilt[position] = id;
                placed++;
            }
        }
        assertThat(placed).isEqualTo(idsInFileOrder.length);
        assertThat(rebuilt).isEqualTo(idsInFileOrder);

        // single entries read by offset agree with the row-id column, for a sample of positions
        Random random = new Random(idsInFileOrder.length);
        int sampled = Math.min(idsInFileOrder.length, 300);
        for (int i = 0; i < sampled; i++) {
            int position = idsInFileOrder.length <= 300 ? i : random.nextInt(idsInFileOrder.length);
            long id = idsInFileOrder[position];
            int[] positions = sidecar.positionsOf(id).orElseThrow();
            assertThat(positions).contains(position).isEqualTo(loaded.positionsOf(id));
        }

        // ids the file does not hold: outside its bounds and in its gaps
        long[] absent = {-1, distinct.length == 0 ? 0 : distinct[distinct.length - 1] + 1, Long.MAX_VALUE};
        for (long id : absent) {
            assertThat(sidecar.set().contains(id)).isFalse();
            assertThat(sidecar.positionsOf(id).orElseThrow()).isEmpty();
        }
        for (int r = 1; r < Math.min(distinct.length, 2_000); r++) {
            if (distinct[r] - distinct[r - 1] > 1) {
                assertThat(sidecar.set().contains(distinct[r] - 1)).isFalse();
                assertThat(sidecar.set().rank(distinct[r] - 1)).isEqualTo(r);
            }
        }
        assertThat(metrics.snapshot().rejected()).isZero();
        return sidecar;
    }
}
