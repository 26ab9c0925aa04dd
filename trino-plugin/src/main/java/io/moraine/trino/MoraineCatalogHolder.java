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
 * What the connector holds for its lifetime: the catalog, opened read-only (or pinned to a checkpoint) once, so Trino
 * never fences a writer; the data-path override; and the one Arrow allocator inlined rows are decoded with.
 */
public class MoraineCatalogHolder
{
    private final MoraineCatalog catalog;
    private final Optional<String> dataPathOverride;
    private final io.moraine.core.catalog.AllowedLocations allowedLocations;
    private final BufferAllocator allocator = new RootAllocator();

    @Inject
    public MoraineCatalogHolder(MoraineConfig config, Tracer tracer)
    {
        StoreOptions options = StoreOptions.DEFAULTS.withReadListener(new TracingStoreReads(tracer))
                .withTimeout(java.time.Duration.ofMillis(config.getStoreTimeout().toMillis()))
                .withManifestPollInterval(java.time.Duration.ofMillis(config.getStorePollInterval().toMillis()));
        this.dataPathOverride = config.getDataPath();
        try {
            this.allowedLocations = io.moraine.core.catalog.AllowedLocations.parse(config.getAllowedLocations(), "moraine.allowed-locations");
        }
        catch (MoraineException e) {
            allocator.close();
            throw MoraineErrorCode.toTrino(e);
        }
        StoreUri uri = StoreUri.parse(config.getStoreUri());
        try {
            this.catalog = config.getCheckpointId()
                    .map(id -> MoraineCatalog.open(uri, OpenMode.CHECKPOINT, options.withCheckpoint(id)))
                    .orElseGet(() -> MoraineCatalog.open(uri, OpenMode.READ_ONLY, options));
        }
        catch (MoraineException e) {
            allocator.close();
            throw MoraineErrorCode.toTrino(e);
        }
    }

    public MoraineCatalog catalog()
    {
        return catalog;
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
            catalog.close();
        }
    }
}
