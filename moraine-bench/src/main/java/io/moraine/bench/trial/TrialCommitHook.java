package io.moraine.bench.trial;

import io.moraine.core.tx.CommitListener;

import java.nio.ByteBuffer;
import java.util.Map;

/**
 * The commit listener {@link DuckDbWriterChild} has the moraine extension install (system property {@value #PROPERTY}):
 * it announces {@code before-write} when a DuckDB commit's batch is ready and not yet written.
 */
public final class TrialCommitHook
        implements CommitListener
{
    /** The extension's hook property (duckdb-extension's CommitHook). */
    static final String PROPERTY = "moraine.test.commit-listener";
    static volatile TrialChild.Announcer announcer = new TrialChild.Announcer("none");

    @Override
    public void beforeWrite(long snapshotId, Map<ByteBuffer, byte[]> writes)
    {
        announcer.announce("before-write");
    }
}
