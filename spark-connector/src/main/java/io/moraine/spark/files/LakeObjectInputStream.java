package io.moraine.spark.files;

import org.apache.hadoop.fs.FSInputStream;
import org.apache.parquet.io.SeekableInputStream;

import java.io.IOException;

/** A lake file's seekable stream as Hadoop's; positioned reads are Hadoop's seek-read-seek back. */
final class LakeObjectInputStream
        extends FSInputStream
{
    private final SeekableInputStream stream;

    LakeObjectInputStream(SeekableInputStream stream)
    {
        this.stream = stream;
    }

    @Override
    public void seek(long position)
            throws IOException
    {
        stream.seek(position);
    }

    @Override
    public long getPos()
            throws IOException
    {
        return stream.getPos();
    }

    @Override
    public boolean seekToNewSource(long position)
    {
        return false;
    }

    @Override
    public int read()
            throws IOException
    {
        return stream.read();
    }

    @Override
    public int read(byte[] buffer, int offset, int length)
            throws IOException
    {
        return stream.read(buffer, offset, length);
    }

    @Override
    public void close()
            throws IOException
    {
        stream.close();
    }
}
