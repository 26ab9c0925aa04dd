package io.moraine.bench;

import java.util.Arrays;

/** The benchmarks' one timing rule: warm up, then the median of repeated runs, in milliseconds. */
final class Timing
{
    @FunctionalInterface
    interface Measured
    {
        long run()
                throws Exception;
    }

    private Timing() {}

    static double medianMillis(int warmups, int repetitions, Measured measured)
            throws Exception
    {
        for (int i = 0; i < warmups; i++) {
            measured.run();
        }
        long[] nanos = new long[repetitions];
        for (int i = 0; i < repetitions; i++) {
            long start = System.nanoTime();
            measured.run();
            nanos[i] = System.nanoTime() - start;
        }
        Arrays.sort(nanos);
        return nanos[repetitions / 2] / 1e6;
    }

    /**
     * Runs {@code measured} until {@code warmup} has passed (at least once), then the median of {@code repetitions}
     * runs: the JIT takes seconds to compile the SlateDB binding's call paths, and a fixed count of warm-up runs would
     * time a half-compiled program.
     */
    static double medianMillisAfterWarmup(java.time.Duration warmup, int repetitions, Measured measured)
            throws Exception
    {
        long deadline = System.nanoTime() + warmup.toNanos();
        do {
            measured.run();
        }
        while (System.nanoTime() < deadline);
        return medianMillis(0, repetitions, measured);
    }
}
