package io.moraine.testing;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Waits for an engine to see a moraine lake's newest snapshot: a process that has written reads through its writer,
 * which learns of another process's commits only from SlateDB (its next write or manifest poll, docs/writes.md "Reads
 * while fenced"), so a test that reads one engine right after another wrote waits for this first.
 */
public final class EngineHead
{
    /** How an engine reads the lake's newest snapshot id. */
    public interface Reader
    {
        long head()
                throws Exception;
    }

    private EngineHead() {}

    /** Waits up to 20 s for {@code reader} to reach {@code head}, then asserts that it did. */
    public static void await(String engine, long head, Reader reader)
            throws Exception
    {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        long seen = reader.head();
        while (seen < head && System.nanoTime() < deadline) {
            Thread.sleep(20);
            seen = reader.head();
        }
        assertThat(seen).as(engine + "'s head snapshot of the moraine lake").isEqualTo(head);
    }
}
