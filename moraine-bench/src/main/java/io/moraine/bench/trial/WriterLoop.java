package io.moraine.bench.trial;

import io.moraine.core.error.CommitConflictException;

import java.util.Random;

/**
 * The commit loop of the writers of {@code trial crash --writers 2} ({@link CoreWriterChild}, {@link DuckDbWriterChild}):
 * batch after batch, an insert of a few rows (inlined where the writer can) or of a data file's worth, with a short
 * random pause between commits so that the two writers interleave and hand the store's writer over often.
 */
final class WriterLoop
{
    /** One commit of batch {@code batch}: {@code rows} rows, inlined if {@code inlined}; logs and acknowledges it itself. */
    interface Committer
    {
        void commit(long batch, int rows, boolean inlined)
                throws Exception;
    }

    private WriterLoop() {}

    /** Says READY and waits until the parent says go: both writers of a trial start committing together. */
    static void ready(TrialChild.Announcer announcer)
    {
        synchronized (System.out) {
            System.out.println("READY");
            System.out.flush();
        }
        announcer.awaitGo();
    }

    static void ack()
    {
        synchronized (System.out) {
            System.out.println("ACK");
            System.out.flush();
        }
    }

    static void run(long firstBatch, Random random, Committer committer)
            throws InterruptedException
    {
        int consecutiveFailures = 0;
        for (long batch = firstBatch; ; batch++) {
            boolean inlined = random.nextInt(100) < 60;
            int rows = inlined ? 1 + random.nextInt(5) : 20 + random.nextInt(40);
            try {
                committer.commit(batch, rows, inlined);
                consecutiveFailures = 0;
            }
            catch (CommitConflictException e) {
                // Refused with nothing written; logged by the committer.
            }
            catch (Exception e) {
                if (++consecutiveFailures > 50) {
                    System.err.println("50 failures in a row, the last: " + e);
                    e.printStackTrace();
                    System.exit(3);
                }
            }
            Thread.sleep(random.nextInt(15));
        }
    }
}
