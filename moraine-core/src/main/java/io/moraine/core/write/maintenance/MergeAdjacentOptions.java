package io.moraine.core.write.maintenance;

/**
 * The options of {@code ducklake_merge_adjacent_files}: only files of at least {@code minFileSize} bytes and below
 * {@code maxFileSize} bytes (default: the table's {@code target_file_size}) are merged, and at most
 * {@code maxCompactedFiles} files are considered; null leaves an option unset.
 */
public record MergeAdjacentOptions(Long minFileSize, Long maxFileSize, Long maxCompactedFiles)
{
    public static final MergeAdjacentOptions DEFAULTS = new MergeAdjacentOptions(null, null, null);

    public MergeAdjacentOptions
    {
        if (maxCompactedFiles != null && maxCompactedFiles <= 0) {
            throw new io.moraine.core.error.InvalidArgumentException("The max_compacted_files option must be greater than zero; got " + maxCompactedFiles);
        }
        if (maxFileSize != null && maxFileSize <= 0) {
            throw new io.moraine.core.error.InvalidArgumentException("The max_file_size option must be greater than zero; got " + maxFileSize);
        }
        if (minFileSize != null && maxFileSize != null && minFileSize >= maxFileSize) {
            throw new io.moraine.core.error.InvalidArgumentException("The min_file_size must be less than max_file_size; got " + minFileSize
                    + " and " + maxFileSize);
        }
    }
}
