package io.moraine.trino;

import io.trino.filesystem.TrinoInput;
import io.trino.filesystem.TrinoInputFile;
import io.trino.parquet.AbstractParquetDataSource;
import io.trino.parquet.ParquetDataSourceId;
import io.trino.parquet.ParquetReaderOptions;

import java.io.IOException;

/**
 * A Parquet file read through Trino's file system (local, S3, ...), for Trino's Parquet reader. A file smaller than
 * the reader's small-file threshold (3 MB by default) is read whole at its first read and served from memory, as
 * Trino's Hive connector does: footer and column chunks then cost one request instead of several.
 */
final class TrinoInputDataSource
        extends AbstractParquetDataSource
{
    private final TrinoInput input;
    private final boolean small;
    private byte[] whole;

    TrinoInputDataSource(TrinoInputFile file, long length, ParquetReaderOptions options)
            throws IOException
    {
        super(new ParquetDataSourceId(file.location().toString()), length, options);
        this.input = file.newInput();
        this.small = length <= options.getSmallFileThreshold().toBytes();
    }

    @Override
    protected void readInternal(long position, byte[] buffer, int bufferOffset, int bufferLength)
            throws IOException
    {
        if (!small) {
            input.readFully(position, buffer, bufferOffset, bufferLength);
            return;
        }
        if (whole == null) {
            whole = new byte[(int) getEstimatedSize()];
            input.readFully(0, whole, 0, whole.length);
        }
        System.arraycopy(whole, (int) position, buffer, bufferOffset, bufferLength);
    }

    @Override
    public void close()
            throws IOException
    {
        whole = null;
        input.close();
    }
}
