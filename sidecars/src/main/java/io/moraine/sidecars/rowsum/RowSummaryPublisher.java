package io.moraine.sidecars.rowsum;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.row.Row;
import io.moraine.core.catalog.RowCursor;
import io.moraine.core.io.LakeFileSystem;
import io.moraine.core.scan.DataFileTask;
import io.moraine.core.scan.RowIdentityPruning;
import io.moraine.core.scan.ScanBuilder;
import io.moraine.core.scan.ScanTask;
import io.moraine.core.scan.TaskStream;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

import static java.util.Objects.requireNonNull;

/**
 * Publishes {@code .rowsum} sidecars, only when asked (a read never publishes): a backfill over every table of a
 * snapshot, or a pass over the files of given tables registered after a snapshot. A file the catalog proves dense is
 * skipped without a read; a file already published costs one header read; any other is derived from the data file
 * and written. Files are projected lazily from the snapshot, at most {@code concurrency} at a time; each failure is
 * retried with exponential backoff; {@link #cancel} stops the pass between files and interrupts backoff sleeps.
 * Publishing neither reads nor fills the process's summary caches.
 */
public final class RowSummaryPublisher
{
    public record Options(int concurrency, int attempts, Duration initialBackoff, Duration maxBackoff)
    {
        public Options
        {
            if (concurrency < 1 || attempts < 1) {
                throw new IllegalArgumentException("publishing needs concurrency >= 1 and attempts >= 1, got " + concurrency + " and " + attempts);
            }
            requireNonNull(initialBackoff, "initialBackoff");
            requireNonNull(maxBackoff, "maxBackoff");
        }

        /** RFC 0023's: four files at a time, backoff from one second to one minute. */
        public static Options defaults()
        {
            return new Options(4, 4, Duration.ofSeconds(1), Duration.ofMinutes(1));
        }
    }

    /** Told after each file: how many are done of how many the pass will look at. */
    public interface Progress
    {
        Progress SILENT = (done, total) -> {};

        void filesDone(long done, long total);
    }

    private final LakeFileSystem files;
    private final Options options;
    private final Progress progress;
    private final RowSummaryReader headers;
    private final AtomicBoolean cancelled = new AtomicBoolean();
    private final AtomicLong published = new AtomicLong();
    private final AtomicLong alreadyPublished = new AtomicLong();
    private final AtomicLong dense = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final java.util.concurrent.ConcurrentHashMap<String, Long> failedByReason = new java.util.concurrent.ConcurrentHashMap<>();
    private final AtomicLong retries = new AtomicLong();
    private final AtomicLong bytesWritten = new AtomicLong();
    private final AtomicLong done = new AtomicLong();
    private volatile ExecutorService workers;

    public RowSummaryPublisher(LakeFileSystem files, Options options, Progress progress)
    {
        this.files = requireNonNull(files, "files");
        this.options = requireNonNull(options, "options");
        this.progress = requireNonNull(progress, "progress");
        // its own reader and metrics: publishing's header checks are not lookups
        this.headers = new RowSummaryReader(files, new RowSummaryMetrics());
    }

    /** The backfill: every data file of every table {@code snapshot} sees. */
    public PublishOutcomes publishAll(CatalogSnapshot snapshot, String dataPath)
    {
        return publish(snapshot, dataPath, snapshot.tables().stream().map(row -> row.getLong("table_id")).toList(), file -> true);
    }

    /** The files of {@code tableIds} registered after snapshot {@code sinceExclusive}; no tables, no publishing. */
    public PublishOutcomes publishSince(CatalogSnapshot snapshot, String dataPath, List<Long> tableIds, long sinceExclusive)
    {
        return publish(snapshot, dataPath, tableIds, file -> file.beginSnapshot() > sinceExclusive);
    }

    /** Stops the pass: files not started are not published, backoff sleeps end, the pass returns cancelled. */
    public void cancel()
    {
        cancelled.set(true);
        ExecutorService running = workers;
        if (running != null) {
            running.shutdownNow();
        }
    }

    private PublishOutcomes publish(CatalogSnapshot snapshot, String dataPath, List<Long> tableIds, Predicate<DataFileTask> selected)
    {
        long total = 0;
        for (long tableId : tableIds) {
            try (RowCursor rows = snapshot.dataFiles(tableId)) {
                while (rows.hasNext()) {
                    rows.next();
                    total++;
                }
            }
        }
        long expected = total;
        ExecutorService pool = Executors.newFixedThreadPool(options.concurrency(), Thread.ofPlatform().daemon().name("rowsum-publish-", 0).factory());
        workers = pool;
        Semaphore inFlight = new Semaphore(options.concurrency());
        try {
            for (long tableId : tableIds) {
                Predicate<DataFileTask> dense = RowIdentityPruning.provenPositional(snapshot, tableId);
                ScanBuilder scan = ScanBuilder.forTable(snapshot, tableId).withDataPath(Optional.of(dataPath)).withMaxSplitSize(Long.MAX_VALUE);
                try (TaskStream tasks = scan.build().planTasks()) {
                    while (tasks.hasNext() && !cancelled.get()) {
                        ScanTask task = tasks.next();
                        if (!(task instanceof DataFileTask file)) {
                            continue;
                        }
                        if (!selected.test(file) || dense.test(file)) {
                            if (selected.test(file)) {
                                this.dense.incrementAndGet();
                            }
                            fileDone(expected);
                            continue;
                        }
                        inFlight.acquire();
                        pool.execute(() -> {
                            try {
                                publishFile(file);
                            }
                            finally {
                                inFlight.release();
                                fileDone(expected);
                            }
                        });
                    }
                }
            }
            inFlight.acquire(options.concurrency());
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            cancelled.set(true);
        }
        catch (java.util.concurrent.RejectedExecutionException e) {
            // cancelled while submitting
        }
        finally {
            pool.shutdownNow();
            try {
                pool.awaitTermination(1, TimeUnit.MINUTES);
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return new PublishOutcomes(published.get(), alreadyPublished.get(), dense.get(), failed.get(), retries.get(), bytesWritten.get(), cancelled.get(),
                Map.copyOf(failedByReason));
    }

    private void fileDone(long total)
    {
        progress.filesDone(done.incrementAndGet(), total);
    }

    private void publishFile(DataFileTask task)
    {
        DataFileIdentity file = RowIdLookup.identity(task);
        Duration backoff = options.initialBackoff();
        for (int attempt = 1; !cancelled.get(); attempt++) {
            try {
                if (headers.publishedHeader(file).isPresent()) {
                    alreadyPublished.incrementAndGet();
                    return;
                }
                RowSummary summary = RowSummaryDerivation.derive(files, task, file);
                bytesWritten.addAndGet(RowSummaryWriter.write(files, file, summary));
                published.incrementAndGet();
                return;
            }
            catch (Exception e) {
                if (attempt >= options.attempts()) {
                    failed.incrementAndGet();
                    failedByReason.merge(PublishFailure.reason(e), 1L, Long::sum);
                    System.getLogger(RowSummaryPublisher.class.getName()).log(System.Logger.Level.WARNING,
                            "could not publish the row summary of " + file.path() + " after " + attempt + " attempts: " + e);
                    return;
                }
                retries.incrementAndGet();
                try {
                    Thread.sleep(backoff);
                }
                catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    return;
                }
                backoff = backoff.multipliedBy(2).compareTo(options.maxBackoff()) > 0 ? options.maxBackoff() : backoff.multipliedBy(2);
            }
        }
    }
}
