package io.moraine.trino;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.error.MoraineException;
import io.moraine.core.inline.read.InlinedRowsPiece;
import io.moraine.core.inline.read.InlinedRowsReader;
import io.moraine.core.scan.InlinedRowsTask;
import io.moraine.core.scan.ScanTask;
import io.moraine.core.scan.TaskStream;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.ConnectorSplitSource;
import io.trino.spi.connector.DynamicFilterSnapshot;
import io.trino.spi.predicate.TupleDomain;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Hands out a scan's splits in batches as the core plans its tasks. The scan is planned on the first batch, with the
 * dynamic filter as it stands then (Trino waits up to the requested timeout before asking); each batch is planned on
 * the planning executor, so a table with many files starts running before its last file is planned.
 *
 * <p>The inlined rows are read here, on the coordinator, so that workers never open the catalog: the inlined-rows
 * task is read through the scan's catalog view into bounded pieces ({@code moraine.inlined-split-max-rows},
 * {@code moraine.inlined-split-max-size}), each shipped as a {@link MoraineInlinedRowsSplit}. A batch takes at most one
 * piece, read when the batch is planned, and fills up with data-file splits, so the source holds one piece at a time
 * and the data files do not wait for the last piece. Once the last file is listed, the scan fails as a conflict if a
 * flush of the inlined rows committed since planning (the listing may hold its file), and a piece read after such a
 * flush fails the same way (its chunks are gone).
 */
