package io.moraine.core.scan;

import org.apache.parquet.io.DelegatingSeekableInputStream;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

import java.io.ByteArrayInputStream;
import java.io.Serializable;
import java.nio.ByteBuffer;

import static java.util.Objects.requireNonNull;

/**
 * The whole bytes of a small data or delete file, kept in the catalog beside the file's row (a tiny-file copy), so that
 * a reader needs no object-store request for it. The bytes are the file's, unchanged: a reader parses them as it would
 * parse the file.
 */
public final class FileCopy
        implements Serializable
{
    private final byte[] bytes;

    private FileCopy(byte[] bytes)
    {
        this.bytes = bytes;
    }

    /** A copy of {@code bytes}; the array is not copied, so the caller must not change it afterwards. */
    public static FileCopy wrap(byte[] bytes)
    {
        return new FileCopy(requireNonNull(bytes, "bytes is null"));
    }

    public int length()
    {
        return bytes.length;
    }

    /** The bytes, read-only. */
    public ByteBuffer buffer()
    {
        return ByteBuffer.wrap(bytes).asReadOnlyBuffer();
    }

    /** A fresh array holding the bytes. */
    public byte[] toByteArray()
    {
        return bytes.clone();
    }

    /** The bytes as a parquet-java file, for the readers that take one. */
    public InputFile inputFile()
    {
        return new InputFile()
        {
            @Override
            public long getLength()
            {
                return bytes.length;
            }

            @Override
            public SeekableInputStream newStream()
            {
                SeekableBytes in = new SeekableBytes(bytes);
                return new DelegatingSeekableInputStream(in)
                {
                    @Override
                    public long getPos()
                    {
                        return in.position();
                    }

                    @Override
                    public void seek(long position)
                    {
                        in.seek(position);
                    }
                };
            }

            @Override
            public String toString()
            {
                return "catalog copy (" + bytes.length + " bytes)";
            }
        };
    }

    /** Bytes that go only to the array given (serialization writes the array itself). */
    byte[] array()
    {
        return bytes;
    }

    @Override
    public String toString()
    {
        return "FileCopy[" + bytes.length + " bytes]";
    }

    private static final class SeekableBytes
            extends ByteArrayInputStream
    {
        SeekableBytes(byte[] bytes)
        {
            super(bytes);
        }

        long position()
        {
            return pos;
        }

        void seek(long position)
        {
            if (position < 0 || position > count) {
                throw new IllegalArgumentException("position " + position + " is outside a " + count + "-byte copy");
            }
            pos = (int) position;
        }
    }
}
