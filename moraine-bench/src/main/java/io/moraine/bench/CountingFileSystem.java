package io.moraine.bench;

import io.moraine.core.io.LakeFileSystem;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.SeekableInputStream;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.atomic.LongAdder;

/** A file system that counts the bytes its readers are handed: what a benchmark reports as "bytes read". */
final class CountingFileSystem
        implements LakeFileSystem
{
    private final LakeFileSystem delegate;
    private final LongAdder bytesRead = new LongAdder();

    CountingFileSystem(LakeFileSystem delegate)
    {
        this.delegate = delegate;
    }

    long bytesRead()
    {
        return bytesRead.sum();
    }

    @Override
    public InputFile newInputFile(String path, OptionalLong length)
    {
        InputFile file = delegate.newInputFile(path, length);
        return new InputFile()
        {
            @Override
            public long getLength()
                    throws IOException
            {
                return file.getLength();
            }

            @Override
            public SeekableInputStream newStream()
                    throws IOException
            {
                return new CountingStream(file.newStream());
            }
        };
    }

    @Override
    public OutputFile newOutputFile(String path)
    {
        return delegate.newOutputFile(path);
    }

    @Override
    public void deleteFile(String path)
            throws IOException
    {
        delegate.deleteFile(path);
    }

    @Override
    public List<String> listFiles(String directory)
            throws IOException
    {
        return delegate.listFiles(directory);
    }

    @Override
    public List<ListedFile> listFilesWithModificationTimes(String directory)
            throws IOException
    {
        return delegate.listFilesWithModificationTimes(directory);
    }

    private final class CountingStream
            extends SeekableInputStream
    {
        private final SeekableInputStream stream;

        CountingStream(SeekableInputStream stream)
        {
            this.stream = stream;
        }

        @Override
        public long getPos()
                throws IOException
        {
            return stream.getPos();
        }

        @Override
        public void seek(long position)
                throws IOException
        {
            stream.seek(position);
        }

        @Override
        public int read()
                throws IOException
        {
            int value = stream.read();
            if (value >= 0) {
                bytesRead.increment();
            }
            return value;
        }

        @Override
        public int read(byte[] buffer, int offset, int length)
                throws IOException
        {
            return counted(stream.read(buffer, offset, length));
        }

        @Override
        public void readFully(byte[] bytes)
                throws IOException
        {
            stream.readFully(bytes);
            bytesRead.add(bytes.length);
        }

        @Override
        public void readFully(byte[] bytes, int start, int length)
                throws IOException
        {
            stream.readFully(bytes, start, length);
            bytesRead.add(length);
        }

        @Override
        public int read(ByteBuffer buffer)
                throws IOException
        {
            return counted(stream.read(buffer));
        }

        @Override
        public void readFully(ByteBuffer buffer)
                throws IOException
        {
            int before = buffer.remaining();
            stream.readFully(buffer);
            bytesRead.add(before - buffer.remaining());
        }

        @Override
        public void close()
                throws IOException
        {
            stream.close();
        }

        private int counted(int read)
        {
            if (read > 0) {
                bytesRead.add(read);
            }
            return read;
        }
    }
}
