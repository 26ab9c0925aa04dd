package io.moraine.core.write.files;

/**
 * The statistics of one leaf column of a data file, in DuckLake's terms (one {@code ducklake_file_column_stats} row):
 * min and max as DuckDB's strings, {@code valueCount} the non-null values, {@code containsNan} set for FLOAT and
 * DOUBLE only. Any of them may be null when the writer did not measure it.
 */
public record FileColumnStatistics(long columnId, Long columnSizeBytes, Long valueCount, Long nullCount, String minValue, String maxValue,
        Boolean containsNan, String extraStats)
{
}
