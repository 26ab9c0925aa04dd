package io.moraine.core.write.files;

import io.moraine.core.error.InvalidArgumentException;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The footer size DuckLake records in {@code footer_size}: the length of a Parquet file's thrift file metadata, which the
 * file's last 8 bytes hold (a little-endian int, then {@code PAR1}). Never 0 (reference writes §7.15).
 */
public final class ParquetFooters
{
    private static final byte[] MAGIC = "PAR1".getBytes(StandardCharsets.US_ASCII);

    private ParquetFooters() {}

    /** The footer length of {@code file}, read from its last 8 bytes. */
    public static long footerSize(InputFile file)
            throws IOException
    {
        long length = file.getLength();
        if (length < 12) {
            throw new InvalidArgumentException("file " + file + " has " + length + " bytes, too few for a Parquet file (at least 12); "
                    + "hand back the file the writer finished");
        }
        byte[] tail = new byte[8];
        try (SeekableInputStream stream = file.newStream()) {
            stream.seek(length - 8);
            stream.readFully(tail);
        }
        return footerSize(tail, file.toString());
    }

    /** The footer length from a file's last 8 bytes. */
    public static long footerSize(byte[] lastEightBytes, String file)
    {
        for (int i = 0; i < 4; i++) {
            if (lastEightBytes[4 + i] != MAGIC[i]) {
                throw new InvalidArgumentException("file " + file + " does not end in PAR1: it is not a finished Parquet file (an encrypted "
                        + "footer ends in PARE, which DuckLake data files do not use)");
            }
        }
        long size = Integer.toUnsignedLong(ByteBuffer.wrap(lastEightBytes, 0, 4).order(ByteOrder.LITTLE_ENDIAN).getInt());
        if (size == 0) {
            throw new InvalidArgumentException("file " + file + " records a footer of 0 bytes; a Parquet footer is never empty");
        }
        return size;
    }
}
