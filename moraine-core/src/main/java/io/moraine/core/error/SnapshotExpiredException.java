package io.moraine.core.error;

/** The requested snapshot was expired and its rows reclaimed. */
public class SnapshotExpiredException
        extends MoraineException
{
    public SnapshotExpiredException(String message)
    {
        super(ErrorCode.SNAPSHOT_EXPIRED, message, null);
    }

    public SnapshotExpiredException(String message, Throwable cause)
    {
        super(ErrorCode.SNAPSHOT_EXPIRED, message, cause);
    }
}
