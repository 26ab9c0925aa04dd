package io.moraine.duckdb.ext;

import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.error.MoraineException;
import io.moraine.core.store.CheckpointInfo;
import io.moraine.core.store.SlateStore;
import io.moraine.core.store.StoreReadListener;
import io.moraine.core.store.StoreOptions;
import io.moraine.core.store.StoreUri;
import org.apache.arrow.c.ArrowArray;
import org.apache.arrow.c.ArrowSchema;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The Java side of moraine.duckdb_extension: static methods the C++ shim calls over JNI. Catalogs and scans are
 * handed out as handles; rows leave as Arrow C Data written into structs the shim owns. Every method may throw; the
 * shim maps the exception to a DuckDB exception with {@link #errorCode} and {@link #errorMessage}.
 */
public final class NativeBridge
{
    // One allocator for the process: exported buffers are released by DuckDB, possibly after their attach is gone.
    private static final BufferAllocator ALLOCATOR = new RootAllocator();
    private static final AtomicLong NEXT_HANDLE = new AtomicLong(1);
    private static final ConcurrentHashMap<Long, AttachedStore> CATALOGS = new ConcurrentHashMap<>();
    private static final ConcurrentHashMap<Long, BatchSource> SCANS = new ConcurrentHashMap<>();
    private static final ConcurrentHashMap<Long, AttachTransaction> TRANSACTIONS = new ConcurrentHashMap<>();
    private static final InterruptibleCalls CALLS = new InterruptibleCalls();
    private static volatile StoreReadListener readListener = StoreReadListener.NONE;

    private NativeBridge() {}

    /** The stores attached in this process (for in-process tools such as {@link AttachedTinyFiles}). */
    static java.util.Collection<AttachedStore> attachedStores()
    {
        return java.util.List.copyOf(CATALOGS.values());
    }

    /** {@code options}: alternating keys and values (see {@link AttachOptions}). */
    public static long open(String uri, String accessMode, String[] options)
    {
        AttachedStore store = AttachedStore.open(AttachRequest.parse(uri, accessMode, AttachOptions.of(options)));
        long handle = NEXT_HANDLE.getAndIncrement();
        CATALOGS.put(handle, store);
        return handle;
    }

    /**
     * Opens the lake of metadata schema {@code schema} of an attach (see {@link AttachedStore#metadataSchema}) as an
     * attach of its own; 0 when it holds nothing yet and {@code create} is false.
     */
    public static long openMetadataSchema(long handle, String schema, boolean create)
    {
        AttachedStore store = catalog(handle).metadataSchema(schema, create);
        if (store == null) {
            return 0;
        }
        long schemaHandle = NEXT_HANDLE.getAndIncrement();
        CATALOGS.put(schemaHandle, store);
        return schemaHandle;
    }

    /**
     * For {@code ATTACH 'ducklake:moraine:<uri>'} without DATA_PATH: the data path DuckLake should create the lake
     * with ({@link DefaultDataPath}), or "" when the lake exists (it keeps its recorded path) or no default applies.
     * {@code metadataSchema}: DuckLake's METADATA_SCHEMA, "" for none; {@code options} as for {@link #open}.
     */
    public static String newLakeDataPath(String uri, String metadataSchema, String[] options)
    {
        AttachRequest request = AttachRequest.parse(uri, "AUTOMATIC", AttachOptions.of(options));
        return DefaultDataPath.forNewLake(request, metadataSchema).orElse("");
    }

    public static void close(long handle)
    {
        AttachedStore store = CATALOGS.remove(handle);
        if (store != null) {
            store.close();
        }
    }

    public static String[] tables(long handle)
    {
        return catalog(handle).listing();
    }

    /** True when the attach serves metadata table {@code table} (an inlined table created elsewhere included; reads nothing). */
    public static boolean servesTable(long handle, String table)
    {
        return catalog(handle).serves(table);
    }

    public static void tableSchema(long handle, String schema, String table, long arrowSchemaAddress)
    {
        ServedTable served = catalog(handle).served(schema, table);
        Data.exportSchema(ALLOCATOR, served.schema(), null, ArrowSchema.wrap(arrowSchemaAddress));
    }

    /**
     * Opens a scan of the table as DuckDB transaction {@code tx} sees it, with a trailing row-id column when
     * {@code rowIds}; {@code call} identifies this call to {@link #interruptCall} while it runs. {@code comparisons}: the
     * pushed BIGINT comparisons as {@link ScanFilter#decode} reads them (rows failing one may be left out).
     */
    public static long scanOpen(long handle, long tx, String schema, String table, int[] columns, boolean rowIds, long[] comparisons, long call)
    {
        ScanFilter filter = ScanFilter.decode(comparisons);
        BatchSource source = onTable(handle, tx, schema, table, call,
                (served, transaction) -> served.open(transaction, columns, rowIds, filter, ALLOCATOR));
        long scan = NEXT_HANDLE.getAndIncrement();
        SCANS.put(scan, source);
        return scan;
    }

    /** The exact range of a BIGINT column as DuckDB transaction {@code tx} sees the table (see {@link ServedTable#bigintRange}). */
    public static long[] columnRange(long handle, long tx, String schema, String table, int column, long call)
    {
        return onTable(handle, tx, schema, table, call, (served, transaction) -> served.bigintRange(transaction, column));
    }

    /** Runs {@code body} on a served table and DuckDB transaction {@code tx} (0: none, read as committed), interruptibly. */
    private static <T> T onTable(long handle, long tx, String schema, String table, long call, java.util.function.BiFunction<ServedTable, AttachTransaction, T> body)
    {
        AttachTransaction transaction = tx == 0 ? null : transaction(tx);
        return CALLS.run(call, () -> {
            ServedTable served = catalog(handle).served(schema, table);
            if (transaction == null) {
                return body.apply(served, null);
            }
            synchronized (transaction) {
                return body.apply(served, transaction);
            }
        });
    }

    /** Begins the Java side of a DuckDB transaction on an attach (cheap: nothing is read until it is used). */
    public static long txBegin(long handle)
    {
        long tx = NEXT_HANDLE.getAndIncrement();
        TRANSACTIONS.put(tx, new AttachTransaction(catalog(handle)));
        return tx;
    }

    /**
     * Commits and ends a transaction; it is ended (its staged changes dropped) whether or not the commit succeeds.
     * Interruptible as {@code call}: interrupted before its batch is submitted, it fails as interrupted; after, the
     * core reports its outcome unknown ({@link io.moraine.core.error.CommitOutcomeUnknownException}).
     */
    public static void txCommit(long tx, long call)
    {
        CALLS.run(call, () -> {
            try (AttachTransaction transaction = TRANSACTIONS.remove(tx)) {
                if (transaction == null) {
                    throw new InvalidArgumentException("transaction " + tx + " is not open");
                }
                synchronized (transaction) {
                    transaction.commit();
                }
            }
            return null;
        });
    }

    public static void txRollback(long tx)
    {
        AttachTransaction transaction = TRANSACTIONS.remove(tx);
        if (transaction != null) {
            transaction.close();
        }
    }

    /** INSERT of one DataChunk (every table column, in order) as Arrow C Data; Java takes ownership of both structs. */
    public static long insert(long tx, String schema, String table, long arrowArrayAddress, long arrowSchemaAddress)
    {
        VectorSchemaRoot batch = Data.importVectorSchemaRoot(ALLOCATOR, ArrowArray.wrap(arrowArrayAddress), ArrowSchema.wrap(arrowSchemaAddress), null);
        AttachTransaction transaction = transaction(tx);
        synchronized (transaction) {
            return transaction.insert(transaction.store().served(schema, table), batch);
        }
    }

    /** UPDATE: the new values of {@code columns} as Arrow C Data (Java takes ownership), for the rows {@code rowIds}. */
    public static long update(long tx, String schema, String table, int[] columns, long arrowArrayAddress, long arrowSchemaAddress, long[] rowIds)
    {
        VectorSchemaRoot values = Data.importVectorSchemaRoot(ALLOCATOR, ArrowArray.wrap(arrowArrayAddress), ArrowSchema.wrap(arrowSchemaAddress), null);
        AttachTransaction transaction = transaction(tx);
        synchronized (transaction) {
            return transaction.update(transaction.store().served(schema, table), columns, values, rowIds);
        }
    }

    public static long delete(long tx, String schema, String table, long[] rowIds)
    {
        AttachTransaction transaction = transaction(tx);
        synchronized (transaction) {
            return transaction.delete(transaction.store().served(schema, table), rowIds);
        }
    }

    /**
     * CREATE TABLE: {@code arrowSchemaAddress} holds the columns as DuckDB exports them (Java takes ownership);
     * {@code uuidColumns} names the UUID ones, {@code variantColumns} the VARIANT ones (exported as their
     * STRUCT(metadata BLOB, value BLOB) encoding); HUGEINT and UHUGEINT fields name themselves ({@link HugeintColumns}).
     * False when the table exists already.
     */
    public static boolean createTable(long tx, String schema, String table, long arrowSchemaAddress, String[] uuidColumns, String[] variantColumns)
    {
        org.apache.arrow.vector.types.pojo.Schema columns = Data.importSchema(ALLOCATOR, ArrowSchema.wrap(arrowSchemaAddress), null);
        AttachTransaction transaction = transaction(tx);
        synchronized (transaction) {
            return transaction.store().createTable(transaction, schema, table,
                    HugeintColumns.marked(VariantColumns.marked(columns, java.util.Set.of(variantColumns))),
                    java.util.Set.of(uuidColumns)) != null;
        }
    }

    /** DROP TABLE: false when the table does not exist. */
    public static boolean dropTable(long tx, String schema, String table)
    {
        AttachTransaction transaction = transaction(tx);
        synchronized (transaction) {
            return transaction.store().dropTable(transaction, schema, table);
        }
    }

    private static AttachTransaction transaction(long tx)
    {
        AttachTransaction transaction = TRANSACTIONS.get(tx);
        if (transaction == null) {
            throw new InvalidArgumentException("transaction " + tx + " is not open (it was committed or rolled back)");
        }
        return transaction;
    }

    /** Exports the scan's next batch (a struct array of the projected columns) into the shim's ArrowArray. */
    public static boolean scanNext(long scan, long arrowArrayAddress, long call)
    {
        BatchSource source = SCANS.get(scan);
        if (source == null) {
            throw new InvalidArgumentException("scan " + scan + " is not open");
        }
        VectorSchemaRoot batch = CALLS.run(call, source::next);
        if (batch == null) {
            return false;
        }
        Data.exportVectorSchemaRoot(ALLOCATOR, batch, null, ArrowArray.wrap(arrowArrayAddress));
        return true;
    }

    /** DuckDB interrupted the statement of a running call: interrupt the thread running it (a blocked read ends). */
    public static void interruptCall(long call)
    {
        CALLS.interrupt(call);
    }

    /**
     * Store reads of every attach this JVM opens from now on are reported to {@code listener} before they are issued
     * (to trace catalog I/O, or to slow reads down in tests).
     */
    public static void setReadListener(StoreReadListener listener)
    {
        readListener = listener;
    }

    static StoreReadListener readListener()
    {
        return readListener;
    }

    public static void scanClose(long scan)
    {
        BatchSource source = SCANS.remove(scan);
        if (source != null) {
            source.close();
        }
    }

    /** The code of RFC 0006's error table for a failure; anything that is not moraine's own error is INTERNAL. */
    public static int errorCode(Throwable failure)
    {
        return failure instanceof MoraineException moraine ? moraine.code().abiCode() : 8;
    }

    /** The core's message, intact; a failure without one is named by its class. */
    public static String errorMessage(Throwable failure)
    {
        String message = failure.getMessage();
        if (failure instanceof MoraineException) {
            return message;
        }
        return "moraine: " + failure.getClass().getName() + (message == null ? "" : ": " + message);
    }

    public static String[] createCheckpoint(long handle, long lifetimeMicros)
    {
        AttachedStore store = catalog(handle);
        if (store.catalog().mode() == io.moraine.core.store.OpenMode.CHECKPOINT) {
            throw new InvalidArgumentException("moraine_create_checkpoint: catalog " + store.catalog().uri() + " is attached at a "
                    + "checkpoint, which writes nothing to the store; create checkpoints through a READ_WRITE (or READ_ONLY) attach");
        }
        Optional<Duration> lifetime = lifetimeMicros > 0 ? Optional.of(Duration.ofNanos(Math.multiplyExact(lifetimeMicros, 1000L))) : Optional.empty();
        return fields(List.of(store.catalog().createCheckpoint(lifetime, Optional.empty())));
    }

    /** {@code options}: the S3 secret matching the store, as for {@link #open}. */
    public static String[] checkpoints(String store, String[] options)
    {
        StoreUri uri = StoreUri.parse(store);
        return fields(SlateStore.listCheckpoints(uri, AttachOptions.of(options).applyTo(StoreOptions.DEFAULTS, uri)));
    }

    public static void deleteCheckpoint(String store, String id, String[] options)
    {
        StoreUri uri = StoreUri.parse(store);
        SlateStore.deleteCheckpoint(uri, AttachOptions.of(options).applyTo(StoreOptions.DEFAULTS, uri), id);
    }

    /** Four strings per checkpoint: id, manifest id, created-at and expires-at in epoch microseconds (empty: never). */
    private static String[] fields(List<CheckpointInfo> checkpoints)
    {
        List<String> fields = new ArrayList<>();
        for (CheckpointInfo checkpoint : checkpoints) {
            fields.add(checkpoint.id());
            fields.add(Long.toString(checkpoint.manifestId()));
            fields.add(Long.toString(micros(checkpoint.createdAt())));
            fields.add(checkpoint.expiresAt().map(at -> Long.toString(micros(at))).orElse(""));
        }
        return fields.toArray(String[]::new);
    }

    private static long micros(Instant instant)
    {
        return instant.getEpochSecond() * 1_000_000L + instant.getNano() / 1_000;
    }

    private static AttachedStore catalog(long handle)
    {
        AttachedStore store = CATALOGS.get(handle);
        if (store == null) {
            throw new InvalidArgumentException("moraine catalog handle " + handle + " is not attached (it was detached)");
        }
        return store;
    }
}
