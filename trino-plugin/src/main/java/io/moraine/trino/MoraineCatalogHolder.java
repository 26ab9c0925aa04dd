package io.moraine.trino;

import com.google.inject.Inject;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.error.MoraineException;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreOptions;
import io.moraine.core.store.StoreUri;
import io.opentelemetry.api.trace.Tracer;
import jakarta.annotation.PreDestroy;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

import java.util.Optional;

/**
 * What the connector holds for its lifetime: the catalog, opened read-only (or pinned to a checkpoint) once; the
 * store's writer, opened on the coordinator at the first write only (in HANDOFF mode, so DuckDB, Spark or another
 * Trino keep writing the same store); the data-path override; and the one Arrow allocator inlined rows are decoded with.
 */
public class MoraineCatalogHolder
{
    private volatile MoraineCatalog catalog;
    private final Optional<String> dataPathOverride;
    private final io.moraine.core.catalog.AllowedLocations allowedLocations;
    private final BufferAllocator allocator = new RootAllocator();
    private final StoreUri uri;
    private final StoreOptions options;
    private final boolean readOnly;
    private final Optional<String> checkpointId;
    private volatile MoraineCatalog writer;

    @Inject
    public MoraineCatalogHolder(MoraineConfig config, Tracer tracer)
    {
        this.dataPathOverride = config.getDataPath();
        StoreOptions options;
        try {
            options = StoreOptions.DEFAULTS.withReadListener(new TracingStoreReads(tracer))
                    .withTimeout(java.time.Duration.ofMillis(config.getStoreTimeout().toMillis()))
                    .withManifestPollInterval(java.time.Duration.ofMillis(config.getStorePollInterval().toMillis()))
                    .withFreshness(config.freshness());
            this.allowedLocations = io.moraine.core.catalog.AllowedLocations.parse(config.getAllowedLocations(), "moraine.allowed-locations");
        }
        catch (MoraineException e) {
            allocator.close();
            throw MoraineErrorCode.toTrino(e);
        }
        StoreUri uri = StoreUri.parse(config.getStoreUri());
        this.uri = uri;
        this.options = options;
        this.readOnly = config.isReadOnly();
        this.checkpointId = config.getCheckpointId();
    }

    /**
     * The catalog reads go through: the writer once this process has written (it sees its own commits at once), else the
     * reader, opened on first use — so a worker, which plans nothing, never opens the store.
     */
    public MoraineCatalog catalog()
    {
        MoraineCatalog opened = writer;
        if (opened != null) {
            return opened;
        }
        opened = catalog;
        if (opened != null) {
            return opened;
        }
        synchronized (this) {
            if (catalog == null) {
                try {
                    catalog = checkpointId
                            .map(id -> MoraineCatalog.open(uri, OpenMode.CHECKPOINT, options.withCheckpoint(id)))
                            .orElseGet(() -> MoraineCatalog.open(uri, OpenMode.READ_ONLY, options));
                }
                catch (MoraineException e) {
                    throw MoraineErrorCode.toTrino(e);
                }
            }
            return catalog;
        }
    }

    /** Whether this process has opened the store (a worker never should). */
    public boolean storeOpened()
    {
        return catalog != null || writer != null;
    }

    /**
     * The store's writer, opened on first use: refused when the catalog is read-only ({@code moraine.read-only}) or
     * pinned to a checkpoint, before anything is opened.
     */
    public MoraineCatalog writer()
    {
        requireWritable();
        MoraineCatalog opened = writer;
        if (opened != null) {
            return opened;
        }
        synchronized (this) {
            if (writer == null) {
                try {
                    writer = MoraineCatalog.open(uri, OpenMode.READ_WRITE, options);
                }
                catch (MoraineException e) {
                    throw MoraineErrorCode.toTrino(e);
                }
            }
            return writer;
        }
    }

    /** Refuses a write with a clear error when this catalog takes none; opens nothing. */
    public void requireWritable()
    {
        if (readOnly) {
            throw new io.trino.spi.TrinoException(io.trino.spi.StandardErrorCode.NOT_SUPPORTED, "catalog on store " + uri
                    + " is read-only (moraine.read-only=true): it takes no writes; write through a catalog without moraine.read-only, or through DuckDB");
        }
        if (checkpointId.isPresent()) {
            throw new io.trino.spi.TrinoException(io.trino.spi.StandardErrorCode.NOT_SUPPORTED, "catalog on store " + uri + " is pinned to checkpoint "
                    + checkpointId.get() + " (moraine.checkpoint-id): it reads that fixed state and takes no writes; remove moraine.checkpoint-id to write");
        }
    }

    /** {@code moraine.data-path}: where relative data paths resolve instead of the catalog's data_path. */
    public Optional<String> dataPathOverride()
    {
        return dataPathOverride;
    }

    /** {@code moraine.allowed-locations}: where the catalog's files may live (checked as tasks are planned). */
    public io.moraine.core.catalog.AllowedLocations allowedLocations()
    {
        return allowedLocations;
    }

    /** A child of the connector's allocator for one reader; close it with the reader. */
    public BufferAllocator newAllocator(String name)
    {
        return allocator.newChildAllocator(name, 0, Long.MAX_VALUE);
    }

    @PreDestroy
    public void close()
    {
        try (allocator) {
            try {
                if (writer != null) {
                    writer.close();
                }
            }
            finally {
                if (catalog != null) {
                    catalog.close();
                }
            }
        }
    }
}
