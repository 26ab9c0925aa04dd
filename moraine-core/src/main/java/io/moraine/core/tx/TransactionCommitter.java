package io.moraine.core.tx;

import io.moraine.core.store.CommittedRowsCache;
import io.moraine.core.store.RowStamps;
import io.moraine.core.store.StoreFacts;
import io.moraine.core.row.TableKind;
import io.moraine.core.error.CommitConflictException;
import io.moraine.core.error.CommitOutcomeUnknownException;
import io.moraine.core.error.OperationInterruptedException;
import io.moraine.core.error.StoreException;
import io.moraine.core.keyspace.SystemKeys;
import io.moraine.core.store.KeyValueReader;
import io.moraine.core.store.SlateStore;
import io.moraine.core.store.HandoffRetries;
import io.moraine.core.store.WriterMode;
import io.moraine.core.error.WriterHandoffException;

import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * Lands staged transactions on the store: one at a time, it checks the head, rebases or refuses a transaction that
 * read an older snapshot, translates its operations and applies them as one batch; then, outside the commit lock, it
 * waits for the batch to be durable before acknowledging it. Committers that queue up while a write-ahead-log flush
 * is in flight thus share the next flush (group commit), and readers see a commit only once it is durable.
 * <p>
 * A commit interrupted once its batch is submitted (while SlateDB writes it or while it becomes durable) has an
 * unknown outcome: SlateDB does not withdraw a submitted batch, which lands if the store accepts it later. It fails
 * with {@link CommitOutcomeUnknownException}, and from then on this committer refuses every write: its in-memory state
 * holds the batch whatever the store's durable state, and the engine (DuckLake) treats the failed commit as not landed.
 */
public final class TransactionCommitter
{
    private final SlateStore store;
    private final CommitListener listener;
    private final Object commitLock = new Object();
    private final CommitterReadCache cache = new CommitterReadCache();
    private final CommittedRowsCache rowsCache;
    /** Set once a commit's outcome is unknown: what happened, for the refusal of later writes. */
    private volatile String outcomeUnknown;

    public TransactionCommitter(SlateStore store, CommitListener listener, CommittedRowsCache rowsCache)
    {
        this.store = requireNonNull(store, "store is null");
        this.listener = requireNonNull(listener, "listener is null");
        this.rowsCache = requireNonNull(rowsCache, "rowsCache is null");
    }

    public StagedTransaction begin(long readSnapshotId)
    {
        return new StagedTransaction(this, readSnapshotId);
    }

    /**
     * Writes a new catalog: the format record, the store facts and {@code operations} (DuckLake's bootstrap rows, or
     * every row of an imported catalog) as one durable batch, so that a failure leaves no partial catalog.
     */
    public long commitCreation(byte[] formatRecord, StoreFacts facts, List<StagedOperation> operations)
    {
        refuseWhileOutcomeUnknown();
        synchronized (commitLock) {
            KeyValueReader reader = cache.over(store.latestIncludingPending());
            CommitTranslator.Plan plan = new CommitTranslator(reader, facts, readHead(reader)).translate(operations);
            java.util.Map<java.nio.ByteBuffer, byte[]> writes = new java.util.LinkedHashMap<>();
            writes.put(java.nio.ByteBuffer.wrap(SystemKeys.FORMAT), formatRecord);
            writes.put(java.nio.ByteBuffer.wrap(SystemKeys.STORE_FACTS), facts.encode());
            writes.putAll(plan.writes());
            Set<TableKind> changed = EnumSet.allOf(TableKind.class);
            RowStamps.stamp(writes, changed);
            long landed = plan.newHead().orElse(-1);
            listener.beforeWrite(landed, writes);
            try (SlateStore.PendingWrite pending = applyToStore(reader, writes, changed)) {
                awaitDurable(pending);
            }
            return landed;
        }
    }

