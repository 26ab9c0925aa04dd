package io.moraine.core.store;

import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.error.NotFoundException;
import io.moraine.core.error.StoreNotFoundException;
import io.moraine.core.error.WalStoreMismatchException;
import io.moraine.core.keyspace.KeyBytes;
import io.slatedb.uniffi.Admin;
import io.slatedb.uniffi.AdminBuilder;
import io.slatedb.uniffi.CheckpointOptions;
import io.slatedb.uniffi.Db;
import io.slatedb.uniffi.DbBuilder;
import io.slatedb.uniffi.DbCache;
import io.slatedb.uniffi.FoyerCacheOptions;
import io.slatedb.uniffi.DbIterator;
import io.slatedb.uniffi.DbReader;
import io.slatedb.uniffi.DbReaderBuilder;
import io.slatedb.uniffi.DbSnapshot;
import io.slatedb.uniffi.DurabilityLevel;
import io.slatedb.uniffi.IterationOrder;
import io.slatedb.uniffi.ReadOptions;
import io.slatedb.uniffi.ScanOptions;
import io.slatedb.uniffi.FlushOptions;
import io.slatedb.uniffi.FlushType;
import io.slatedb.uniffi.KeyRange;
import io.slatedb.uniffi.ObjectStore;
import io.slatedb.uniffi.ReaderMode;
import io.slatedb.uniffi.ReaderOptions;
import io.slatedb.uniffi.Settings;
import io.slatedb.uniffi.WriteBatch;
import io.slatedb.uniffi.WriteHandle;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.BiFunction;
import java.util.function.Function;

import static io.moraine.core.store.SlateDbCalls.await;
import static io.moraine.core.store.SlateDbCalls.call;
import static java.util.Objects.requireNonNull;

/**
 * One open SlateDB database: the writer ({@link OpenMode#READ_WRITE}) or a reader ({@link OpenMode#READ_ONLY},
 * {@link OpenMode#CHECKPOINT}). It offers key/value reads, durable batch writes and checkpoint management, and
 * reports every failure as a typed moraine exception.
 */
