package io.moraine.trino;

import com.google.inject.Inject;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreOptions;
import io.moraine.core.store.StoreUri;
import jakarta.annotation.PreDestroy;

/** The catalog this connector reads: opened read-only (or pinned to a checkpoint) once, so Trino never fences a writer. */
public class MoraineCatalogHolder
{
    private final MoraineCatalog catalog;

    @Inject
    public MoraineCatalogHolder(MoraineConfig config)
    {
        StoreUri uri = StoreUri.parse(config.getStoreUri());
        this.catalog = config.getCheckpointId()
                .map(id -> MoraineCatalog.open(uri, OpenMode.CHECKPOINT, StoreOptions.DEFAULTS.withCheckpoint(id)))
                .orElseGet(() -> MoraineCatalog.open(uri, OpenMode.READ_ONLY));
    }

    public MoraineCatalog catalog()
    {
        return catalog;
    }

    @PreDestroy
    public void close()
    {
        catalog.close();
    }
}
