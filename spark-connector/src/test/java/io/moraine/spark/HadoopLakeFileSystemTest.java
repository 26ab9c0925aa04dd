package io.moraine.spark;

import io.moraine.core.io.LocalFileSystem;
import io.moraine.sidecars.rowsum.DataFileIdentity;
import io.moraine.sidecars.rowsum.RowSummary;
import io.moraine.sidecars.rowsum.RowSummaryMetrics;
import io.moraine.sidecars.rowsum.RowSummaryReader;
import io.moraine.sidecars.rowsum.RowSummaryWriter;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.FileNotFoundException;
import java.nio.file.Path;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The driver reads row summaries through Hadoop: a sidecar never published is a miss (the file is kept), not a failed
 * planning, and a published one is read.
 */
class HadoopLakeFileSystemTest
{
    @TempDir
    Path directory;

    @Test
    void aMissingFileIsAFileNotFoundOnOpenAndAMissForRowSummaries()
    {
        HadoopLakeFileSystem files = new HadoopLakeFileSystem(new Configuration());
        String absent = directory.resolve("absent.parquet").toString();
        assertThatThrownBy(() -> files.newInputFile(absent, OptionalLong.empty()).newStream()).isInstanceOf(FileNotFoundException.class).hasMessageContaining("absent.parquet");
        RowSummaryMetrics metrics = new RowSummaryMetrics();
        assertThat(new RowSummaryReader(files, metrics).open(new DataFileIdentity(1, 7, absent, 1234))).isEmpty();
        assertThat(metrics.snapshot().misses()).isEqualTo(1);
        assertThat(metrics.snapshot().readErrors()).isZero();
    }

    @Test
    void aPublishedSidecarIsReadThroughHadoop()
            throws Exception
    {
        DataFileIdentity file = new DataFileIdentity(1, 8, directory.resolve("present.parquet").toString(), 4321);
        RowSummaryWriter.write(LocalFileSystem.INSTANCE, file, RowSummary.fromFileOrder(new long[] {40, 10, 30}));
        RowSummaryMetrics metrics = new RowSummaryMetrics();
        var set = new RowSummaryReader(new HadoopLakeFileSystem(new Configuration()), metrics).open(file).orElseThrow().set();
        assertThat(set.cardinality()).isEqualTo(3);
        assertThat(set.contains(30)).isTrue();
        assertThat(set.contains(20)).isFalse();
        assertThat(metrics.snapshot().hits()).isEqualTo(1);
    }
}
