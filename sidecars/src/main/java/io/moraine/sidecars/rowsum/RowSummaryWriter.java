package io.moraine.sidecars.rowsum;

import io.moraine.core.io.LakeFileSystem;
import org.apache.parquet.io.PositionOutputStream;

import java.io.IOException;

/**
 * Writes a data file's sidecar beside it. The contents are a deterministic function of the file, so concurrent
 * writers of the same sidecar are harmless.
 */
public final class RowSummaryWriter
{
    private RowSummaryWriter() {}

    /** Returns the bytes written. */
    public static long write(LakeFileSystem files, DataFileIdentity file, RowSummary summary)
            throws IOException
    {
        byte[] bytes = RowSummaryFormat.encode(file, summary);
        try (PositionOutputStream out = files.newOutputFile(file.sidecarPath()).createOrOverwrite(0)) {
            out.write(bytes);
        }
        return bytes.length;
    }
}
