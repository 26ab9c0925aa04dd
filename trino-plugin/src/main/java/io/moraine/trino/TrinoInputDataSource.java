package io.moraine.trino;

import io.trino.filesystem.TrinoInput;
import io.trino.filesystem.TrinoInputFile;
import io.trino.parquet.AbstractParquetDataSource;
import io.trino.parquet.ParquetDataSourceId;
import io.trino.parquet.ParquetReaderOptions;

import java.io.IOException;

/** A Parquet file read through Trino's file system (local, S3, ...), for Trino's Parquet reader. */
final class TrinoInputDataSource
        extends AbstractParquetDataSource
{
    private final TrinoInput input;

    TrinoInputDataSource(TrinoInputFile file, long length, ParquetReaderOptions options)
            throws IOException
    {
        super(new ParquetDataSourceId(file.location().toString()), length, options);
        this.input = file.newInput();
    }

    @Override
    protected void readInternal(long position, byte[] buffer, int bufferOffset, int bufferLength)
            throws IOException
    {
        input.readFully(position, buffer, bufferOffset, bufferLength);
    }

    @Override
    public void close()
            throws IOException
    {
        input.close();
    }
}