public final class SlateStore
        implements AutoCloseable
{
    // Catalog scans are short, sequential and re-read often: cache their blocks and read ahead in large requests
    // (measured: 3-4x faster than SlateDB's default scan options on a 200-row table prefix).
    // Readers see durable writes only: a commit becomes visible when it is acknowledged, never before (group commit
    // applies batches before their write-ahead log is durable). The committer alone reads pending writes too.
    private static final ReadOptions READ_OPTIONS = new ReadOptions(DurabilityLevel.REMOTE, false, true, null, null);
    private static final ScanOrders SCAN_OPTIONS = ScanOrders.of(DurabilityLevel.REMOTE);
    private static final ReadOptions PENDING_READ_OPTIONS = new ReadOptions(DurabilityLevel.MEMORY, false, true, null, null);
    private static final ScanOrders PENDING_SCAN_OPTIONS = ScanOrders.of(DurabilityLevel.MEMORY);

    private final StoreUri uri;
    private final OpenMode mode;
    private final ObjectStore objectStore;
    private final Optional<ObjectStore> walObjectStore;
    // The writer's handle; a hand-off (HANDOFF mode) replaces it with a new one. Null for readers.
    private volatile Db db;
    private final DbReader reader;
    // READ_ONLY with on-demand freshness: the reader, replaced when a read that begins something finds the store
    // changed (then reader is null).
    private final ReaderGenerations generations;
    private final StoreOptions options;
    private final WriterMode writerMode;
    // HANDOFF mode: set once this handle is known to be fenced, until the next commit takes the writer back. Reads
    // meanwhile go to fencedReader, a reader opened for the purpose (a fenced SlateDB handle fails every call).
    private volatile boolean fenced;
    private DbReader fencedReader;
    private final Object writerLock = new Object();
    private final Object fencedReaderLock = new Object();
    private int handoffs;
    private final StoreReadListener readListener;
    private final Duration timeout;
    private final Duration manifestPollInterval;
    // How long a write-ahead-log flush waits for committers already queued to apply, so that they share it.
    private static final Duration GROUP_COMMIT_WAIT = Duration.ofMillis(1);

    private final WalFlushes walFlushes = new WalFlushes(this::flushWal, GROUP_COMMIT_WAIT);
    // Every this many write-ahead-log objects the memtable goes to an L0 SST, so that the next open of a writer killed
    // now replays at most this many objects. A catalog's commits are small: the memtable would otherwise fill (and
    // flush) only after many thousands of them.
    static final int WAL_OBJECTS_PER_MEMTABLE_FLUSH = 64;
    // How often the writer's embedded compactor looks for work (SlateDB's default is 5 s). With a memtable flush every
    // few dozen WAL objects, a writer at ~100 commits a second makes an L0 SST every second or two: between two looks
    // every 5 s, L0 reached SlateDB's limit of 8 SSTs and the next memtable flush (so every commit waiting on it) stalled
    // until a compaction finished, halving the 8-connection commit rate for seconds at a time. Each look reads the
    // store's manifest, idle or not.
    static final Duration COMPACTOR_POLL_INTERVAL = Duration.ofSeconds(1);
    // A writer killed while compacting leaves its compaction "running"; the next writer's compactor takes it over only
    // once its heartbeat is this old (SlateDB's default is 30 s, with a heartbeat every 10 s). Until then L0 can stay at
    // SlateDB's limit, where every memtable flush, the one a clean close makes included, waits. A catalog's compactions
    // are small, so a live worker that misses a few heartbeats loses little: its job is handed to another worker.
    static final Duration STALE_COMPACTION_TIMEOUT = Duration.ofSeconds(5);
    static final Duration COMPACTION_HEARTBEAT_INTERVAL = Duration.ofSeconds(1);
    private int walObjectsSinceMemtableFlush;
    // The memtable flush last asked for: at most one is in flight (see requestMemtableFlush).
    private CompletableFuture<Void> memtableFlush = CompletableFuture.completedFuture(null);
    /** Held while a batch is applied and numbered, and while a snapshot is taken with nothing pending. */
    private final Object applyGate = new Object();
    // Guarded by applyGate.
    private final AppliedSystemRecords systemRecords = new AppliedSystemRecords();
    private boolean closed;

    private SlateStore(StoreUri uri, OpenMode mode, ObjectStore objectStore, Optional<ObjectStore> walObjectStore, Db db, DbReader reader,
            StoreOptions options)
    {
        this(uri, mode, objectStore, walObjectStore, db, reader, null, options);
    }

    private SlateStore(StoreUri uri, OpenMode mode, ObjectStore objectStore, Optional<ObjectStore> walObjectStore, Db db, DbReader reader,
            ReaderGenerations generations, StoreOptions options)
    {
        this.generations = generations;
        this.readListener = options.readListener();
        this.timeout = options.timeout();
        this.manifestPollInterval = options.manifestPollInterval();
        this.uri = uri;
        this.mode = mode;
        this.objectStore = objectStore;
        this.walObjectStore = walObjectStore;
        this.db = db;
        this.reader = reader;
        this.options = options;
        this.writerMode = options.writerMode();
    }

    /**
     * Opens the store at {@code uri}. A store that does not exist is refused with {@link StoreNotFoundException}
     * and nothing is written, unless the open is {@link OpenMode#READ_WRITE} with
     * {@link StoreOptions#createIfMissing()}, which creates it. Every call to the object store waits at most
     * {@link StoreOptions#timeout()}.
     */
    public static SlateStore open(StoreUri uri, OpenMode mode, StoreOptions options)
    {
        requireNonNull(uri, "uri is null");
        requireNonNull(mode, "mode is null");
        requireNonNull(options, "options is null");
        if (mode != OpenMode.CHECKPOINT && options.checkpointId().isPresent()) {
            throw new InvalidArgumentException("a checkpoint id was given for a " + mode + " open of " + uri
                    + "; a checkpoint is a fixed past cut, so only a CHECKPOINT open can pin to it");
        }
        ObjectStore objectStore = ObjectStores.resolve(uri, options);
        Duration timeout = options.timeout();
        boolean exists = exists(uri, objectStore, Optional.empty(), timeout);
        if (!exists && !(mode == OpenMode.READ_WRITE && options.createIfMissing())) {
            throw new StoreNotFoundException("no moraine store exists at " + uri + " (" + StoreLocation.describe(uri) + " holds no SlateDB manifest); "
                    + "nothing was written there. Check the store URI, or create a store by importing a DuckLake catalog into it "
                    + "(bin/moraine import --source ducklake:<catalog> --store " + uri + " ...).");
        }
        // A new store puts a separate log under the WAL URI's path and records where it is; an existing one is checked
        // against its record before anything replays a log.
        Optional<ObjectStore> walObjectStore = exists
                ? walStoreFor(uri, objectStore, options)
                : options.walStore().map(walStore -> ObjectStores.resolveWal(walStore, options, true));
        return switch (mode) {
            case READ_WRITE -> {
                Db opened = options.writerMode() == WriterMode.HANDOFF && exists
                        ? openWriterRetrying(uri, objectStore, walObjectStore, timeout)
                        : openWriter(uri, objectStore, walObjectStore, timeout);
                SlateStore writer = new SlateStore(uri, mode, objectStore, walObjectStore, opened, null, options);
                try {
                    if (!exists) {
                        writer.recordWalStore(options.walStore());
                    }
                    synchronized (writer.applyGate) {
                        try {
                            writer.systemRecords.load(writer.latestIncludingPending());
                        }
                        catch (RuntimeException e) {
                            // Another process took the writer already: this handle reads from a reader until it commits.
                            if (!writer.isHandoffFailure(e)) {
                                throw e;
                            }
                            writer.noteFenced();
                            writer.systemRecords.forget();
                        }
                    }
                }
                catch (RuntimeException e) {
                    try {
                        writer.close();
                    }
                    catch (RuntimeException closing) {
                        e.addSuppressed(closing);
                    }
                    throw e;
                }
                // The open replayed every WAL object written since the last memtable flush into the memtable. A catalog's small
                // commits rarely fill one, so a writer that never closes cleanly (killed, crashed) would leave them all for the next
                // open to replay again, and each open would take longer than the last: flush them into an L0 SST.
                writer.requestMemtableFlush();
                yield writer;
            }
            case READ_ONLY -> options.freshness().onDemand()
                    ? new SlateStore(uri, mode, objectStore, walObjectStore, null, null, onDemandReaders(uri, objectStore, walObjectStore, options), options)
                    : new SlateStore(uri, mode, objectStore, walObjectStore, null,
                            openReader(uri, objectStore, walObjectStore, new ReaderMode.ManagedCheckpoint(), options), options);
            case UNPINNED -> new SlateStore(uri, mode, objectStore, walObjectStore, null,
                    openReader(uri, objectStore, walObjectStore, new ReaderMode.FollowLatest(), options), options);
            case CHECKPOINT -> {
                String id = options.checkpointId().orElseThrow(() -> new InvalidArgumentException(
                        "a CHECKPOINT open of " + uri + " needs a checkpoint id; list them with the checkpoints command"));
                requireKnownCheckpoint(uri, objectStore, walObjectStore, id, timeout);
                yield new SlateStore(uri, mode, objectStore, walObjectStore, null,
                        openReader(uri, objectStore, walObjectStore, new ReaderMode.Checkpoint(id), options), options);
            }
        };
    }

    /** Whether a store exists at {@code uri}: it has a manifest. Found by listing the manifests; nothing is written. */
    public static boolean exists(StoreUri uri, StoreOptions options)
    {
        // Listing manifests reads no log.
        return exists(uri, ObjectStores.resolve(uri, options), Optional.empty(), options.timeout());
    }

    private static boolean exists(StoreUri uri, ObjectStore objectStore, Optional<ObjectStore> wal, Duration timeout)
    {
        try (Admin admin = admin(uri, objectStore, wal)) {
            return !await(executor -> admin.listManifests(null, null, executor), uri, "looking for the store's manifest", timeout).isEmpty();
        }
    }

    /**
     * Whether the store at {@code uri} holds any key, found without opening a writer (which would fence the store's
     * current writer) and without writing anything: a reader that follows the latest manifest and keeps no checkpoint.
     */
    public static boolean holdsData(StoreUri uri, StoreOptions options)
    {
        ObjectStore objectStore = ObjectStores.resolve(uri, options);
        Duration timeout = options.timeout();
        if (!exists(uri, objectStore, Optional.empty(), timeout)) {
            return false;
        }
        Optional<ObjectStore> walObjectStore = walStoreFor(uri, objectStore, options);
        DbReader probe = openReader(uri, objectStore, walObjectStore, new ReaderMode.FollowLatest(), options);
        try (probe) {
            DbIterator iterator = await(executor -> probe.scan(new KeyRange(new byte[] {0}, true, new byte[] {(byte) 0xFF}, false), executor), uri, "probing the store", timeout);
            try (KeyValueCursor cursor = new KeyValueCursor(iterator, uri, 1, timeout)) {
                return cursor.hasNext();
            }
            finally {
                await(probe::shutdown, uri, "closing the store probe", timeout);
            }
        }
    }

    /**
     * Checks the WAL location an open of the existing store at {@code uri} names against the one the store records,
     * and resolves the WAL object store in the layout the store was written with. A store that records its location
     * must be opened with exactly that one; a store created before the record was kept opens as it always did (the WAL
     * store at its bucket or file-system root), except that naming a log store where SlateDB's manifest says the log is
     * in the catalog store, or none where it says it is separate, is refused too: either would replay the wrong log.
     */
    private static Optional<ObjectStore> walStoreFor(StoreUri uri, ObjectStore objectStore, StoreOptions options)
    {
        Optional<StoreUri> given = options.walStore();
        String givenText = WalStores.canonical(given);
        Duration timeout = options.timeout();
        // Read on every open of an existing store: SlateDB 0.17's manifest does not say whether a store's log is
        // separate (the binding reports no WAL store URI even for a store written with one), so it cannot stand in.
        Optional<String> recorded = readWalRecord(uri, objectStore, options);
        if (recorded.isPresent()) {
            if (!recorded.get().equals(givenText)) {
                throw mismatch(uri, recorded.get(), WalStores.describe(recorded.get()), givenText);
            }
            return given.map(wal -> ObjectStores.resolveWal(wal, options, true));
        }
        if (given.isEmpty()) {
            boolean separate;
            try (Admin admin = admin(uri, objectStore, Optional.empty())) {
                separate = await(executor -> admin.readManifest(null, executor), uri, "reading the store's manifest", timeout).walObjectStoreUri() != null;
            }
            if (separate) {
                throw mismatch(uri, "unrecorded", "a separate store (SlateDB's manifest says so; the store was created before moraine recorded which one)", givenText);
            }
        }
        // Created before the record was kept: opened as it always was, the WAL store (if any) at its root.
        return given.map(wal -> ObjectStores.resolveWal(wal, options, false));
    }

    private static WalStoreMismatchException mismatch(StoreUri uri, String recorded, String recordedWords, String given)
    {
        return new WalStoreMismatchException("store " + uri + " records its write-ahead log at " + recordedWords + ", but this open names "
                + WalStores.describe(given) + "; opening with another log would hide or lose committed data, so nothing was opened. "
                + (recorded.equals(WalStores.NONE) ? "Open without a WAL_PATH." : recorded.equals("unrecorded")
                        ? "Open with the WAL_PATH the store was created with." : "Open with WAL_PATH '" + recorded + "'."),
                recorded, given);
    }

    /**
     * The store's WAL record, read from its SSTs only (no log is replayed: the record is flushed when the store is
     * created), so neither a wrong log location nor a missing one can hide it. SlateDB insists that a reader of a store
     * with a separate log be given one; with nothing replayed, a private in-memory store serves.
     */
    private static Optional<String> readWalRecord(StoreUri uri, ObjectStore objectStore, StoreOptions options)
    {
        Duration timeout = options.timeout();
        ObjectStore placeholder = ObjectStores.resolve(StoreUri.parse("memory://"), options);
        try (DbReaderBuilder builder = new DbReaderBuilder(uri.dbPath(), objectStore)) {
            call(() -> {
                builder.withReaderMode(new ReaderMode.FollowLatest());
                builder.withOptions(new ReaderOptions(options.manifestPollInterval().toMillis(), Duration.ofMinutes(10).toMillis(), 64L << 20, true, null));
                builder.withWalObjectStore(placeholder);
                return null;
            }, uri, "configuring the WAL record probe");
            DbReader probe = await(builder::build, uri, "opening the store to read its WAL record", timeout);
            try (probe) {
                try {
                    byte[] value = await(executor -> probe.getWithOptions(WalStores.RECORD_KEY, READ_OPTIONS, executor), uri, "reading the store's WAL record", timeout);
                    return Optional.ofNullable(value).map(WalStores::decode);
                }
                finally {
                    await(probe::shutdown, uri, "closing the WAL record probe", timeout);
                }
            }
        }
        finally {
            placeholder.close();
        }
    }

    /** Records where a new store's log lives and flushes the record into an SST, where a probe reads it without a log. */
    private void recordWalStore(Optional<StoreUri> wal)
    {
        try (WriteBatch batch = new WriteBatch()) {
            call(() -> {
                batch.put(WalStores.RECORD_KEY, WalStores.encode(wal));
                return null;
            }, uri, "recording the WAL store");
            WriteHandle handle = await(executor -> db.write(batch, executor), uri, "recording the WAL store", timeout);
            handle.close();
        }
        await(executor -> db.flushWithOptions(new FlushOptions(FlushType.WAL), executor), uri, "flushing the WAL record", timeout);
        await(executor -> db.flushWithOptions(new FlushOptions(FlushType.MEM_TABLE), executor), uri, "flushing the WAL record into an SST", timeout);
    }

    /**
     * Sets SlateDB's default settings on {@code settings} but for {@link #COMPACTOR_POLL_INTERVAL},
     * {@link #STALE_COMPACTION_TIMEOUT} and {@link #COMPACTION_HEARTBEAT_INTERVAL}.
     */
    static void applyWriterSettings(Settings settings)
            throws io.slatedb.uniffi.Error
    {
        settings.set("compactor_options.poll_interval", jsonDuration(COMPACTOR_POLL_INTERVAL));
        settings.set("compactor_options.worker.compactions_poll_interval", jsonDuration(COMPACTOR_POLL_INTERVAL));
        settings.set("compactor_options.worker_heartbeat_timeout", jsonDuration(STALE_COMPACTION_TIMEOUT));
        settings.set("compactor_options.worker.heartbeat_interval", jsonDuration(COMPACTION_HEARTBEAT_INTERVAL));
    }

    private static String jsonDuration(Duration duration)
    {
        return "\"" + duration.toMillis() + "ms\"";
    }

    private static Db openWriter(StoreUri uri, ObjectStore objectStore, Optional<ObjectStore> wal, Duration timeout)
    {
        try (DbBuilder builder = new DbBuilder(uri.dbPath(), objectStore); Settings settings = Settings._default()) {
            call(() -> {
                applyWriterSettings(settings);
                builder.withSettings(settings);
                if (wal.isPresent()) {
                    builder.withWalObjectStore(wal.get());
                }
                return null;
            }, uri, "configuring the writer");
            return await(builder::build, uri, "opening the store read-write", timeout);
        }
    }

    /**
     * Opens the writer with bounded attempts that back off with jitter (HANDOFF mode: another process may be opening
     * it at the same moment, or its compactor may still be fencing), each waiting at most {@code timeout}; fails with
     * {@link io.moraine.core.error.WriterHandoffException} when none succeeds.
     */
    private static Db openWriterRetrying(StoreUri uri, ObjectStore objectStore, Optional<ObjectStore> wal, Duration timeout)
    {
        RuntimeException last = null;
        for (int attempt = 1; attempt <= HandoffRetries.OPEN_ATTEMPTS; attempt++) {
            try {
                return openWriter(uri, objectStore, wal, timeout);
            }
            catch (io.moraine.core.error.OperationInterruptedException | InvalidArgumentException e) {
                throw e;
            }
            catch (RuntimeException e) {
                last = e;
                if (attempt < HandoffRetries.OPEN_ATTEMPTS) {
                    HandoffRetries.backOff(attempt);
                }
            }
        }
        throw new io.moraine.core.error.WriterHandoffException("could not take the writer of store " + uri + " from the process that holds it: "
                + HandoffRetries.OPEN_ATTEMPTS + " writer opens failed, the last with: " + last.getMessage() + ". Nothing was committed; "
                + "retry (if another process keeps committing to the store, give it a moment, or attach with writer mode exclusive).", last);
    }

    /**
     * The readers of an on-demand READ_ONLY handle: each follows the newest manifest, polls nothing and writes nothing
     * (a checkpoint would need a manifest write per generation and a poll to keep it alive); they share one block cache.
     */
    private static ReaderGenerations onDemandReaders(StoreUri uri, ObjectStore objectStore, Optional<ObjectStore> wal, StoreOptions options)
    {
        StoreProbe probe = new StoreProbe(uri, objectStore, wal, options.timeout());
        try {
            DbCache cache = call(() -> DbCache.newSplitCache(DbCache.newFoyerCache(new FoyerCacheOptions(SHARED_BLOCK_CACHE_BYTES, 8)),
                    DbCache.newFoyerCache(new FoyerCacheOptions(SHARED_META_CACHE_BYTES, 8))), uri, "creating the readers' cache");
            try {
                return new ReaderGenerations(uri, probe, () -> openReader(uri, objectStore, wal, new ReaderMode.FollowLatest(), ReaderGenerations.NO_POLL,
                        Optional.of(cache), options), cache, options.freshness().maxStaleness(), options.timeout());
            }
            catch (RuntimeException e) {
                cache.close();
                throw e;
            }
        }
        catch (RuntimeException e) {
            probe.close();
            throw e;
        }
    }

    // SlateDB's own defaults for one reader's caches (capacities, not allocations).
    private static final long SHARED_BLOCK_CACHE_BYTES = 512L << 20;
    private static final long SHARED_META_CACHE_BYTES = 128L << 20;

    private static DbReader openReader(StoreUri uri, ObjectStore objectStore, Optional<ObjectStore> wal, ReaderMode readerMode, StoreOptions options)
    {
        return openReader(uri, objectStore, wal, readerMode, options.manifestPollInterval(), Optional.empty(), options);
    }

    private static DbReader openReader(StoreUri uri, ObjectStore objectStore, Optional<ObjectStore> wal, ReaderMode readerMode, Duration poll,
            Optional<DbCache> cache, StoreOptions options)
    {
        try (DbReaderBuilder builder = new DbReaderBuilder(uri.dbPath(), objectStore)) {
            call(() -> {
                builder.withReaderMode(readerMode);
                builder.withOptions(new ReaderOptions(poll.toMillis(), Duration.ofMinutes(10).toMillis(), 64L << 20, false, null));
                if (wal.isPresent()) {
                    builder.withWalObjectStore(wal.get());
                }
                if (cache.isPresent()) {
                    builder.withDbCache(cache.get(), 1);
                }
                return null;
            }, uri, "configuring the reader");
            return await(builder::build, uri, "opening the store read-only", options.timeout());
        }
    }

    private static void requireKnownCheckpoint(StoreUri uri, ObjectStore objectStore, Optional<ObjectStore> wal, String id, Duration timeout)
    {
        try {
            UUID.fromString(id);
        }
        catch (IllegalArgumentException e) {
            throw new InvalidArgumentException("checkpoint id '" + id + "' is malformed: checkpoint ids are UUIDs; list the "
                    + "store's checkpoints to find one", e);
        }
        boolean known = listCheckpoints(uri, objectStore, wal, timeout).stream().anyMatch(checkpoint -> checkpoint.id().equals(id));
        if (!known) {
            throw new NotFoundException("store " + uri + " has no checkpoint " + id + " (it was deleted or expired); "
                    + "create a new checkpoint and open against that");
        }
    }

    public StoreUri uri()
    {
        return uri;
    }

    public OpenMode mode()
    {
        return mode;
    }

    /**
     * How often a polling read-only handle looks for the writer's new commits: it sees a commit at most this long after
     * it lands. An on-demand one looks when a read begins ({@link #catchUp()}).
     */
    public Duration manifestPollInterval()
    {
        return manifestPollInterval;
    }

    /** The scan options of one durability level, in both orders. */
    private record ScanOrders(ScanOptions ascending, ScanOptions descending)
    {
        static ScanOrders of(DurabilityLevel durability)
        {
            return new ScanOrders(options(durability, IterationOrder.ASCENDING), options(durability, IterationOrder.DESCENDING));
        }

        private static ScanOptions options(DurabilityLevel durability, IterationOrder order)
        {
            return new ScanOptions(durability, false, 256 * 1024, true, 1, order, null, null);
        }
    }

    /**
     * Consults the handle's {@link ReaderFreshness} as a query, scan plan or statement begins: an on-demand READ_ONLY
     * handle checks the store (unless it did less than the maximum staleness ago) and moves to a new reader when it
     * changed, so that what follows sees every commit acknowledged before this call. Every other handle is as fresh as
     * it gets already (the writer) or never moves (a checkpoint, a polling reader): nothing is done.
     */
    public void catchUp()
    {
        if (generations != null) {
            generations.catchUp();
        }
    }

    /**
     * {@link #catchUp()} whatever the maximum staleness, for a reader asked for a snapshot id past its head (another
     * process committed it). Returns whether this handle can catch up on demand; a polling reader cannot (it waits).
     */
    public boolean catchUpNow()
    {
        if (generations == null) {
            return false;
        }
        generations.catchUpNow();
        return true;
    }

    /** How many checks of the store an on-demand reader made, and how many readers it opened; zeros for other handles. */
    public FreshnessTally freshnessTally()
    {
        return generations == null ? new FreshnessTally(0, 0) : new FreshnessTally(generations.checks(), generations.generationsOpened());
    }

    /** See {@link #freshnessTally()}. */
    public record FreshnessTally(long checks, long readersOpened) {}

    /** Reads the newest durable state this handle knows: the writer's own, or what the reader has caught up to. */
    public KeyValueReader latest()
    {
        if (generations != null) {
            Reader latest = new Reader((key, executor) -> generations.current().reader().getWithOptions(key, READ_OPTIONS, executor),
                    (range, scanOptions, executor) -> generations.current().reader().scanWithOptions(range, scanOptions, executor), SCAN_OPTIONS);
            latest.missingObjectRetry = new MissingObjectRetry(generations::catchUpAfterMissingObject);
            return latest;
        }
        if (mode != OpenMode.READ_WRITE) {
            return new Reader((key, executor) -> reader.getWithOptions(key, READ_OPTIONS, executor), reader::scanWithOptions, SCAN_OPTIONS);
        }
        if (writerMode == WriterMode.EXCLUSIVE) {
            return new Reader((key, executor) -> db.getWithOptions(key, READ_OPTIONS, executor), (range, scanOptions, executor) -> db.scanWithOptions(range, scanOptions, executor), SCAN_OPTIONS);
        }
        return handingOffReader();
    }

    /**
     * The writer's durable state, read from the writer while it holds the store and from a reader while another process
     * does (HANDOFF mode); a read that finds its handle fenced or replaced is redone on the current one.
     */
    private Reader handingOffReader()
    {
        Reader reader = new Reader((key, executor) -> fenced ? fencedReader().getWithOptions(key, READ_OPTIONS, executor) : db.getWithOptions(key, READ_OPTIONS, executor),
                (range, scanOptions, executor) -> fenced ? fencedReader().scanWithOptions(range, scanOptions, executor) : db.scanWithOptions(range, scanOptions, executor),
                SCAN_OPTIONS);
        reader.failingOver = true;
        return reader;
    }

    /**
     * The writer's newest state including batches {@linkplain #apply applied} but not yet durable: what the next
     * commit builds on. Only the committer reads this; everyone else reads {@link #latest()}.
     */
    public KeyValueReader latestIncludingPending()
    {
        requireWriter("read pending writes");
        return new Reader((key, executor) -> db.getWithOptions(key, PENDING_READ_OPTIONS, executor), db::scanWithOptions, PENDING_SCAN_OPTIONS);
    }

    /**
     * A consistent view: every read through it sees the same state, however the writer moves on. For a
     * {@link OpenMode#CHECKPOINT} store every read is consistent already. An on-demand {@link OpenMode#READ_ONLY}
     * store's view keeps the reader it began on (later checks move other reads to newer ones); a polling one cannot pin
     * one (SlateDB's reader has no snapshots): its reads follow the writer as the reader catches up.
     */
    public SnapshotView snapshot()
    {
        if (generations != null) {
            // On demand, a view keeps the reader it began on, however many newer ones later reads move to, unless a read
            // finds a file of it gone (collected after a compaction): then the view moves to a new one.
            ReaderGenerations.Lease lease = generations.lease();
            Reader view = new Reader((key, executor) -> lease.reader().getWithOptions(key, READ_OPTIONS, executor),
                    (range, scanOptions, executor) -> lease.reader().scanWithOptions(range, scanOptions, executor), SCAN_OPTIONS);
            view.missingObjectRetry = new MissingObjectRetry(lease::moveOn);
            return new SnapshotView(view, lease::close);
        }
        if (mode != OpenMode.READ_WRITE) {
            return new SnapshotView(latest(), () -> {});
        }
        if (writerMode == WriterMode.HANDOFF) {
            // Fenced, the writer's snapshots are gone: reads follow the reader, as a READ_ONLY store's do.
            if (fenced) {
                return new SnapshotView(latest(), () -> {});
            }
            try {
                return writerSnapshot();
            }
            catch (RuntimeException e) {
                if (!isHandoffFailure(e)) {
                    throw e;
                }
                noteFenced();
                return new SnapshotView(latest(), () -> {});
            }
        }
        return writerSnapshot();
    }

    private SnapshotView writerSnapshot()
    {
        // SlateDB pins a snapshot at the newest applied batch, durable or not. The view reads everything up to that
        // batch (later batches are invisible to it whatever their durability) and is handed out only once all of it is
        // durable: it never moves, and never shows a commit that could still be lost. A reader waits for the flush in
        // flight, if any, and the next one at most, and never holds committers back.
        long newest;
        DbSnapshot snapshot;
        Map<ByteBuffer, byte[]> system;
        synchronized (applyGate) {
            newest = walFlushes.lastApplied();
            snapshot = await(db::snapshot, uri, "taking a snapshot", timeout);
            system = systemRecords.current();
        }
        try {
            walFlushes.awaitFlushed(newest);
        }
        catch (RuntimeException | Error e) {
            try {
                snapshot.close();
            }
            catch (RuntimeException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
        Reader view = new Reader((key, executor) -> snapshot.getWithOptions(key, PENDING_READ_OPTIONS, executor),
                snapshot::scanWithOptions, PENDING_SCAN_OPTIONS, system);
        // A view outliving its writer (fenced, or replaced by a hand-off) reads on from the store's current state.
        view.fallback = writerMode == WriterMode.HANDOFF ? this::handingOffReader : null;
        return new SnapshotView(view, snapshot::close);
    }

    /** Returns once every batch applied so far is durable (for a commit that wrote nothing but reports the head). */
    public void awaitAppliedDurable()
    {
        requireWriter("wait for durability");
        walFlushes.awaitFlushed(walFlushes.lastApplied());
    }

    /** A {@link KeyValueReader} that must be closed. */
    public record SnapshotView(KeyValueReader reader, Runnable closer)
            implements AutoCloseable
    {
        @Override
        public void close()
        {
            closer.run();
        }
    }

    /**
     * Writes {@code writes} (a null value deletes the key) as one atomic batch and returns once it is durable in the
     * object store.
     */
    public void write(Map<ByteBuffer, byte[]> writes)
    {
        try (PendingWrite pending = apply(writes)) {
            pending.awaitDurable();
        }
    }

    /**
     * Applies {@code writes} as one atomic batch without waiting for durability: later {@link #latestIncludingPending()}
     * reads see it, {@link #latest()} reads do not until it is durable. The caller must {@link PendingWrite#awaitDurable()}
     * before acknowledging the batch. Batches become durable in the order they were applied, so several committers can
     * share one write-ahead-log flush (group commit).
     */
    public PendingWrite apply(Map<ByteBuffer, byte[]> writes)
    {
        requireWriter("write");
        try (WriteBatch batch = new WriteBatch()) {
            call(() -> {
                for (Map.Entry<ByteBuffer, byte[]> entry : writes.entrySet()) {
                    byte[] key = KeyBytes.toArray(entry.getKey());
                    if (entry.getValue() == null) {
                        batch.delete(key);
                    }
                    else {
                        batch.put(key, entry.getValue());
                    }
                }
                return null;
            }, uri, "preparing a write batch");
            synchronized (applyGate) {
                WriteHandle handle;
                try {
                    Db writer = db;
                    handle = await(executor -> writer.write(batch, executor), uri, "writing a batch");
                }
                catch (RuntimeException | Error e) {
                    // SlateDB may have applied the batch all the same (an interrupted wait does not withdraw it):
                    // number it, so that snapshot views taken from now on wait for a flush that covers it, and stop
                    // answering system records from memory.
                    walFlushes.applied();
                    systemRecords.forget();
                    throw e;
                }
                systemRecords.applied(writes);
                return new PendingWrite(handle, walFlushes.applied());
            }
        }
    }

    private void flushWal()
    {
        await(executor -> db.flushWithOptions(new FlushOptions(FlushType.WAL), executor), uri, "flushing the write-ahead log");
        if (++walObjectsSinceMemtableFlush >= WAL_OBJECTS_PER_MEMTABLE_FLUSH && requestMemtableFlush()) {
            walObjectsSinceMemtableFlush = 0;
        }
    }

    /**
     * Asks SlateDB to write the memtable to an L0 SST, without waiting: the batches are durable in the write-ahead log
     * already, and a memtable flush can wait long for a compaction (SlateDB holds it while L0 is full). Returns false,
     * asking nothing, while the previous flush is still in flight; a failed flush is left for the next one to redo.
     */
    private synchronized boolean requestMemtableFlush()
    {
        if (!memtableFlush.isDone()) {
            return false;
        }
        memtableFlush = db.flushWithOptions(new FlushOptions(FlushType.MEM_TABLE)).exceptionally(failure -> null);
        return true;
    }

    /**
     * Says a committer is about to {@link #apply} a batch; close the handle once it has (or has given up). A flush
     * that would start meanwhile waits for it briefly, so that both batches share one write-ahead-log flush.
     */
    public CommitterArrival committerArriving()
    {
        requireWriter("commit");
        return walFlushes.committerArriving()::close;
    }

    /** See {@link #committerArriving()}. */
    public interface CommitterArrival
            extends AutoCloseable
    {
        @Override
        void close();
    }

    /** A batch applied to the writer and not yet known to be durable. */
    public final class PendingWrite
            implements AutoCloseable
    {
        private final WriteHandle handle;
        private final long batchNumber;

        private PendingWrite(WriteHandle handle, long batchNumber)
        {
            this.handle = handle;
            this.batchNumber = batchNumber;
        }

        /** Returns once this batch (and every batch applied before it) is durable in the object store. */
        public void awaitDurable()
        {
            walFlushes.awaitFlushed(batchNumber);
            await(handle::awaitDurable, uri, "waiting for a batch to become durable");
        }

        @Override
        public void close()
        {
            handle.close();
        }
    }


    /** What this handle does when another process takes the store's writer (read-write opens only). */
    public WriterMode writerMode()
    {
        return writerMode;
    }

    /** Counts the hand-offs this handle took the writer back in; a commit compares it to see whether one happened. */
    public int writerGeneration()
    {
        synchronized (writerLock) {
            return handoffs;
        }
    }

    /**
     * HANDOFF mode: whether another process is known to have taken the writer since this handle last held it (known
     * locally, from SlateDB's manifest poll or a failed call; no request is made).
     */
    public boolean writerTaken()
    {
        if (writerMode != WriterMode.HANDOFF || mode != OpenMode.READ_WRITE) {
            return false;
        }
        if (fenced) {
            return true;
        }
        Db current = db;
        return current != null && current.status().closeReason() == io.slatedb.uniffi.CloseReason.FENCED;
    }

    /**
     * Whether {@code failure} came from a hand-off in HANDOFF mode: the handle was fenced by another process's writer, or
     * was replaced by this process taking the writer back (SlateDB then reports the old handle closed).
     */
    public boolean isHandoffFailure(Throwable failure)
    {
        if (writerMode != WriterMode.HANDOFF) {
            return false;
        }
        return failure instanceof io.moraine.core.error.FencedException
                || failure instanceof io.moraine.core.error.StoreException && failure.getCause() instanceof io.slatedb.uniffi.Error.Closed;
    }

    /** Says this handle is fenced: reads go to the fenced reader until the writer is taken back. */
    private void noteFenced()
    {
        fenced = true;
    }

    /** The reader that serves reads while another process holds the writer, opened on first use. */
    private DbReader fencedReader()
    {
        synchronized (fencedReaderLock) {
            if (fencedReader == null) {
                // Follows the newest manifest and writes nothing: a hand-off is short, far shorter than SlateDB's GC
                // minimum age (300 s), so a file the other writer compacts away stays readable meanwhile.
                fencedReader = openReader(uri, objectStore, walObjectStore, new ReaderMode.FollowLatest(), options);
            }
            return fencedReader;
        }
    }

    private void closeFencedReader()
    {
        DbReader closing;
        synchronized (fencedReaderLock) {
            closing = fencedReader;
            fencedReader = null;
        }
        if (closing != null) {
            try (closing) {
                await(closing::shutdown, uri, "closing the reader used while fenced", timeout);
            }
            catch (RuntimeException e) {
                // Reads in flight on it redo themselves on the writer; nothing is lost with it.
            }
        }
    }

    /**
     * HANDOFF mode: takes the store's writer back from the process that took it, unless this handle took it back
     * already since {@code generation} ({@link #writerGeneration()}). Reopens SlateDB's writer, which bumps the epoch
     * (fencing the other process) and replays its write-ahead log, with bounded attempts that back off with jitter; if
     * none succeeds it fails with {@link io.moraine.core.error.WriterHandoffException} and the handle stays fenced
     * (reads keep working, the next commit tries again). The caller (the committer) drops what it cached of the
     * store's state and re-checks its commit against the new head.
     */
    public void takeWriterBack(int generation)
    {
        if (writerMode != WriterMode.HANDOFF) {
            throw new InvalidArgumentException("store " + uri + " is open with writer mode " + writerMode + ": it does not take the writer back");
        }
        synchronized (writerLock) {
            if (handoffs != generation || closed) {
                return;
            }
            noteFenced();
            Db old = db;
            if (old != null) {
                // Its embedded compactor would otherwise contend with the new writer's (SlateDB issue #1970).
                try (old) {
                    await(old::shutdown, uri, "closing the fenced writer", timeout);
                }
                catch (RuntimeException e) {
                    // Fenced or already closed: nothing of it is needed.
                }
            }
            Db fresh = openWriterRetrying(uri, objectStore, walObjectStore, timeout);
            synchronized (applyGate) {
                db = fresh;
                handoffs++;
                walObjectsSinceMemtableFlush = 0;
                try {
                    systemRecords.load(latestIncludingPending());
                }
                catch (RuntimeException e) {
                    systemRecords.forget();
                }
            }
            fenced = false;
            synchronized (this) {
                memtableFlush = CompletableFuture.completedFuture(null);
            }
            requestMemtableFlush();
            closeFencedReader();
        }
    }

    private void requireWriter(String what)
    {
        if (db == null) {
            throw new InvalidArgumentException("cannot " + what + ": store " + uri + " is open " + mode
                    + "; open it READ_WRITE to change it");
        }
    }

    /** Creates a checkpoint of the store's current durable state; {@code lifetime} empty means until deleted. */
    public CheckpointInfo createCheckpoint(Optional<Duration> lifetime, Optional<String> name)
    {
        if (db != null && !fenced) {
            // A checkpoint pins a manifest, which names SSTs only: flush the memtable so that everything
            // acknowledged so far is in the checkpointed state.
            try {
                await(executor -> db.flushWithOptions(new FlushOptions(FlushType.MEM_TABLE), executor), uri, "flushing before a checkpoint");
            }
            catch (RuntimeException e) {
                // Fenced: the writer that fenced this handle replayed everything it acknowledged.
                if (writerMode == WriterMode.EXCLUSIVE || !isHandoffFailure(e)) {
                    throw e;
                }
                noteFenced();
            }
        }
        try (Admin admin = admin(uri, objectStore, walObjectStore)) {
            CheckpointOptions options = new CheckpointOptions(lifetime.map(Duration::toMillis).orElse(null), null, name.orElse(null));
            var result = await(executor -> admin.createDetachedCheckpoint(options, executor), uri, "creating a checkpoint");
            return listCheckpoints().stream()
                    .filter(checkpoint -> checkpoint.id().equals(result.id()))
                    .findFirst()
                    .orElseThrow(() -> new NotFoundException("checkpoint " + result.id() + " vanished right after creation"));
        }
    }

    public List<CheckpointInfo> listCheckpoints()
    {
        return listCheckpoints(uri, objectStore, walObjectStore, timeout);
    }

    private static List<CheckpointInfo> listCheckpoints(StoreUri uri, ObjectStore objectStore, Optional<ObjectStore> wal, Duration timeout)
    {
        try (Admin admin = admin(uri, objectStore, wal)) {
            return await(executor -> admin.listCheckpoints(null, executor), uri, "listing checkpoints", timeout).stream()
                    .map(checkpoint -> new CheckpointInfo(checkpoint.id(), checkpoint.manifestId(),
                            Instant.ofEpochSecond(checkpoint.createTimeSecs()),
                            Optional.ofNullable(checkpoint.expireTimeSecs()).map(Instant::ofEpochSecond),
                            Optional.ofNullable(checkpoint.name())))
                    .toList();
        }
    }

    /** The checkpoints of the store at {@code uri}, listed without opening it (no writer, no reader). */
    public static List<CheckpointInfo> listCheckpoints(StoreUri uri, StoreOptions options)
    {
        return listCheckpoints(uri, ObjectStores.resolve(uri, options), options.walStore().map(walStore -> ObjectStores.resolve(walStore, options)), options.timeout());
    }

    /** Deletes a checkpoint of the store at {@code uri} without opening it, so that a live writer is not fenced. */
    public static void deleteCheckpoint(StoreUri uri, StoreOptions options, String id)
    {
        ObjectStore objectStore = ObjectStores.resolve(uri, options);
        Optional<ObjectStore> wal = options.walStore().map(walStore -> ObjectStores.resolve(walStore, options));
        if (listCheckpoints(uri, objectStore, wal, options.timeout()).stream().noneMatch(checkpoint -> checkpoint.id().equals(id))) {
            throw new NotFoundException("store " + uri + " has no checkpoint " + id + "; list the checkpoints to see which exist");
        }
        try (Admin admin = admin(uri, objectStore, wal)) {
            await(executor -> admin.deleteCheckpoint(id, executor), uri, "deleting checkpoint " + id, options.timeout());
        }
    }

    public void deleteCheckpoint(String id)
    {
        if (listCheckpoints().stream().noneMatch(checkpoint -> checkpoint.id().equals(id))) {
            throw new NotFoundException("store " + uri + " has no checkpoint " + id + "; list the checkpoints to see which exist");
        }
        try (Admin admin = admin(uri, objectStore, walObjectStore)) {
            await(executor -> admin.deleteCheckpoint(id, executor), uri, "deleting checkpoint " + id, timeout);
        }
    }

    private static Admin admin(StoreUri uri, ObjectStore objectStore, Optional<ObjectStore> wal)
    {
        try (AdminBuilder builder = new AdminBuilder(uri.dbPath(), objectStore)) {
            return call(() -> {
                if (wal.isPresent()) {
                    builder.withWalObjectStore(wal.get());
                }
                return builder.build();
            }, uri, "opening the store's admin interface");
        }
    }

    /** Closes the handle; closing twice is harmless. */
    @Override
    public synchronized void close()
    {
        if (closed) {
            return;
        }
        closed = true;
        closeFencedReader();
        Db db = this.db;
        if (db != null) {
            try (db) {
                await(db::shutdown, uri, "closing the store", timeout);
            }
            catch (io.moraine.core.error.FencedException e) {
                // A fenced writer has nothing left to flush; closing it must still succeed.
            }
            catch (io.moraine.core.error.StoreException e) {
                // SlateDB already closed the handle (a fenced writer's background task may close it first, reporting a
                // clean close): there is nothing left to shut down.
                if (!(e.getCause() instanceof io.slatedb.uniffi.Error.Closed)) {
                    throw e;
                }
            }
        }
        if (reader != null) {
            try (reader) {
                await(reader::shutdown, uri, "closing the store", timeout);
            }
        }
        if (generations != null) {
            generations.close();
        }
    }

    /** The smallest key after {@code key}. */
    private static byte[] after(byte[] key)
    {
        byte[] next = java.util.Arrays.copyOf(key, key.length + 1);
        return next;
    }

    /** A range scan of one of the three SlateDB read handles. */
    @FunctionalInterface
    private interface Scanner
    {
        CompletableFuture<DbIterator> scan(KeyRange range, ScanOptions options, Executor executor);
    }

    /** Adapts the three SlateDB read handles (Db, DbReader, DbSnapshot), which share no interface. */
    private final class Reader
            implements KeyValueReader
    {
        private final BiFunction<byte[], Executor, CompletableFuture<byte[]>> getter;
        private final Scanner scanner;
        private final ScanOrders scanOptions;
        // The view's system records when the writer kept them (see AppliedSystemRecords), else null.
        private final Map<ByteBuffer, byte[]> systemRecords;
        // HANDOFF mode: this reader's handle is chosen per read (writer or fenced reader), so a read that fails because of a
        // hand-off is redone on the current one.
        private boolean failingOver;
        // HANDOFF mode, snapshot views: where reads go once the view's writer is fenced or replaced.
        private java.util.function.Supplier<Reader> fallback;
        // On-demand READ_ONLY: a read that finds a file gone is redone once on a new reader generation; null otherwise.
        private MissingObjectRetry missingObjectRetry;

        private Reader(BiFunction<byte[], Executor, CompletableFuture<byte[]>> getter, Scanner scanner, ScanOrders scanOptions)
        {
            this(getter, scanner, scanOptions, null);
        }

        private Reader(BiFunction<byte[], Executor, CompletableFuture<byte[]>> getter, Scanner scanner, ScanOrders scanOptions,
                Map<ByteBuffer, byte[]> systemRecords)
        {
            this.getter = getter;
            this.scanner = scanner;
            this.scanOptions = scanOptions;
            this.systemRecords = systemRecords;
        }

        @Override
        public byte[] get(byte[] key)
        {
            ByteBuffer wrapped = ByteBuffer.wrap(key);
            if (systemRecords != null && AppliedSystemRecords.isSystemKey(wrapped)) {
                byte[] value = systemRecords.get(wrapped);
                return value == null ? null : value.clone();
            }
            readListener.pointRead(key);
            for (int attempt = 1; ; attempt++) {
                try {
                    return await(executor -> getter.apply(key, executor), uri, "reading a key", timeout);
                }
                catch (RuntimeException e) {
                    if (missingObjectRetry != null && missingObjectRetry.applies(e)) {
                        return missingObjectRetry.redo(e, () -> await(executor -> getter.apply(key, executor), uri, "reading a key", timeout));
                    }
                    Reader next = failOver(e, attempt);
                    if (next != this) {
                        return next.get(key);
                    }
                }
            }
        }

        /**
         * Where a read that failed with {@code failure} goes next: this reader again (its handle is chosen per read), the
         * view's fallback, or nowhere (the failure is rethrown) when it is not a hand-off's or the attempts are spent.
         */
        private Reader failOver(RuntimeException failure, int attempt)
        {
            if (!isHandoffFailure(failure)) {
                throw failure;
            }
            if (fallback != null) {
                return fallback.get();
            }
            if (!failingOver || attempt >= 4) {
                throw failure;
            }
            if (failure instanceof io.moraine.core.error.FencedException && (attempt > 1 || writerTaken())) {
                noteFenced();
            }
            return this;
        }

        /** Issues every read at once and waits for all: point reads of one window overlap their latency. */
        @Override
        public List<byte[]> getAll(List<byte[]> keys)
        {
            return startGetAll(keys).await();
        }

        @Override
        public PendingReads startGetAll(List<byte[]> keys)
        {
            PendingReads started = startGetAllOnce(keys);
            if (missingObjectRetry != null) {
                return started.failingOver(missingObjectRetry::applies, failure -> missingObjectRetry.redo(failure, () -> startGetAllOnce(keys).await()));
            }
            if (!failingOver && fallback == null) {
                return started;
            }
            return started.failingOver(SlateStore.this::isHandoffFailure, failure -> {
                Reader next = fallback != null ? fallback.get() : this;
                if (next == this && writerTaken()) {
                    noteFenced();
                }
                return next.getAll(keys);
            });
        }

        private PendingReads startGetAllOnce(List<byte[]> keys)
        {
            keys.forEach(readListener::pointRead);
            List<Function<Executor, CompletableFuture<byte[]>>> reads = keys.stream()
                    .<Function<Executor, CompletableFuture<byte[]>>>map(key -> executor -> getter.apply(key, executor))
                    .toList();
            return PendingReads.start(reads, uri, timeout);
        }

        @Override
        public KeyValueCursor scan(byte[] start, byte[] end, int pageSize)
        {
            return scan(start, end, pageSize, scanOptions.ascending());
        }

        @Override
        public KeyValueCursor scanDescending(byte[] start, byte[] end, int pageSize)
        {
            return scan(start, end, pageSize, scanOptions.descending());
        }

        private KeyValueCursor scan(byte[] start, byte[] end, int pageSize, ScanOptions options)
        {
            readListener.rangeScan(start, end);
            DbIterator iterator = openScan(new KeyRange(start, true, end, false), options);
            boolean descending = options.order() == IterationOrder.DESCENDING;
            if (missingObjectRetry != null) {
                // A scan that finds a file gone midway goes on after the last key it returned, on a new reader generation.
                return new KeyValueCursor(iterator, uri, pageSize, timeout, lastKey -> {
                    missingObjectRetry.moveOn();
                    return openScan(rest(start, end, lastKey, descending), options);
                }, missingObjectRetry::applies, 1);
            }
            if (!failingOver && fallback == null) {
                return new KeyValueCursor(iterator, uri, pageSize, timeout);
            }
            // A scan whose handle is fenced or replaced midway goes on after the last key it returned, on the current handle.
            return new KeyValueCursor(iterator, uri, pageSize, timeout, lastKey -> {
                Reader next = fallback != null ? fallback.get() : this;
                if (next == this && writerTaken()) {
                    noteFenced();
                }
                return next.openScan(rest(start, end, lastKey, descending), options);
            }, SlateStore.this::isHandoffFailure, 3);
        }

        /** What a scan of [start, end) has left after returning {@code lastKey} (null: nothing returned yet). */
        private static KeyRange rest(byte[] start, byte[] end, byte[] lastKey, boolean descending)
        {
            return lastKey == null ? new KeyRange(start, true, end, false)
                    : descending ? new KeyRange(start, true, lastKey, false) : new KeyRange(after(lastKey), true, end, false);
        }

        private DbIterator openScan(KeyRange range, ScanOptions options)
        {
            for (int attempt = 1; ; attempt++) {
                try {
                    return await(executor -> scanner.scan(range, options, executor), uri, "opening a scan", timeout);
                }
                catch (RuntimeException e) {
                    if (missingObjectRetry != null && missingObjectRetry.applies(e)) {
                        return missingObjectRetry.redo(e, () -> await(executor -> scanner.scan(range, options, executor), uri, "opening a scan", timeout));
                    }
                    Reader next = failOver(e, attempt);
                    if (next != this) {
                        return next.openScan(range, options);
                    }
                }
            }
        }
    }
}
