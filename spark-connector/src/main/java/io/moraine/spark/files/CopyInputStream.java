package io.moraine.spark.files;

import org.apache.hadoop.fs.PositionedReadable;
import org.apache.hadoop.fs.Seekable;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;

/** A seekable stream over bytes in memory, as {@link org.apache.hadoop.fs.FSDataInputStream} requires of what it wraps. */
final class CopyInputStream
        extends InputStream
        implements Seekable, PositionedReadable
{
    private final ByteBuffer bytes;

    CopyInputStream(ByteBuffer bytes)
    {
        this.bytes = bytes;
    }

    @Override
    public int read()
    {
        return bytes.hasRemaining() ? bytes.get() & 0xFF : -1;
    }

    @Override
    public int read(byte[] buffer, int offset, int length)
    {
        if (length == 0) {
            return 0;
        }
        if (!bytes.hasRemaining()) {
            return -1;
        }
        int count = Math.min(length, bytes.remaining());
        bytes.get(buffer, offset, count);
        return count;
    }

    @Override
    public int available()
    {
        return bytes.remaining();
    }

    @Override
    public long skip(long count)
    {
        int skipped = (int) Math.max(0, Math.min(count, bytes.remaining()));
        bytes.position(bytes.position() + skipped);
        return skipped;
    }

    @Override
    public void seek(long position)
            throws IOException
    {
        if (position < 0 || position > bytes.limit()) {
            throw new EOFException("cannot seek to " + position + " in a " + bytes.limit() + "-byte catalog copy");
        }
        bytes.position((int) position);
    }

    @Override
    public long getPos()
    {
        return bytes.position();
    }

    @Override
    public boolean seekToNewSource(long target)
    {
        return false;
    }

    @Override
    public int read(long position, byte[] buffer, int offset, int length)
    {
        if (position >= bytes.limit()) {
            return -1;
        }
        int count = (int) Math.min(length, bytes.limit() - position);
        bytes.get((int) position, buffer, offset, count);
        return count;
    }

    @Override
    public void readFully(long position, byte[] buffer, int offset, int length)
            throws IOException
    {
        if (position < 0 || position + length > bytes.limit()) {
            throw new EOFException("cannot read " + length + " bytes at " + position + " of a " + bytes.limit() + "-byte catalog copy");
        }
        bytes.get((int) position, buffer, offset, length);
    }

    @Override
    public void readFully(long position, byte[] buffer)
            throws IOException
    {
        readFully(position, buffer, 0, buffer.length);
    }
}
