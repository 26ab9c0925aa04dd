package io.moraine.core.store;

/** How a process opens a store. */
public enum OpenMode
{
    /**
     * The one writer. Opening read-write fences any other writer of the store: its next commit fails with
     * {@code FencedException}.
     */
    READ_WRITE,
    /**
     * A reader following the writer's commits. It never writes catalog data and never fences anyone, but SlateDB's
     * reader keeps a checkpoint in the store's manifest while it is open, so it needs write access to the manifest.
     */
    READ_ONLY,
    /**
     * A reader pinned to a checkpoint created beforehand: it sees exactly the state the checkpoint captured and
     * writes nothing at all to the store.
     */
    CHECKPOINT,
    /**
     * A reader that follows the newest manifest and keeps no checkpoint: it writes nothing at all to the store. Without
     * a checkpoint a writer's garbage collection may delete files it still reads, so open a store nobody writes this
     * way (bin/moraine verify does), or pin a checkpoint instead.
     */
    UNPINNED
}
