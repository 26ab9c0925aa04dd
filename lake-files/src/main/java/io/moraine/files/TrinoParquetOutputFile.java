package io.moraine.files;

import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import org.apache.parquet.io.DelegatingPositionOutputStream;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

import java.io.IOException;
import java.io.OutputStream;

/**
 * A Trino output file as parquet-java writes files: Trino's streaming writer (on S3 a multipart upload in parts of the
 * file system's part size), behind a stream that counts its position. Failures name the file.
 */
final class TrinoParquetOutputFile
        implements OutputFile
{
    private final String path;
    private final TrinoFileSystem fileSystem;
    private final Location location;

    TrinoParquetOutputFile(String path, TrinoFileSystem fileSystem, Location location)
    {
        this.path = path;
        this.fileSystem = fileSystem;
        this.location = location;
    }

    @Override
    public PositionOutputStream create(long blockSizeHint)
            throws IOException
    {
        try {
            return new PositionCounting(fileSystem.newOutputFile(location).create());
        }
        catch (IOException e) {
            throw failure("creating", e);
        }
    }

    @Override
    public PositionOutputStream createOrOverwrite(long blockSizeHint)
            throws IOException
    {
        // Trino's streaming writer only creates new files.
        try {
            fileSystem.deleteFile(location);
        }
        catch (IOException e) {
            throw failure("replacing", e);
        }
        return create(blockSizeHint);
    }

    @Override
    public boolean supportsBlockSize()
    {
        return false;
    }

    @Override
    public long defaultBlockSize()
    {
        return -1;
    }

    @Override
    public String getPath()
    {
        return path;
    }

    private IOException failure(String action, IOException e)
    {
        return new IOException(action + " " + path + " failed: " + e.getMessage() + "; check that its bucket or directory exists and that the "
                + "file system's credentials allow writing there", e);
    }

    private final class PositionCounting
            extends DelegatingPositionOutputStream
    {
        private final OutputStream out;
        private long position;

        private PositionCounting(OutputStream out)
        {
            super(out);
            this.out = out;
        }

        @Override
        public long getPos()
        {
            return position;
        }

        @Override
        public void write(int b)
                throws IOException
        {
            try {
                out.write(b);
            }
            catch (IOException e) {
                throw failure("writing", e);
            }
            position++;
        }

        @Override
        public void write(byte[] b)
                throws IOException
        {
            write(b, 0, b.length);
        }

        @Override
        public void write(byte[] b, int off, int len)
                throws IOException
        {
            try {
                out.write(b, off, len);
            }
            catch (IOException e) {
                throw failure("writing", e);
            }
            position += len;
        }

        /** Closing finishes the file: on S3 this uploads the last part (or the whole file in one request). */
        @Override
        public void close()
                throws IOException
        {
            try {
                out.close();
            }
            catch (IOException e) {
                throw failure("writing", e);
            }
        }
    }
}
