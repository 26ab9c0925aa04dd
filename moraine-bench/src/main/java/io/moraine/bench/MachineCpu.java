package io.moraine.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * CPU time the whole machine spent (every process: the benchmark's JVM and a database server beside it), from
 * Linux's {@code /proc/stat}; empty where that file cannot be read. Only meaningful on an otherwise quiet machine.
 */
final class MachineCpu
{
    private static final Path STAT = Path.of("/proc/stat");
    // /proc/stat counts in USER_HZ ticks, 100 a second on every Linux architecture the shim builds for.
    private static final long NANOS_PER_TICK = 10_000_000L;

    private MachineCpu() {}

    /** Busy CPU time so far (user, nice, system, irq, softirq and steal of all CPUs), in nanoseconds. */
    static OptionalLong busyNanos()
    {
        try {
            String[] fields = Files.readAllLines(STAT).get(0).trim().split("\\s+");
            // cpu user nice system idle iowait irq softirq steal ...
            long ticks = 0;
            for (int field : new int[] {1, 2, 3, 6, 7, 8}) {
                ticks += field < fields.length ? Long.parseLong(fields[field]) : 0;
            }
            return OptionalLong.of(ticks * NANOS_PER_TICK);
        }
        catch (IOException | RuntimeException e) {
            return OptionalLong.empty();
        }
    }
}
