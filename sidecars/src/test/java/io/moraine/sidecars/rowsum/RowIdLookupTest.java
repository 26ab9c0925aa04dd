package io.moraine.sidecars.rowsum;

import io.moraine.core.io.LocalFileSystem;
import io.moraine.core.scan.ColumnDomain;
import io.moraine.core.scan.DataFileTask;
import io.moraine.core.scan.ValueRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;

import static io.moraine.sidecars.rowsum.RowIdShapes.shuffled;
import static io.moraine.sidecars.rowsum.RowIdShapes.sparse;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lookup chain behind the core's {@code RowIdMembership}: the cache first, then the sidecar's set (never its
 * order), and a file nothing answers kept; every domain answer checked against the ids themselves.
 */
class RowIdLookupTest
{
    @TempDir
    Path directory;

    @Test
    void aPublishedFileIsJudgedByItsSetAndThenFromTheCache()
            throws Exception
    {
        long[] ids = shuffled(sparse(20_000, 50, 1), 2);
        DataFileTask task = task(1, "a.parquet");
        RowSummaryWriter.write(LocalFileSystem.INSTANCE, RowIdLookup.identity(task), RowSummary.fromFileOrder(ids));
        RowSummaryMetrics metrics = new RowSummaryMetrics();
        RowSummaryCache cache = new RowSummaryCache(10 << 20, 0);
        RowIdLookup lookup = new RowIdLookup(LocalFileSystem.INSTANCE, new RowSummaryReader(LocalFileSystem.INSTANCE, metrics), cache, false);
        long[] sorted = ids.clone();
        Arrays.sort(sorted);
        int compared = 0;
        for (long probe = 0; probe < sorted[sorted.length - 1] + 100; probe += 37) {
            boolean held = Arrays.binarySearch(sorted, probe) >= 0;
            assertThat(lookup.mayHold(task, ColumnDomain.values(List.of(probe)))).as("id %s", probe).isEqualTo(held);
            long low = probe;
            long high = probe + 20;
            boolean anyInRange = Arrays.stream(sorted).anyMatch(id -> id >= low && id <= high);
            assertThat(lookup.mayHold(task, ColumnDomain.of(new ValueRange(java.util.Optional.of(low), true, java.util.Optional.of(high), true))))
                    .as("ids %s..%s", low, high).isEqualTo(anyInRange);
            compared++;
        }
        assertThat(compared).isGreaterThan(20_000);
        // one sidecar open, its order never read; everything after answered by the cache
        assertThat(metrics.snapshot().hits()).isEqualTo(1);
        assertThat(metrics.snapshot().orderReads()).isZero();
        assertThat(cache.membershipBytes()).isPositive();
    }

    @Test
    void aFileWithoutSidecarIsKeptAndNotCached()
    {
        RowSummaryMetrics metrics = new RowSummaryMetrics();
        RowIdLookup lookup = new RowIdLookup(LocalFileSystem.INSTANCE, new RowSummaryReader(LocalFileSystem.INSTANCE, metrics), new RowSummaryCache(1 << 20, 0), false);
        DataFileTask task = task(2, "none.parquet");
        assertThat(lookup.mayHold(task, ColumnDomain.values(List.of(5L)))).isTrue();
        assertThat(lookup.mayHold(task, ColumnDomain.values(List.of(6L)))).isTrue();
        // a sidecar may be published later: a miss is asked again
        assertThat(metrics.snapshot().misses()).isEqualTo(2);
    }

    @Test
    void theCacheEvictsLeastRecentlyUsedMembershipsPastItsBytes()
    {
        RowIdSet set = RowSummary.setOf(sparse(1_000, 3, 3));
        long weight = RowSummaryCache.weight(set);
        RowSummaryCache cache = new RowSummaryCache(3 * weight, 0);
        for (int i = 0; i < 5; i++) {
            cache.putMembership(RowIdLookup.identity(task(i, "f" + i + ".parquet")), set);
            assertThat(cache.membershipBytes()).isLessThanOrEqualTo(3 * weight);
        }
        assertThat(cache.membership(RowIdLookup.identity(task(0, "f0.parquet")))).isEmpty();
        assertThat(cache.membership(RowIdLookup.identity(task(4, "f4.parquet")))).contains(set);
        assertThat(cache.membershipBytes()).isEqualTo(3 * weight);
    }

    private DataFileTask task(long dataFileId, String name)
    {
        return new DataFileTask(7, 1, dataFileId, directory.resolve(name).toString(), 1000 + dataFileId, 20_000, OptionalLong.empty(), OptionalLong.empty(),
                1, OptionalLong.of(3), List.of(), new long[0], OptionalLong.empty(), List.of(), 0, 1000 + dataFileId);
    }
}
