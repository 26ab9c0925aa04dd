package io.moraine.sidecars.rowsum;

import io.moraine.core.io.LakeFileSystem;
import org.apache.parquet.io.SeekableInputStream;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.OptionalLong;

/** Ranged reads of one sidecar: each call is one positioned read (one ranged GET on an object store). */
final class RangeReader
{
    private final LakeFileSystem files;
    private final String path;
    private final RowSummaryMetrics metrics;

    RangeReader(LakeFileSystem files, String path, RowSummaryMetrics metrics)
    {
        this.files = files;
        this.path = path;
        this.metrics = metrics;
    }

    String path()
    {
        return path;
    }

    /** Up to {@code length} bytes from {@code offset}; fewer only when the file ends first. */
    byte[] read(long offset, int length)
            throws IOException
    {
        byte[] buffer = new byte[length];
        // read(ByteBuffer), not read(byte[], ...): parquet-java's local stream reads the latter a byte at a time
        ByteBuffer target = ByteBuffer.wrap(buffer);
        try (SeekableInputStream stream = files.newInputFile(path, OptionalLong.empty()).newStream()) {
            stream.seek(offset);
            while (target.hasRemaining() && stream.read(target) >= 0) {
                // until full or the end of the file
            }
        }
        int filled = target.position();
        metrics.bytesRead(filled);
        return filled == length ? buffer : Arrays.copyOf(buffer, filled);
    }
}
