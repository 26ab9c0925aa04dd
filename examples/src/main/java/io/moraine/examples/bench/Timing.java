package io.moraine.examples.bench;

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
}
