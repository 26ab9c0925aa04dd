package io.moraine.core.io;

import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A local file for parquet-java, read through a {@link FileChannel}. parquet-java's own {@code LocalInputFile} serves
 * {@code read(byte[], int, int)} and {@code read(ByteBuffer)} one byte (one system call) at a time; reads of unknown
 * length, such as a sidecar's speculative first read, need those to be bulk reads.
 */
final class ChannelInputFile
        implements InputFile
{
    private final Path path;

    ChannelInputFile(Path path)
    {
        this.path = path;
    }

    @Override
    public long getLength()
            throws IOException
    {
        return Files.size(path);
    }

    @Override
    public SeekableInputStream newStream()
            throws IOException
    {
        FileChannel channel = FileChannel.open(path, StandardOpenOption.READ);
        return new SeekableInputStream()
        {
            @Override
            public long getPos()
                    throws IOException
            {
                return channel.position();
            }

            @Override
            public void seek(long position)
                    throws IOException
            {
                channel.position(position);
            }

            @Override
            public int read()
                    throws IOException
            {
                ByteBuffer one = ByteBuffer.allocate(1);
                return channel.read(one) < 0 ? -1 : one.get(0) & 0xFF;
            }

            @Override
            public int read(byte[] bytes, int offset, int length)
                    throws IOException
            {
                return length == 0 ? 0 : channel.read(ByteBuffer.wrap(bytes, offset, length));
            }

            @Override
            public int read(ByteBuffer buffer)
                    throws IOException
            {
                return buffer.hasRemaining() ? channel.read(buffer) : 0;
            }

            @Override
            public void readFully(byte[] bytes)
                    throws IOException
            {
                readFully(ByteBuffer.wrap(bytes));
            }

            @Override
            public void readFully(byte[] bytes, int offset, int length)
                    throws IOException
            {
                readFully(ByteBuffer.wrap(bytes, offset, length));
            }

            @Override
            public void readFully(ByteBuffer buffer)
                    throws IOException
            {
                while (buffer.hasRemaining()) {
                    if (channel.read(buffer) < 0) {
                        throw new EOFException("reached the end of " + path + " with " + buffer.remaining() + " bytes left to read");
                    }
                }
            }

            @Override
            public void close()
                    throws IOException
            {
                channel.close();
            }
        };
    }

    @Override
    public String toString()
    {
        return path.toString();
    }
}
