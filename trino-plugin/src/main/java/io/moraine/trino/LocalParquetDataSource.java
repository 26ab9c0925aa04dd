package io.moraine.trino;

import io.trino.parquet.AbstractParquetDataSource;
import io.trino.parquet.ParquetDataSourceId;
import io.trino.parquet.ParquetReaderOptions;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Path;

/** A Parquet file on the local file system, for Trino's Parquet reader. */
final class LocalParquetDataSource
        extends AbstractParquetDataSource
{
    private final RandomAccessFile file;

    LocalParquetDataSource(Path path, ParquetReaderOptions options)
            throws IOException
    {
        super(new ParquetDataSourceId(path.toString()), path.toFile().length(), options);
        this.file = new RandomAccessFile(path.toFile(), "r");
    }

    @Override
    protected void readInternal(long position, byte[] buffer, int bufferOffset, int bufferLength)
            throws IOException
    {
        file.seek(position);
        file.readFully(buffer, bufferOffset, bufferLength);
    }

    @Override
    public void close()
            throws IOException
    {
        file.close();
    }
}
