package io.moraine.inline.storage;

import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.OptionalLong;

/** A parquet-java input file over one S3 object, read with ranged GETs. */
final class S3InputFile
        implements InputFile
{
    private final S3Client client;
    private final S3Location location;
    private OptionalLong length;

    S3InputFile(S3Client client, S3Location location, OptionalLong length)
    {
        this.client = client;
        this.location = location;
        this.length = length;
    }

    @Override
    public long getLength()
            throws IOException
    {
        if (length.isEmpty()) {
            try {
                length = OptionalLong.of(client.headObject(HeadObjectRequest.builder().bucket(location.bucket()).key(location.key()).build()).contentLength());
            }
            catch (SdkException e) {
                throw failure("reading the size of", e);
            }
        }
        return length.getAsLong();
    }

    @Override
    public SeekableInputStream newStream()
            throws IOException
    {
        return new RangeStream(getLength());
    }

    @Override
    public String toString()
    {
        return location.toString();
    }

    private IOException failure(String action, SdkException e)
    {
        return new IOException(action + " " + location + " failed: " + e.getMessage() + "; check that the object exists and that the "
                + "AWS_* settings (credentials, AWS_REGION, AWS_ENDPOINT) allow reading it", e);
    }

    /** Reads through a buffer of at least {@link #MIN_FETCH} bytes, so parquet-java's small reads do not each cost a request. */
    private final class RangeStream
            extends SeekableInputStream
    {
        private static final int MIN_FETCH = 1 << 16;

        private final long length;
        private long position;
        private byte[] buffer = new byte[0];
        private long bufferStart;

        private RangeStream(long length)
        {
            this.length = length;
        }

        @Override
        public long getPos()
        {
            return position;
        }

        @Override
        public void seek(long newPosition)
                throws IOException
        {
            if (newPosition < 0 || newPosition > length) {
                throw new EOFException("seek to " + newPosition + " outside " + location + " (" + length + " bytes)");
            }
            position = newPosition;
        }

        @Override
        public int read()
                throws IOException
        {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] bytes, int offset, int count)
                throws IOException
        {
            if (count == 0) {
                return 0;
            }
            if (position >= length) {
                return -1;
            }
            if (position < bufferStart || position >= bufferStart + buffer.length) {
                bufferStart = position;
                buffer = fetch(position, (int) Math.min(length - position, Math.max(count, MIN_FETCH)));
            }
            int available = (int) Math.min(count, bufferStart + buffer.length - position);
            System.arraycopy(buffer, (int) (position - bufferStart), bytes, offset, available);
            position += available;
            return available;
        }

        @Override
        public void readFully(byte[] bytes)
                throws IOException
        {
            readFully(bytes, 0, bytes.length);
        }

        @Override
        public void readFully(byte[] bytes, int offset, int count)
                throws IOException
        {
            int done = 0;
            while (done < count) {
                int read = read(bytes, offset + done, count - done);
                if (read < 0) {
                    throw new EOFException("reached the end of " + location + " with " + (count - done) + " bytes still to read");
                }
                done += read;
            }
        }

        @Override
        public int read(ByteBuffer target)
                throws IOException
        {
            byte[] bytes = new byte[target.remaining()];
            int read = read(bytes, 0, bytes.length);
            if (read > 0) {
                target.put(bytes, 0, read);
            }
            return read;
        }

        @Override
        public void readFully(ByteBuffer target)
                throws IOException
        {
            byte[] bytes = new byte[target.remaining()];
            readFully(bytes, 0, bytes.length);
            target.put(bytes);
        }

        private byte[] fetch(long start, int count)
                throws IOException
        {
            GetObjectRequest request = GetObjectRequest.builder().bucket(location.bucket()).key(location.key())
                    .range("bytes=" + start + "-" + (start + count - 1))
                    .build();
            try {
                byte[] bytes = client.getObjectAsBytes(request).asByteArray();
                if (bytes.length != count) {
                    throw new EOFException(location + " returned " + bytes.length + " bytes for a " + count + "-byte range at " + start
                            + "; the object changed or is shorter than the catalog says");
                }
                return bytes;
            }
            catch (SdkException e) {
                throw failure("reading", e);
            }
        }
    }
}
