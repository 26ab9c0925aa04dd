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
 * A driver that writes opens the store read-write once ({@link #writer}) and reads through that handle from then on.
 * They stay open until the JVM exits.
 */
final class OpenStores
{
    private record Key(String store, Optional<String> checkpointId, Optional<Duration> storeTimeout, Optional<Duration> storePollInterval,
            io.moraine.core.store.ReaderFreshness freshness) {}

    private static final Map<Key, MoraineCatalog> OPEN = new ConcurrentHashMap<>();
    private static final Map<String, MoraineCatalog> WRITERS = new ConcurrentHashMap<>();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(OpenStores::closeAll, "moraine-close-stores"));
    }

    private OpenStores() {}

    static MoraineCatalog catalog(MoraineSettings settings)
    {
        if (settings.checkpointId().isEmpty()) {
            // once this driver writes the store, it reads through its writer: it sees its own commits at once
            MoraineCatalog writer = WRITERS.get(settings.store());
            if (writer != null) {
                return writer;
            }
        }
        return OPEN.computeIfAbsent(new Key(settings.store(), settings.checkpointId(), settings.storeTimeout(), settings.storePollInterval(), settings.freshness()), key -> {
            StoreUri uri = StoreUri.parse(key.store());
            StoreOptions timed = key.storeTimeout().map(StoreOptions.DEFAULTS::withTimeout).orElse(StoreOptions.DEFAULTS);
            StoreOptions options = key.storePollInterval().map(timed::withManifestPollInterval).orElse(timed).withFreshness(key.freshness());
            return key.checkpointId()
                    .map(id -> MoraineCatalog.open(uri, OpenMode.CHECKPOINT, options.withCheckpoint(id)))
                    .orElseGet(() -> MoraineCatalog.open(uri, OpenMode.READ_ONLY, options));
        });
    }

    /**
     * The store opened read-write by this driver, for DDL and the commits of writes (never on executors). The writer
     * moves between processes (the core's hand-off mode): opening it fences another writer only until that one commits.
     */
    static MoraineCatalog writer(MoraineSettings settings)
    {
        if (settings.readOnly()) {
            throw SparkErrors.readOnly("writing to store " + settings.store());
        }
        return WRITERS.computeIfAbsent(settings.store(), store -> {
            StoreOptions timed = settings.storeTimeout().map(StoreOptions.DEFAULTS::withTimeout).orElse(StoreOptions.DEFAULTS);
            StoreOptions options = settings.storePollInterval().map(timed::withManifestPollInterval).orElse(timed);
            return MoraineCatalog.open(StoreUri.parse(store), OpenMode.READ_WRITE, options);
        });
    }

    private static void closeAll()
    {
        for (MoraineCatalog catalog : WRITERS.values()) {
            try {
                catalog.close();
            }
            catch (RuntimeException ignored) {
                // the JVM is exiting
            }
        }
        WRITERS.clear();
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
