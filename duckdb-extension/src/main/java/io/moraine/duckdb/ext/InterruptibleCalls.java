package io.moraine.duckdb.ext;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The threads running the shim's interruptible calls, by call id. An interrupt reaches the thread only while its call
 * runs, and a call leaves no interrupt flag behind on the (pooled) DuckDB thread that made it.
 */
final class InterruptibleCalls
{
    private final Map<Long, Thread> running = new HashMap<>();

    <T> T run(long call, Supplier<T> body)
    {
        synchronized (this) {
            running.put(call, Thread.currentThread());
        }
        try {
            return body.get();
        }
        finally {
            synchronized (this) {
                running.remove(call);
                // An interrupt that arrived as the call finished must not hit the thread's next call.
                Thread.interrupted();
            }
        }
    }

    synchronized void interrupt(long call)
    {
        Thread thread = running.get(call);
        if (thread != null) {
            thread.interrupt();
        }
    }
}
