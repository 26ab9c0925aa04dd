package io.moraine.files;

import io.trino.filesystem.TrinoInputFile;
import io.trino.filesystem.TrinoInputStream;
import org.apache.parquet.io.DelegatingSeekableInputStream;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

import java.io.IOException;

/** A Trino input file as parquet-java reads files: a seekable stream, whose seeks become ranged reads on object stores. */
final class TrinoParquetInputFile
        implements InputFile
{
    private final String path;
    private final TrinoInputFile file;

    TrinoParquetInputFile(String path, TrinoInputFile file)
    {
        this.path = path;
        this.file = file;
    }

    @Override
    public long getLength()
            throws IOException
    {
        return file.length();
    }

    @Override
    public SeekableInputStream newStream()
            throws IOException
    {
        TrinoInputStream stream = file.newStream();
        return new DelegatingSeekableInputStream(stream)
        {
            @Override
            public long getPos()
                    throws IOException
            {
                return stream.getPosition();
            }

            @Override
            public void seek(long position)
                    throws IOException
            {
                stream.seek(position);
            }
        };
    }

    @Override
    public String toString()
    {
        return path;
    }
}
