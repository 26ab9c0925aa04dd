package io.moraine.spark;

import org.apache.spark.sql.connector.read.InputPartition;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

class DataFileGroupPartitionTest
{
    private static final long MB = 1 << 20;

    @Test
    void smallFilesShareAPartitionUpToTheLimitAndALargeFileKeepsItsOwn()
    {
        List<DataFilePartition> files = IntStream.range(0, 5).mapToObj(i -> new DataFilePartition(new byte[] {(byte) i}, "f" + i)).toList();
        // cost = size + 4 MB open cost; limit 10 MB: [f0, f1] (8), [f2] (64 + 4), [f3, f4] (8)
        List<InputPartition> packed = DataFileGroupPartition.pack(files, List.of(0L, 0L, 64 * MB, 0L, 0L), 4 * MB, 10 * MB);
        assertThat(packed).hasSize(3);
        assertThat(((DataFileGroupPartition) packed.get(0)).files()).extracting(DataFilePartition::path).containsExactly("f0", "f1");
        assertThat(packed.get(1)).isInstanceOf(DataFilePartition.class).extracting(partition -> ((DataFilePartition) partition).path()).isEqualTo("f2");
        assertThat(((DataFileGroupPartition) packed.get(2)).files()).extracting(DataFilePartition::path).containsExactly("f3", "f4");
    }

    @Test
    void theLimitFollowsSparksRule()
    {
        // 5,000 tiny files on 2 cores: min(128 MB, max(4 MB, 5,000 x 4 MB / 2)) = 128 MB, 32 files a partition
        assertThat(DataFileGroupPartition.maxGroupBytes(5000 * 4 * MB, 128 * MB, 4 * MB, 2)).isEqualTo(128 * MB);
        // a small table still spreads over the cores
        assertThat(DataFileGroupPartition.maxGroupBytes(8 * 4 * MB, 128 * MB, 4 * MB, 4)).isEqualTo(8 * MB);
        assertThat(DataFileGroupPartition.pack(List.of(), List.of(), 4 * MB, 8 * MB)).isEmpty();
    }
}
