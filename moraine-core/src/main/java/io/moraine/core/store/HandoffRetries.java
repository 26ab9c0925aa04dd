package io.moraine.core.store;

import io.moraine.core.error.OperationInterruptedException;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The bounds of a writer hand-off: how often a process tries to take the writer back, and how long it backs off in
 * between. SlateDB 0.17 has no cap of its own where two writers open at once (each bumps the other's epoch, upstream
 * issue #571) or where an open's compactor fencing loops against the previous writer's live compactor (issue #1970):
 * every open attempt waits at most the store timeout (its future is cancelled, which stops SlateDB's loop), and the
 * attempts back off exponentially with jitter (a random half of the ceiling) so that two contending processes fall out of step.
 */
public final class HandoffRetries
{
    /** Writer opens one hand-off tries before it fails. */
    public static final int OPEN_ATTEMPTS = 5;
    /** Times one commit takes the writer back (and is re-checked) before it gives up. */
    public static final int COMMIT_ATTEMPTS = 8;
    static final Duration BASE_BACKOFF = Duration.ofMillis(20);
    static final Duration MAX_BACKOFF = Duration.ofSeconds(2);

    private HandoffRetries() {}

    /** Sleeps before retry {@code attempt} (1 for the first retry): a random time up to BASE·2^(attempt-1), capped. */
    public static void backOff(int attempt)
    {
        long ceiling = Math.min(MAX_BACKOFF.toMillis(), BASE_BACKOFF.toMillis() << Math.min(attempt - 1, 16));
        try {
            Thread.sleep(ThreadLocalRandom.current().nextLong(ceiling / 2, ceiling + 1));
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new OperationInterruptedException("interrupted while waiting to take the store's writer back", e);
        }
    }
}