    /**
     * Lands a staged transaction. In {@link WriterMode#HANDOFF} a commit whose store writer another process took (before
     * it or while its batch became durable) takes the writer back and is checked again from the new head, as if it had
     * just arrived: rebased if it only adds data, refused as a conflict otherwise. Its batch on the fenced writer was
     * not durable (SlateDB fails {@code awaitDurable} with FENCED only for a batch not in the write-ahead log before the
     * fence), so it is not acknowledged; in case it landed all the same, the new writer's state is looked at first, so
     * that a commit is never acknowledged twice.
     */
    long commit(long readSnapshotId, List<StagedOperation> operations, CommitPolicy policy)
    {
        if (!operations.isEmpty()) {
            refuseWhileOutcomeUnknown();
        }
        // A batch applied on a writer that was then fenced: whether it landed is looked at before anything is retried.
        Applied unsettled = null;
        for (int attempt = 1; ; attempt++) {
            int generation = store.writerGeneration();
            Applied applied = null;
            try {
                if (unsettled != null) {
                    if (landedAnyway(unsettled.writes())) {
                        return unsettled.landed();
                    }
                    unsettled = null;
                }
                // Announced before queueing on the commit lock, so that a flush starting meanwhile waits to cover this batch too.
                try (SlateStore.CommitterArrival arrival = store.committerArriving()) {
                    applied = translateAndApply(readSnapshotId, operations, policy);
                }
                if (applied.pending() == null) {
                    // Nothing written, but the head reported may be a pending commit's: acknowledge it only once durable.
                    store.awaitAppliedDurable();
                    return applied.landed();
                }
                try (SlateStore.PendingWrite pending = applied.pending()) {
                    awaitDurable(pending);
                }
                return applied.landed();
            }
            catch (RuntimeException e) {
                if (!store.isHandoffFailure(e)) {
                    throw e;
                }
                if (applied != null && applied.pending() != null) {
                    unsettled = applied;
                }
                takeWriterBack(generation, attempt, e);
            }
        }
    }

    /**
     * Takes the store's writer back after a hand-off failure of attempt {@code attempt} (backing off first when the
     * writer moved more than once under this commit), and forgets everything cached of the store's state.
     */
    private void takeWriterBack(int generation, int attempt, RuntimeException failure)
    {
        if (attempt >= HandoffRetries.COMMIT_ATTEMPTS) {
            throw new WriterHandoffException("moraine: the store's writer moved to another process " + attempt + " times during this commit on store "
                    + store.uri() + "; nothing of it landed. Retry the commit (another process is committing to the store right now).", failure);
        }
        if (attempt > 1) {
            HandoffRetries.backOff(attempt - 1);
        }
        synchronized (commitLock) {
            store.takeWriterBack(generation);
            cache.clear();
            rowsCache.clear();
        }
    }

    /**
     * Whether a batch whose durability wait failed in a hand-off is in the new writer's state all the same: its
     * snapshot row is there, byte for byte (the row holds the commit's own time), or else every row stamp it wrote
     * (random values) still is.
     */
    private boolean landedAnyway(Map<ByteBuffer, byte[]> writes)
    {
        synchronized (commitLock) {
            KeyValueReader reader = store.latestIncludingPending();
            boolean stamped = false;
            for (Map.Entry<ByteBuffer, byte[]> write : writes.entrySet()) {
                byte[] key = io.moraine.core.keyspace.KeyBytes.toArray(write.getKey());
                if (write.getValue() != null && isCurrentSnapshotRow(write.getKey())) {
                    return java.util.Arrays.equals(reader.get(key), write.getValue());
                }
            }
            for (TableKind kind : RowStamps.changedKinds(writes)) {
                byte[] written = writes.get(ByteBuffer.wrap(SystemKeys.rowStamp(kind)));
                if (written == null || !java.util.Arrays.equals(reader.get(SystemKeys.rowStamp(kind)), written)) {
                    return false;
                }
                stamped = true;
            }
            return stamped;
        }
    }

