package io.moraine.core.tx;

import java.nio.ByteBuffer;
import java.util.Map;

/**
 * Observes commits at the moment their batch is ready and not yet written. Throwing from
 * {@link #beforeWrite} abandons the commit with nothing written, which is how tests inject failures.
 */
public interface CommitListener
{
    CommitListener NONE = (snapshotId, writes) -> {};

    /**
     * @param snapshotId the snapshot the commit lands, or the unchanged head for a commit that adds no snapshot
     * @param writes every key the batch puts (non-null value) or deletes (null value)
     */
    void beforeWrite(long snapshotId, Map<ByteBuffer, byte[]> writes);
}
