package io.moraine.core.error;

/**
 * A file the store's state names is gone from the object store: most often an SST the writer's garbage collector
 * deleted after a compaction replaced it, while a reader that keeps no checkpoint still read the state before the
 * compaction. An on-demand read-only handle redoes such a read once on the store's current state (docs/freshness.md), so
 * from one this reaches a caller only when that retry failed too.
 */
public class StoreObjectMissingException
        extends StoreException
{
    public StoreObjectMissingException(String message, Throwable cause)
    {
        super(message, cause);
    }
}
