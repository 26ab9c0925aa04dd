package io.moraine.core.catalog;

import io.moraine.core.error.AlreadyExistsException;
import io.moraine.core.error.MigrationException;
import io.moraine.core.error.MoraineException;
import io.moraine.core.error.NotFoundException;
import io.moraine.core.error.SnapshotExpiredException;
import io.moraine.core.keyspace.RowKeys;
import io.moraine.core.keyspace.RowValueCodec;
import io.moraine.core.keyspace.Subspace;
import io.moraine.core.keyspace.SystemKeys;
import io.moraine.core.row.InsertionOrder;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.store.CheckpointInfo;
import io.moraine.core.store.CommittedRowsCache;
import io.moraine.core.store.KeyValueCursor;
import io.moraine.core.store.KeyValueReader;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.SlateStore;
import io.moraine.core.store.StoreFacts;
import io.moraine.core.store.StoreOptions;
import io.moraine.core.store.StoreUri;
import io.moraine.core.tx.CommitListener;
import io.moraine.core.tx.StagedOperation;
import io.moraine.core.tx.StagedTransaction;
import io.moraine.core.tx.TransactionCommitter;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;

/**
 * A DuckLake catalog stored in SlateDB: the entry point of moraine-core. It serves the {@code ducklake_*} tables
 * row-faithfully (current and history rows), commits staged-row transactions as single durable batches, and
 * resolves snapshots for reads. Open one read-write handle per store; open every other reader read-only or pinned to
 * a checkpoint.
 */
