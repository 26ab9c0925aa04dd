package io.moraine.core.write.files;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ParquetFileStatistics#withWrittenNans}: a writer that saw every value of a top-level FLOAT or DOUBLE column
 * says whether it held a NaN (the footer of parquet-java 1.17, Spark's and Trino's, cannot); other columns keep the
 * footer's answer.
 */
class WrittenNansTest
{
    @Test
    void theWriterDecidesContainsNanOfTheColumnsItSaw()
    {
        List<FileColumnStatistics> footer = List.of(
                stats(1, null), // not floating point
                stats(2, true), // a DOUBLE without NaN: the footer had to assume one
                stats(3, true), // a DOUBLE with a NaN
                stats(4, true)); // a nested FLOAT leaf the writer did not follow
        List<FileColumnStatistics> written = ParquetFileStatistics.withWrittenNans(footer, Map.of(1L, true, 2L, false, 3L, true));
        assertThat(written).extracting(FileColumnStatistics::containsNan).containsExactly(null, false, true, true);
        assertThat(written.get(1)).isEqualTo(stats(2, false));
    }

    private static FileColumnStatistics stats(long columnId, Boolean containsNan)
    {
        return new FileColumnStatistics(columnId, 10L, 5L, 0L, "1.0", "2.0", containsNan, null);
    }
}
