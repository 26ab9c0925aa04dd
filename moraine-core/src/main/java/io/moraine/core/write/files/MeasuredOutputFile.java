package io.moraine.core.write.files;

import org.apache.parquet.io.DelegatingPositionOutputStream;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * An output file that remembers how many bytes were written and the last eight of them, which in a Parquet file are
 * the Thrift footer's length and {@code PAR1}: the catalog's sizes without reading the file back from the store.
 */
public final class MeasuredOutputFile
        implements OutputFile
{
    private final OutputFile target;
    private final byte[] tail = new byte[8];
    private long written;

    public MeasuredOutputFile(OutputFile target)
    {
        this.target = target;
    }

    public long length()
    {
        return written;
    }

    /** The little-endian footer length before the trailing {@code PAR1}. */
    public long footerLength()
    {
        byte[] last = new byte[8];
        for (int i = 0; i < 8; i++) {
            last[i] = tail[(int) ((written + i) % 8)];
        }
        return ByteBuffer.wrap(last, 0, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
    }

    @Override
    public PositionOutputStream create(long blockSizeHint)
            throws IOException
    {
        return new Counting(target.create(blockSizeHint));
    }

    @Override
    public PositionOutputStream createOrOverwrite(long blockSizeHint)
            throws IOException
    {
        return new Counting(target.createOrOverwrite(blockSizeHint));
    }

    @Override
    public boolean supportsBlockSize()
    {
        return target.supportsBlockSize();
    }

    @Override
    public long defaultBlockSize()
    {
        return target.defaultBlockSize();
    }

    @Override
    public String getPath()
    {
        return target.getPath();
    }

    /** Forwards every write, remembering its count and the last eight bytes. */
    private final class Counting
            extends DelegatingPositionOutputStream
    {
        private final PositionOutputStream out;

        private Counting(PositionOutputStream out)
        {
            super(out);
            this.out = out;
        }

        @Override
        public long getPos()
                throws IOException
        {
            return out.getPos();
        }

        @Override
        public void write(int b)
                throws IOException
        {
            out.write(b);
            remember((byte) b);
        }

        @Override
        public void write(byte[] b)
                throws IOException
        {
            // The base class would hand this straight to the stream, uncounted.
            write(b, 0, b.length);
        }

        @Override
        public void write(byte[] b, int off, int len)
                throws IOException
        {
            out.write(b, off, len);
            int kept = Math.min(len, 8);
            written += len - kept;
            for (int i = off + len - kept; i < off + len; i++) {
                remember(b[i]);
            }
        }

        private void remember(byte b)
        {
            tail[(int) (written % 8)] = b;
            written++;
        }
    }
}