    private static boolean isCurrentSnapshotRow(ByteBuffer key)
    {
        return key.remaining() >= 2 && key.get(key.position()) == io.moraine.core.keyspace.Subspace.CURRENT.tag()
                && key.get(key.position() + 1) == TableKind.SNAPSHOT.tag();
    }

    /** The batch a commit applied (null if it wrote nothing) with its writes, and the head it lands at. */
    private record Applied(SlateStore.PendingWrite pending, Map<ByteBuffer, byte[]> writes, long landed) {}

    private Applied translateAndApply(long readSnapshotId, List<StagedOperation> operations, CommitPolicy policy)
    {
        synchronized (commitLock) {
            takeWriterBackIfTaken();
            KeyValueReader reader = cache.over(store.latestIncludingPending());
            OptionalLong head = readHead(reader);
            List<StagedOperation> landing = operations;
            boolean addsSnapshot = operations.stream().anyMatch(TransactionCommitter::insertsSnapshot);
            if (addsSnapshot && head.isPresent() && head.getAsLong() != readSnapshotId) {
                if (policy == CommitPolicy.RETRY) {
                    throw new CommitConflictException("commit conflict: this transaction read snapshot " + readSnapshotId
                            + " but the catalog head is now " + head.getAsLong() + " (commit policy RETRY: it is not rebased); re-read the catalog and retry");
                }
                DataOnlyRebase.Outcome rebased = DataOnlyRebase.rebase(reader, readSnapshotId, head.getAsLong(), operations);
                landing = rebased.operations().orElseThrow(() -> new CommitConflictException("commit conflict: this transaction read snapshot "
                        + readSnapshotId + " but the catalog head is now " + head.getAsLong() + ", and it cannot be rebased onto it: "
                        + rebased.refusal() + "; re-read the catalog and retry"));
            }
            CommitTranslator.Plan plan = new CommitTranslator(reader, StoreFacts.read(reader), head).translate(landing);
            if (plan.newHead().isPresent() && head.isPresent() && plan.newHead().getAsLong() <= head.getAsLong()) {
                throw new CommitConflictException("commit conflict: snapshot " + plan.newHead().getAsLong()
                        + " exists already (head is " + head.getAsLong() + "); re-read the catalog and retry");
            }
            long landed = plan.newHead().isPresent() ? plan.newHead().getAsLong() : head.orElse(-1);
            if (plan.isEmpty()) {
                return new Applied(null, Map.of(), landed);
            }
            Map<ByteBuffer, byte[]> writes = new LinkedHashMap<>(plan.writes());
            Set<TableKind> changed = RowStamps.changedKinds(writes);
            RowStamps.stamp(writes, changed);
            listener.beforeWrite(landed, writes);
            return new Applied(applyToStore(reader, writes, changed), writes, landed);
        }
    }

    /** Under the commit lock: takes the writer back first when another process is already known to hold it. */
    private void takeWriterBackIfTaken()
    {
        if (store.writerTaken()) {
            store.takeWriterBack(store.writerGeneration());
            cache.clear();
            rowsCache.clear();
        }
    }

    /**
     * Applies a batch over the state {@code before} reads, changing the rows of {@code changed} (stamped in the batch),
     * and tells the caches; if applying fails, the store's state is unknown and the caches are dropped.
     */
    private SlateStore.PendingWrite applyToStore(KeyValueReader before, Map<ByteBuffer, byte[]> writes, Set<TableKind> changed)
    {
        rowsCache.committing(before, writes, changed);
        try {
            SlateStore.PendingWrite pending = store.apply(writes);
            cache.applied(writes);
            return pending;
        }
        catch (RuntimeException e) {
            cache.clear();
            rowsCache.clear();
            if (e instanceof OperationInterruptedException interrupted) {
                throw outcomeUnknown("while SlateDB wrote its batch", interrupted);
            }
            throw e;
        }
    }

