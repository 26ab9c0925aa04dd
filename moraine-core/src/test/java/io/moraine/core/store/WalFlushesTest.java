package io.moraine.core.store;

import org.junit.jupiter.api.Test;

import java.time.Duration;
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
        }, Duration.ZERO);
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
        }, Duration.ZERO);
        long batch = walFlushes.applied();
        assertThatThrownBy(() -> walFlushes.awaitFlushed(batch)).hasMessageContaining("injected WAL failure");
        walFlushes.awaitFlushed(batch);
        assertThat(attempts.get()).isEqualTo(2);
    }

    @Test
    void aFlushWaitsForACommitterAlreadyQueuedToApply()
            throws Exception
    {
        AtomicInteger flushes = new AtomicInteger();
        WalFlushes walFlushes = new WalFlushes(flushes::incrementAndGet, Duration.ofSeconds(30));
        WalFlushes.Arrival second = walFlushes.committerArriving();
        long first = walFlushes.applied();
        Thread firstCommitter = Thread.ofPlatform().start(() -> walFlushes.awaitFlushed(first));
        sleep(100);
        assertThat(flushes.get()).as("no flush while a committer is queued to apply").isZero();
        long secondBatch = walFlushes.applied();
        second.close();
        firstCommitter.join();
        walFlushes.awaitFlushed(secondBatch);
        assertThat(flushes.get()).as("one flush covers the first batch and the one that was queued").isEqualTo(1);
    }

    @Test
    void aCommitterThatNeverAppliesHoldsAFlushBackOnlyForTheGroupWait()
    {
        AtomicInteger flushes = new AtomicInteger();
        WalFlushes walFlushes = new WalFlushes(flushes::incrementAndGet, Duration.ofMillis(50));
        WalFlushes.Arrival stuck = walFlushes.committerArriving();
        long batch = walFlushes.applied();
        long started = System.nanoTime();
        walFlushes.awaitFlushed(batch);
        assertThat(flushes.get()).isEqualTo(1);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).as("the flush waited for the group wait").isGreaterThanOrEqualTo(Duration.ofMillis(50));
        stuck.close();
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
