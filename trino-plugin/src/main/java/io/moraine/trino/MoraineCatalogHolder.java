package io.moraine.trino;

import com.google.inject.Inject;
import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.catalog.StoreFacts;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreOptions;
import io.moraine.core.store.StoreUri;
import io.opentelemetry.api.trace.Tracer;
import jakarta.annotation.PreDestroy;

import java.util.Optional;

/** The catalog this connector reads: opened read-only (or pinned to a checkpoint) once, so Trino never fences a writer. */
public class MoraineCatalogHolder
{
    private final MoraineCatalog catalog;
    private final Optional<String> dataPathOverride;

    @Inject
    public MoraineCatalogHolder(MoraineConfig config, Tracer tracer)
    {
        StoreOptions options = StoreOptions.DEFAULTS.withReadListener(new TracingStoreReads(tracer));
        this.dataPathOverride = config.getDataPath().map(path -> path.endsWith("/") ? path : path + "/");
        StoreUri uri = StoreUri.parse(config.getStoreUri());
        this.catalog = config.getCheckpointId()
                .map(id -> MoraineCatalog.open(uri, OpenMode.CHECKPOINT, options.withCheckpoint(id)))
                .orElseGet(() -> MoraineCatalog.open(uri, OpenMode.READ_ONLY, options));
    }

    public MoraineCatalog catalog()
    {
        return catalog;
    }

    /** Where relative data paths resolve at this snapshot: {@code moraine.data-path} if set, else the catalog's data_path. */
    public String dataPath(CatalogSnapshot snapshot)
    {
        return dataPathOverride.orElseGet(() -> snapshot.facts().get(StoreFacts.DATA_PATH));
    }

    @PreDestroy
    public void close()
    {
        catalog.close();
    }
}