    /** Waits for {@code pending} to be durable; interrupted, the commit's outcome is unknown. */
    private void awaitDurable(SlateStore.PendingWrite pending)
    {
        try {
            pending.awaitDurable();
        }
        catch (OperationInterruptedException e) {
            throw outcomeUnknown("while its batch, already submitted, waited to become durable", e);
        }
    }

    private CommitOutcomeUnknownException outcomeUnknown(String when, OperationInterruptedException cause)
    {
        outcomeUnknown = "an earlier commit on this attach was interrupted " + when;
        return new CommitOutcomeUnknownException("moraine: commit outcome unknown; the commit was interrupted " + when + " on store " + store.uri()
                + ", so it may or may not be durable: it lands if the store accepts the submitted batch. Do not resubmit it blindly: this attach "
                + "refuses further writes; detach and attach the store again, then read the snapshot list (ducklake_snapshot, or DuckLake's "
                + "snapshots()) to see whether it landed.", cause);
    }

    /** After an unknown outcome this committer's state may hold a batch the store never makes durable: no more writes. */
    private void refuseWhileOutcomeUnknown()
    {
        String unknown = outcomeUnknown;
        if (unknown != null) {
            throw new StoreException("moraine: write refused on store " + store.uri() + ": " + unknown + " and its outcome is unknown, so this "
                    + "attach writes nothing more. Detach and attach the store again, then read the snapshot list to see whether that commit landed.");
        }
    }

    /**
     * Writes keys that are not catalog rows (tiny-file copies, store options) between commits, as one durable batch
     * that adds no snapshot and moves no head, so concurrent DuckLake commits neither conflict with it nor rebase over
     * it. {@code writesOver} computes the batch under the commit lock from the state the next commit builds on: a
     * caller that checks there that a file's row still exists knows no commit can delete it before the batch lands.
     * An empty batch writes nothing. Returns the batch written.
     */
    public Map<ByteBuffer, byte[]> writeBesideCommits(java.util.function.Function<KeyValueReader, Map<ByteBuffer, byte[]>> writesOver)
    {
        refuseWhileOutcomeUnknown();
        for (int attempt = 1; ; attempt++) {
            int generation = store.writerGeneration();
            try {
                return writeBesideCommitsOnce(writesOver);
            }
            catch (RuntimeException e) {
                if (!store.isHandoffFailure(e)) {
                    throw e;
                }
                // Computed again over the new writer's state: the batch is what that state calls for, written or not.
                takeWriterBack(generation, attempt, e);
            }
        }
    }

    private Map<ByteBuffer, byte[]> writeBesideCommitsOnce(java.util.function.Function<KeyValueReader, Map<ByteBuffer, byte[]>> writesOver)
    {
        SlateStore.PendingWrite pending;
        Map<ByteBuffer, byte[]> writes;
        try (SlateStore.CommitterArrival arrival = store.committerArriving()) {
            synchronized (commitLock) {
                takeWriterBackIfTaken();
                KeyValueReader reader = cache.over(store.latestIncludingPending());
                writes = new LinkedHashMap<>(writesOver.apply(reader));
                if (writes.isEmpty()) {
                    return writes;
                }
                if (!RowStamps.changedKinds(writes).isEmpty() || writes.containsKey(ByteBuffer.wrap(SystemKeys.HEAD))) {
                    throw new IllegalArgumentException("a write beside commits must not change catalog rows or the head");
                }
                pending = applyToStore(reader, writes, Set.of());
            }
        }
        try (pending) {
            awaitDurable(pending);
        }
        return writes;
    }

    private static boolean insertsSnapshot(StagedOperation operation)
    {
        return operation instanceof StagedOperation.Insert insert && insert.row().kind() == TableKind.SNAPSHOT;
    }

    static OptionalLong readHead(KeyValueReader reader)
    {
        byte[] value = reader.get(SystemKeys.HEAD);
        return value == null ? OptionalLong.empty() : OptionalLong.of(SystemKeys.decodeHead(value));
    }

}
