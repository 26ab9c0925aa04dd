package io.moraine.core.store;

import io.moraine.core.error.StoreObjectMissingException;

import java.util.function.Supplier;

/**
 * Redoes, once, a read of a read-only handle that found a file gone ({@link StoreObjectMissingException}): it moves the
 * read to a reader of the store's current state first. A reader that keeps no checkpoint may still read the state
 * before a compaction after the writer's garbage collector deleted what that compaction replaced; the compaction wrote
 * a newer manifest before the deletion, so a reader opened now reads the files that replaced them. Catalog rows are
 * versioned by snapshot id in the keyspace, so the redone read gives the same answer.
 */
final class MissingObjectRetry
{
    // Tests turn it off to show that such a read fails without the retry.
    static volatile boolean enabled = true;

    private final Runnable moveOn;

    /** {@code moveOn} makes the handle's later reads go to a reader opened after this call. */
    MissingObjectRetry(Runnable moveOn)
    {
        this.moveOn = moveOn;
    }

    static boolean isMissingObject(Throwable failure)
    {
        return failure instanceof StoreObjectMissingException;
    }

    /** Whether a read that failed with {@code failure} is redone on a new reader. */
    boolean applies(Throwable failure)
    {
        return enabled && isMissingObject(failure);
    }

    /** Redoes {@code read} on a new reader if {@code failure} is a missing file, else rethrows it. */
    <T> T redo(RuntimeException failure, Supplier<T> read)
    {
        if (!applies(failure)) {
            throw failure;
        }
        moveOn.run();
        try {
            return read.get();
        }
        catch (StoreObjectMissingException again) {
            again.addSuppressed(failure);
            throw new StoreObjectMissingException("a read found a file of the store gone, and found one gone again after moving to a reader of the "
                    + "store's current state: " + again.getMessage(), again);
        }
    }

    /** Moves the handle to a new reader (a scan that {@link #applies} to goes on there). */
    void moveOn()
    {
        moveOn.run();
    }
}