public final class MoraineCatalog
        implements AutoCloseable
{
    /** The store format this binary writes and the newest it reads (docs/format.md). */
    public static final int FORMAT_VERSION = 4;
    public static final String VERSION = "0.1.0";

    private final SlateStore store;
    private final TransactionCommitter committer;
    private final CommittedRowsCache committedRows = new CommittedRowsCache();
    // False while this handle reads an older store that lacks the index, until a writer upgrades it.
    private volatile boolean snapshotTimesIndexed;

    private MoraineCatalog(SlateStore store, CommitListener listener, int formatVersion)
    {
        this.store = store;
        this.committer = new TransactionCommitter(store, listener, committedRows);
        this.snapshotTimesIndexed = formatVersion >= FormatUpgrade.SNAPSHOT_TIME_INDEX;
    }

    /** Creates a catalog in an empty store and returns it open read-write. A store that holds anything is refused. */
    public static MoraineCatalog create(StoreUri uri, NewCatalog options)
    {
        return create(uri, options, StoreOptions.DEFAULTS, List.of(), CommitListener.NONE);
    }

    /**
     * Creates a catalog in an empty store holding {@code initialOperations} besides DuckLake's bootstrap rows (when
     * {@code options.bootstrap()}), all written as one durable batch: a failure leaves no partial catalog. Imports
     * pass every row of the source catalog here.
     */
    public static MoraineCatalog create(StoreUri uri, NewCatalog options, StoreOptions storeOptions, List<StagedOperation> initialOperations,
            CommitListener listener)
    {
        io.moraine.core.store.WalStores.requireOutsideDataPath(storeOptions.walStore(), options.dataPath());
        // Look before opening the writer: opening it would fence a process that is using this store.
        if (SlateStore.holdsData(uri, storeOptions)) {
            throw notEmpty(uri);
        }
        SlateStore store = SlateStore.open(uri, OpenMode.READ_WRITE, storeOptions.withCreateIfMissing());
        try {
            requireEmpty(store);
            MoraineCatalog catalog = new MoraineCatalog(store, listener, FORMAT_VERSION);
            List<StagedOperation> operations = new java.util.ArrayList<>();
            if (options.bootstrap()) {
                operations.addAll(duckLakeBootstrap());
            }
            operations.addAll(initialOperations);
            catalog.committer.commitCreation(SystemKeys.encodeFormat(FORMAT_VERSION, NewCatalog.CREATED_BY),
                    StoreFacts.forNewCatalog(options.dataPath(), options.encrypted(), options.createdBy()), operations);
            return catalog;
        }
        catch (RuntimeException e) {
            store.close();
            throw e;
        }
    }

    /**
     * Opens the catalog at {@code uri} read-write, creating it (as {@link #create}) when the location holds no store or
     * an empty one: for front ends whose user asked for creation explicitly (a read-write attach with a
     * create-if-missing option). A store that holds something that is not a catalog is refused as {@link #open} does.
     */
    public static MoraineCatalog openOrCreate(StoreUri uri, NewCatalog options, StoreOptions storeOptions)
    {
        if (SlateStore.holdsData(uri, storeOptions)) {
            return open(uri, OpenMode.READ_WRITE, storeOptions);
        }
        return create(uri, options, storeOptions, List.of(), CommitListener.NONE);
    }

    private static void requireEmpty(SlateStore store)
    {
        try (KeyValueCursor cursor = store.latest().scan(new byte[] {0}, new byte[] {(byte) 0xFF}, 1)) {
            if (cursor.hasNext()) {
                throw notEmpty(store.uri());
            }
        }
    }

    private static AlreadyExistsException notEmpty(StoreUri uri)
    {
        return new AlreadyExistsException("store " + uri + " is not empty; a new catalog needs an empty store. Open the "
                + "existing catalog instead, or choose another location.");
    }

    /** The rows DuckLake writes when it creates a catalog: snapshot 0 and the schema {@code main}. */
    private static List<StagedOperation> duckLakeBootstrap()
    {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        return List.of(
                new StagedOperation.Insert(Row.of(TableKind.SNAPSHOT, 0L, now, 0L, 1L, 0L)),
                new StagedOperation.Insert(Row.of(TableKind.SNAPSHOT_CHANGES, 0L, "created_schema:\"main\"", null, null, null)),
                new StagedOperation.Insert(Row.of(TableKind.SCHEMA, 0L, UUID.randomUUID(), 0L, null, "main", "main/", true)));
    }

    public static MoraineCatalog open(StoreUri uri, OpenMode mode)
    {
        return open(uri, mode, StoreOptions.DEFAULTS, CommitListener.NONE);
    }

    public static MoraineCatalog open(StoreUri uri, OpenMode mode, StoreOptions storeOptions)
    {
        return open(uri, mode, storeOptions, CommitListener.NONE);
    }

    /**
     * Opens an existing catalog; {@code listener} observes each commit before its batch is written. A read-write open
     * of a store in an older format upgrades it first (docs/format.md, "Format versions"). No open creates a store,
     * whatever {@link StoreOptions#createIfMissing()} says: a missing one fails with
     * {@link io.moraine.core.error.StoreNotFoundException} and nothing is written; {@link #create} makes new catalogs.
     */
    public static MoraineCatalog open(StoreUri uri, OpenMode mode, StoreOptions storeOptions, CommitListener listener)
    {
        SlateStore store = SlateStore.open(uri, mode, storeOptions.withoutCreateIfMissing());
        try {
            int formatVersion = checkFormat(store);
            if (storeOptions.walStore().isPresent()) {
                io.moraine.core.store.WalStores.requireOutsideDataPath(storeOptions.walStore(), StoreFacts.read(store.latest()).get(StoreFacts.DATA_PATH));
            }
            if (formatVersion < FORMAT_VERSION && mode == OpenMode.READ_WRITE) {
                FormatUpgrade.toCurrent(store, formatVersion);
                formatVersion = FORMAT_VERSION;
            }
            return new MoraineCatalog(store, listener, formatVersion);
        }
        catch (RuntimeException e) {
            store.close();
            throw e;
        }
    }

    /** The store's format version, refusing a store that is not a catalog or is newer than this binary. */
    private static int checkFormat(SlateStore store)
    {
        byte[] format = store.latest().get(SystemKeys.FORMAT);
        if (format == null) {
            throw new NotFoundException("store " + store.uri() + " holds no moraine catalog (no format record); create "
                    + "one, or import a DuckLake catalog into it");
        }
        int version = SystemKeys.decodeFormatVersion(format);
        if (version > FORMAT_VERSION) {
            throw new MigrationException("store " + store.uri() + " has format version " + version + ", newer than "
                    + "version " + FORMAT_VERSION + " that this moraine (" + VERSION + ") reads; upgrade moraine to open it");
        }
        return version;
    }

    public StoreUri uri()
    {
        return store.uri();
    }

    public OpenMode mode()
    {
        return store.mode();
    }

    /** The global facts served as ducklake_metadata's first rows. */
    public StoreFacts facts()
    {
        return StoreFacts.read(store.latest());
    }

    /**
     * The store's tiny-file threshold (docs/tiny-files.md): data and delete files of at most this many bytes may have
     * a copy in the catalog; 0 means off. {@link io.moraine.core.keyspace.SystemKeys#DEFAULT_TINY_FILE_THRESHOLD_BYTES}
     * when never set.
     */
    public long tinyFileThresholdBytes()
    {
        return SystemKeys.decodeTinyFileThreshold(store.latest().get(SystemKeys.TINY_FILE_THRESHOLD));
    }

    /**
     * Records the tiny-file threshold in the store (0 turns copying off; existing copies stay until their files are
     * pruned or swept, and readers stop using them at once). Written beside commits: no snapshot is created.
     */
    public void setTinyFileThresholdBytes(long bytes)
    {
        if (bytes < 0) {
            throw new io.moraine.core.error.InvalidArgumentException("tiny_file_threshold_bytes must be 0 (off) or a positive number of bytes, was " + bytes);
        }
        writeBesideCommits(reader -> java.util.Map.of(java.nio.ByteBuffer.wrap(SystemKeys.TINY_FILE_THRESHOLD), SystemKeys.encodeTinyFileThreshold(bytes)));
    }

    /**
     * Writes keys that are not catalog rows (tiny-file copies) as one durable batch between commits, computed under
     * the commit lock from the state the next commit builds on; see {@link TransactionCommitter#writeBesideCommits}.
     * Needs a read-write handle.
     */
    public java.util.Map<java.nio.ByteBuffer, byte[]> writeBesideCommits(
            java.util.function.Function<KeyValueReader, java.util.Map<java.nio.ByteBuffer, byte[]>> writesOver)
    {
        if (store.mode() != OpenMode.READ_WRITE) {
            throw new io.moraine.core.error.InvalidArgumentException("cannot write to store " + uri() + ": it is open " + store.mode()
                    + "; open it READ_WRITE (as the store's one writer) to change it");
        }
        return committer.writeBesideCommits(writesOver);
    }

    /**
     * The newest snapshot id, or empty for a catalog that has none yet (an import in progress). A read-only handle
     * consults its freshness first ({@link SlateStore#catchUp()}).
     */
    public OptionalLong headSnapshotId()
    {
        store.catchUp();
        return knownHeadSnapshotId();
    }

    /** The newest snapshot id this handle has seen, without consulting its freshness. */
    private OptionalLong knownHeadSnapshotId()
    {
        byte[] value = store.latest().get(SystemKeys.HEAD);
        return value == null ? OptionalLong.empty() : OptionalLong.of(SystemKeys.decodeHead(value));
    }

    /**
     * The catalog at its newest snapshot. A read-only handle consults its freshness first: by default it sees every
     * commit acknowledged before this call (docs/freshness.md).
     */
    public CatalogSnapshot latest()
    {
        store.catchUp();
        return latestSeen();
    }

    /**
     * The catalog at the newest snapshot this handle has seen, without consulting its freshness: for the later reads of
     * a query or transaction whose first read was {@link #latest()} (it sees what that one saw, or newer).
     */
    public CatalogSnapshot latestSeen()
    {
        return onView(view -> {
            long head = SystemKeys.decodeHead(requireHead(view.reader()));
            return snapshotOn(view, head, head);
        });
    }

    /**
     * The catalog at snapshot {@code snapshotId}; an expired or unknown id is refused, never replaced by another. A
     * read-only handle asked for a snapshot past the head it has seen first catches up with the store (on demand), or
     * waits at most two of its poll intervals for it to arrive (polling): an id another process has just committed (and
     * handed out) is read, not refused. An id at or below the head seen needs no check: a snapshot never changes.
     */
    public CatalogSnapshot at(long snapshotId)
    {
        java.util.function.Function<SlateStore.SnapshotView, CatalogSnapshot> open =
                view -> snapshotOn(view, snapshotId, SystemKeys.decodeHead(requireHead(view.reader())));
        try {
            return onView(open);
        }
        catch (NotFoundException e) {
            if (store.mode() != OpenMode.READ_ONLY) {
                throw e;
            }
            // The head may have moved past the id since the view was taken: then the view is simply taken again.
            if (knownHeadSnapshotId().orElse(-1) < snapshotId && !store.catchUpNow()) {
                awaitHead(snapshotId, store.manifestPollInterval().multipliedBy(2));
            }
            return onView(open);
        }
    }

    private void awaitHead(long snapshotId, Duration wait)
    {
        long deadline = System.nanoTime() + wait.toNanos();
        while (knownHeadSnapshotId().orElse(-1) < snapshotId && System.nanoTime() < deadline) {
            try {
                Thread.sleep(Math.max(1, Math.min(10, wait.toMillis() / 10)));
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * The catalog as of {@code instant}: the snapshot with the largest snapshot_time at or before it (on equal times,
     * the highest id), as DuckLake's {@code AT (TIMESTAMP => ...)} resolves it. An instant before every snapshot is
     * refused with {@link NotFoundException}.
     */
    public CatalogSnapshot asOf(Instant instant)
    {
        store.catchUp();
        return onView(view -> {
            long head = SystemKeys.decodeHead(requireHead(view.reader()));
            long snapshotId = snapshotTimes(view.reader()).latestAtOrBefore(instant).orElseThrow(() -> new NotFoundException("catalog "
                    + uri() + " has no snapshot at or before " + instant + "; its snapshots start later (or were expired). Ask for a later time."));
            return snapshotOn(view, snapshotId, head);
        });
    }

    /**
     * The id of the snapshot with the smallest snapshot_time at or after {@code instant} (on equal times, the lowest
     * id): where a change feed that starts at {@code instant} begins, as DuckLake resolves a timestamp start bound.
     * Empty when every snapshot is older.
     */
    public OptionalLong firstSnapshotAtOrAfter(Instant instant)
    {
        store.catchUp();
        try (SlateStore.SnapshotView view = store.snapshot()) {
            return snapshotTimes(view.reader()).earliestAtOrAfter(instant);
        }
    }

    /** Looks snapshots up by time in {@code reader}: through the index once the store has it, else by a full scan. */
    private SnapshotTimeLookup snapshotTimes(KeyValueReader reader)
    {
        if (!snapshotTimesIndexed) {
            byte[] format = reader.get(SystemKeys.FORMAT);
            // A writer may have upgraded the store since this handle opened it; the index stays once it is there.
            snapshotTimesIndexed = format != null && SystemKeys.decodeFormatVersion(format) >= FormatUpgrade.SNAPSHOT_TIME_INDEX;
        }
        return new SnapshotTimeLookup(reader, snapshotTimesIndexed);
    }

    /** Opens a consistent view and hands it to {@code open}; the view is closed if opening the snapshot fails. */
    private CatalogSnapshot onView(java.util.function.Function<SlateStore.SnapshotView, CatalogSnapshot> open)
    {
        SlateStore.SnapshotView view = store.snapshot();
        try {
            return open.apply(view);
        }
        catch (RuntimeException e) {
            view.close();
            throw e;
        }
    }

    private byte[] requireHead(KeyValueReader reader)
    {
        byte[] head = reader.get(SystemKeys.HEAD);
        if (head == null) {
            throw new NotFoundException("catalog " + uri() + " has no snapshot yet");
        }
        return head;
    }

    private CatalogSnapshot snapshotOn(SlateStore.SnapshotView view, long snapshotId, long head)
    {
        byte[] key = RowKeys.key(Subspace.CURRENT, TableKind.SNAPSHOT, snapshotId);
        byte[] value = view.reader().get(key);
        if (value == null) {
            if (snapshotId > head) {
                throw new NotFoundException("snapshot " + snapshotId + " does not exist in catalog " + uri()
                        + "; the newest is " + head);
            }
            throw new SnapshotExpiredException("snapshot " + snapshotId + " of catalog " + uri() + " was expired and its "
                    + "rows reclaimed; read a later snapshot (the newest is " + head + ")");
        }
        Row snapshot = RowValueCodec.decode(TableKind.SNAPSHOT, key, value);
        // At the head only current rows can be visible, so history need not be read; but a following view (READ_ONLY, UNPINNED) tracks the
        // writer while it is read, and a later commit may move rows this snapshot sees into history meanwhile.
        boolean readsHistory = snapshotId != head || store.mode() == io.moraine.core.store.OpenMode.READ_ONLY
                || store.mode() == io.moraine.core.store.OpenMode.UNPINNED;
        return new CatalogSnapshot(view.reader(), snapshot, !readsHistory, view::close);
    }

    /** Begins a transaction at the newest snapshot. */
    public StagedTransaction begin()
    {
        return committer.begin(headSnapshotId().orElse(-1));
    }

    /** Begins a transaction whose rows were authored against {@code readSnapshotId}. */
    public StagedTransaction begin(long readSnapshotId)
    {
        return committer.begin(readSnapshotId);
    }

    /**
     * Streams every row of one catalog table, row-faithfully, in key order, one page at a time. For
     * {@code ducklake_metadata} the store facts (version, created_by, data_path, encrypted) come first.
     */
    public RowCursor scan(TableKind kind, RowScope scope)
    {
        return scan(store.latest(), kind, scope);
    }

    /**
     * {@link #scan(TableKind, RowScope)} through {@code reader}, e.g. a {@link SlateStore#snapshot()} view that a
     * front end's transaction reads every table through, so that its reads agree with each other.
     */
    public RowCursor scan(KeyValueReader reader, TableKind kind, RowScope scope)
    {
        List<Subspace> subspaces = switch (scope) {
            case CURRENT -> List.of(Subspace.CURRENT);
            case HISTORY -> kind.isVersioned() ? List.of(Subspace.HISTORY) : List.of();
            case ALL -> kind.isVersioned() ? List.of(Subspace.CURRENT, Subspace.HISTORY) : List.of(Subspace.CURRENT);
        };
        List<Row> leading = kind == TableKind.METADATA && scope != RowScope.HISTORY ? StoreFacts.read(reader).asMetadataRows() : List.of();
        return new RowCursor(reader, kind, subspaces, new Object[0], RowCursor.DEFAULT_PAGE_SIZE, row -> true, leading);
    }

    /**
     * Every row of {@code kind} as {@code reader} sees it (those of {@link #scan(KeyValueReader, TableKind,
     * RowScope)} with {@link RowScope#ALL}), unmodifiable, in the order DuckLake inserted them ({@link InsertionOrder}:
     * ascending by the first of {@link InsertionOrder#columns} where a kind has them), as a DuckDB-file catalog
     * serves them. Served from memory while the kind is unchanged
     * (its row stamp holds), so front ends that read whole tables per transaction pay a store scan only for kinds that
     * changed since, and none for kinds this handle's own commits changed.
     */
    public List<Row> everyRow(KeyValueReader reader, TableKind kind)
    {
        return committedRows.rows(reader, kind, () -> scan(reader, kind, RowScope.ALL).toList());
    }

    public CheckpointInfo createCheckpoint(Optional<Duration> lifetime, Optional<String> name)
    {
        return store.createCheckpoint(lifetime, name);
    }

    public List<CheckpointInfo> listCheckpoints()
    {
        return store.listCheckpoints();
    }

    public void deleteCheckpoint(String id)
    {
        store.deleteCheckpoint(id);
    }

    /**
     * The underlying store, for tools that work below the catalog (dumps, fault injection in tests). Writing through
     * it bypasses the committer and its read cache: reopen the catalog before committing again.
     */
    public SlateStore store()
    {
        return store;
    }

    @Override
    public void close()
    {
        store.close();
    }
}
