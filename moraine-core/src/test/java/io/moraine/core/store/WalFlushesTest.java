package io.moraine.core.store;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Group commit: batches applied before a flush starts share it; a failed flush fails its waiters. */
class WalFlushesTest
{
    @Test
    void batchesAppliedBeforeAFlushStartsShareIt()
            throws Exception
    {
        AtomicInteger flushes = new AtomicInteger();
        WalFlushes walFlushes = new WalFlushes(() -> {
            flushes.incrementAndGet();
            sleep(50);
        });
        int committers = 8;
        CyclicBarrier allApplied = new CyclicBarrier(committers);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < committers; i++) {
            threads.add(Thread.ofPlatform().start(() -> {
                long batch = walFlushes.applied();
                await(allApplied);
                walFlushes.awaitFlushed(batch);
            }));
        }
        for (Thread thread : threads) {
            thread.join();
        }
        assertThat(flushes.get()).as("one flush covers the eight batches applied before it").isEqualTo(1);

        long later = walFlushes.applied();
        walFlushes.awaitFlushed(later);
        assertThat(flushes.get()).as("a batch applied after the flush needs a flush of its own").isEqualTo(2);
    }

    @Test
    void aFailedFlushFailsItsWaiterAndTheNextWaiterFlushesAgain()
    {
        AtomicInteger attempts = new AtomicInteger();
        WalFlushes walFlushes = new WalFlushes(() -> {
            if (attempts.incrementAndGet() == 1) {
                throw new IllegalStateException("injected WAL failure");
            }
        });
        long batch = walFlushes.applied();
        assertThatThrownBy(() -> walFlushes.awaitFlushed(batch)).hasMessageContaining("injected WAL failure");
        walFlushes.awaitFlushed(batch);
        assertThat(attempts.get()).isEqualTo(2);
    }

    private static void sleep(long millis)
    {
        try {
            Thread.sleep(millis);
        }
        catch (InterruptedException e) {
            throw new RuntimeException(e);
        }
    }

    private static void await(CyclicBarrier barrier)
    {
        try {
            barrier.await();
        }
        catch (Exception e) {
            throw new RuntimeException(e);
        }
    }
}
