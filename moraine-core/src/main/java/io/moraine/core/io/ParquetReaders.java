package io.moraine.core.io;

import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.HadoopReadOptions;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.InputFile;

import java.io.IOException;

/**
 * Opens Parquet files with parquet-java without Hadoop's default configuration: {@code ParquetFileReader.open(file)}
 * builds a fresh Hadoop {@code Configuration} per file, which parses Hadoop's default XML resources on first use —
 * milliseconds of CPU per file, more than reading a small delete file. Codecs are named by parquet-java itself, so an
 * empty configuration reads every file DuckDB writes.
 */
public final class ParquetReaders
{
    private ParquetReaders() {}

    public static ParquetFileReader open(InputFile file)
            throws IOException
    {
        return ParquetFileReader.open(file, HadoopReadOptions.builder(new Configuration(false)).build());
    }
}