final class MoraineSplitSource
        implements ConnectorSplitSource
{
    /** The pieces of a scan's inlined rows, read one at a time; closing releases what the reading holds. */
    interface InlinedPieces
            extends AutoCloseable
    {
        boolean hasNext();

        InlinedRowsPiece next();

        @Override
        void close();
    }

    /**
     * A scan being planned: the task stream and the catalog view it reads, closed together; the columns its data-file
     * splits carry ({@link MoraineSplit}); and how its inlined-rows task is read (through that view).
     */
    record PlannedScan(CatalogSnapshot snapshot, TaskStream tasks, Supplier<byte[]> fileColumns, Function<InlinedRowsTask, InlinedPieces> inlinedRows)
            implements AutoCloseable
    {
        @Override
        public void close()
        {
            try (snapshot) {
                tasks.close();
            }
        }
    }

    private final Function<TupleDomain<MoraineColumnHandle>, PlannedScan> planner;
    private final long maxSplitSize;
    private final long inlinedSplitMaxBytes;
    private final long dynamicFilterWaitMillis;
    private final Executor executor;
    // Touched by one planning batch at a time (Trino asks for the next batch once the last one completed).
    private PlannedScan scan;
    private InlinedPieces pieces;
    private final Queue<InlinedRowsTask> inlinedTasks = new ArrayDeque<>();
    private final List<InlinedRowsTask> inlinedSeen = new ArrayList<>();
    private boolean listed;
    private volatile boolean finished;
    private volatile boolean closed;
    private boolean planning;

    /**
     * @param planner plans the scan for a predicate on top of the table handle's own
     * @param inlinedSplitMaxBytes the byte bound of a piece of inlined rows (for weighing their splits)
     * @param dynamicFilterWaitMillis how long Trino may wait for dynamic filters before the first batch (0 when the scan has none)
     */
    MoraineSplitSource(Function<TupleDomain<MoraineColumnHandle>, PlannedScan> planner, long maxSplitSize, long inlinedSplitMaxBytes,
            long dynamicFilterWaitMillis, Executor executor)
    {
        this.planner = planner;
        this.maxSplitSize = maxSplitSize;
        this.inlinedSplitMaxBytes = inlinedSplitMaxBytes;
        this.dynamicFilterWaitMillis = dynamicFilterWaitMillis;
        this.executor = executor;
    }

    @Override
    public long getRequestedDynamicFilterWaitTimeoutMillis()
    {
        return dynamicFilterWaitMillis;
    }

    @Override
    public CompletableFuture<List<ConnectorSplit>> getNextBatch(int maxSize, DynamicFilterSnapshot dynamicFilter)
    {
        TupleDomain<MoraineColumnHandle> predicate = dynamicFilter.currentPredicate().transformKeys(MoraineColumnHandle.class::cast);
        // Completed with the planning failure itself (supplyAsync would wrap it), so Trino reports moraine's error.
        CompletableFuture<List<ConnectorSplit>> batch = new CompletableFuture<>();
        executor.execute(() -> {
            try {
                batch.complete(nextBatch(maxSize, predicate));
            }
            catch (Throwable failure) {
                batch.completeExceptionally(failure);
            }
        });
        return batch;
    }

    private List<ConnectorSplit> nextBatch(int maxSize, TupleDomain<MoraineColumnHandle> dynamicFilter)
    {
        if (!startPlanning()) {
            return List.of();
        }
        try {
            if (scan == null) {
                scan = planner.apply(dynamicFilter);
            }
            List<ConnectorSplit> batch = new ArrayList<>(Math.min(maxSize, 1024));
            boolean pieceTaken = false;
            // A closed source (a finished LIMIT, a cancelled query) stops planning at the next task.
            while (batch.size() < maxSize && !closed) {
                if (!pieceTaken && nextPieces()) {
                    InlinedRowsPiece piece = pieces.next();
                    if (piece.rows() > 0) {
                        batch.add(MoraineInlinedRowsSplit.of(piece, inlinedSplitMaxBytes));
                        pieceTaken = true;
                    }
                    continue;
                }
                if (!scan.tasks().hasNext()) {
                    break;
                }
                ScanTask task = scan.tasks().next();
                if (task instanceof InlinedRowsTask inlined) {
                    inlinedTasks.add(inlined);
                    inlinedSeen.add(inlined);
                }
                else {
                    batch.add(MoraineSplit.of(task, maxSplitSize, scan.fileColumns().get()));
                }
            }
            if (!closed && !listed && !scan.tasks().hasNext()) {
                // A flush after planning moves the inlined rows into a backdated file, which a listing still under way
                // may include beside the rows read already: once the files are all listed, no flush may have come since.
                listed = true;
                inlinedSeen.forEach(task -> InlinedRowsReader.requireNotFlushedSince(scan.snapshot(), task));
            }
            if (closed || (listed && !nextPieces())) {
                finished = true;
            }
            return batch;
        }
        catch (MoraineException e) {
            finished = true;
            throw MoraineErrorCode.toTrino(e);
        }
        catch (RuntimeException e) {
            finished = true;
            throw e;
        }
        finally {
            stopPlanning();
        }
    }

    /** Whether a piece of inlined rows is there to take: of the task being read, or of the next one (opened now). */
    private boolean nextPieces()
    {
        while (true) {
            if (pieces != null) {
                if (pieces.hasNext()) {
                    return true;
                }
                closePieces();
            }
            InlinedRowsTask task = inlinedTasks.poll();
            if (task == null) {
                return false;
            }
            pieces = scan.inlinedRows().apply(task);
        }
    }

    private void closePieces()
    {
        if (pieces != null) {
            try (InlinedPieces closing = pieces) {
                pieces = null;
            }
        }
    }

    private synchronized boolean startPlanning()
    {
        if (closed || finished) {
            return false;
        }
        planning = true;
        return true;
    }

    /** The catalog view is released by whoever is last: the planning batch when it ends finished or closed, else close(). */
    private synchronized void stopPlanning()
    {
        planning = false;
        if (finished || closed) {
            release();
        }
    }

    private void release()
    {
        if (scan != null) {
            try (PlannedScan closing = scan) {
                closePieces();
            }
            finally {
                scan = null;
            }
        }
    }

    @Override
    public boolean isFinished()
    {
        return finished;
    }

    @Override
    public void close()
    {
        closed = true;
        synchronized (this) {
            if (!planning) {
                release();
            }
        }
    }
}
