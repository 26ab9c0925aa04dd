package io.moraine.spark;

import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreOptions;
import io.moraine.core.store.StoreUri;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The moraine catalogs this JVM (a Spark driver) has open, one per store and checkpoint, shared by every Spark catalog
 * and {@code format("moraine")} read on them: opening SlateDB is not free, and a read-only reader follows the writer on
 * its own. Opened read-only (or pinned to a checkpoint), so Spark never fences the process that writes the lake; each
 * open and read waits at most the settings' store timeout.
 * They stay open until the JVM exits.
 */
final class OpenStores
{
    private record Key(String store, Optional<String> checkpointId, Optional<Duration> storeTimeout, Optional<Duration> storePollInterval) {}

    private static final Map<Key, MoraineCatalog> OPEN = new ConcurrentHashMap<>();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(OpenStores::closeAll, "moraine-close-stores"));
    }

    private OpenStores() {}

    static MoraineCatalog catalog(MoraineSettings settings)
    {
        return OPEN.computeIfAbsent(new Key(settings.store(), settings.checkpointId(), settings.storeTimeout(), settings.storePollInterval()), key -> {
            StoreUri uri = StoreUri.parse(key.store());
            StoreOptions timed = key.storeTimeout().map(StoreOptions.DEFAULTS::withTimeout).orElse(StoreOptions.DEFAULTS);
            StoreOptions options = key.storePollInterval().map(timed::withManifestPollInterval).orElse(timed);
            return key.checkpointId()
                    .map(id -> MoraineCatalog.open(uri, OpenMode.CHECKPOINT, options.withCheckpoint(id)))
                    .orElseGet(() -> MoraineCatalog.open(uri, OpenMode.READ_ONLY, options));
        });
    }

    private static void closeAll()
    {
        for (MoraineCatalog catalog : OPEN.values()) {
            try {
                catalog.close();
            }
            catch (RuntimeException ignored) {
                // the JVM is exiting
            }
        }
        OPEN.clear();
    }
}
