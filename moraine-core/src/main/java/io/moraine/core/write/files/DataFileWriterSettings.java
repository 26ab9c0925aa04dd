package io.moraine.core.write.files;

import org.apache.parquet.hadoop.metadata.CompressionCodecName;

import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * How DuckLake 1.5.5 has DuckDB write a data file ({@code DuckLakeInsert::GetCopyOptions}, reference writes §3.1), for
 * an engine's Parquet writer to follow.
 *
 * @param compression {@code parquet_compression}, DuckDB's default SNAPPY
 * @param compressionLevel {@code parquet_compression_level}, when set
 * @param rowGroupRows {@code parquet_row_group_size}, DuckDB's default 122880 rows
 * @param rowGroupBytes {@code parquet_row_group_size_bytes}, when set (no byte limit by default)
 * @param parquetVersion {@code parquet_version} ({@code 1} or {@code 2}), when set
 * @param targetFileSizeBytes {@code target_file_size}, 512 MiB by default: the size after which DuckDB starts a new file
 * @param rollOver whether the writer starts a new file past {@code targetFileSizeBytes}: DuckLake does for
 *         unpartitioned writes only (one file per partition otherwise)
 */
public record DataFileWriterSettings(CompressionCodecName compression, OptionalInt compressionLevel, long rowGroupRows, OptionalLong rowGroupBytes,
        Optional<Integer> parquetVersion, long targetFileSizeBytes, boolean rollOver)
{
    /** DuckDB's {@code DEFAULT_ROW_GROUP_SIZE}. */
    public static final long DEFAULT_ROW_GROUP_ROWS = 122_880;
    /** DuckLake's {@code DEFAULT_TARGET_FILE_SIZE}, {@code 1 << 29}. */
    public static final long DEFAULT_TARGET_FILE_SIZE = 1L << 29;

    public DataFileWriterSettings
    {
        requireNonNull(compression, "compression is null");
        requireNonNull(compressionLevel, "compressionLevel is null");
        requireNonNull(rowGroupBytes, "rowGroupBytes is null");
        requireNonNull(parquetVersion, "parquetVersion is null");
    }
}
