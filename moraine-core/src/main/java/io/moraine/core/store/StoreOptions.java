package io.moraine.core.store;

import java.time.Duration;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Options of a store open.
 *
 * @param walStore where the write-ahead log lives, when not in the catalog store itself
 * @param checkpointId for {@link OpenMode#CHECKPOINT}: the checkpoint to pin to
 * @param manifestPollInterval for readers: how often to look for the writer's new commits
 */
public record StoreOptions(Optional<StoreUri> walStore, Optional<String> checkpointId, Duration manifestPollInterval)
{
    public static final StoreOptions DEFAULTS = new StoreOptions(Optional.empty(), Optional.empty(), Duration.ofMillis(100));

    public StoreOptions
    {
        requireNonNull(walStore, "walStore is null");
        requireNonNull(checkpointId, "checkpointId is null");
        requireNonNull(manifestPollInterval, "manifestPollInterval is null");
    }

    public StoreOptions withWalStore(StoreUri store)
    {
        return new StoreOptions(Optional.of(store), checkpointId, manifestPollInterval);
    }

    public StoreOptions withCheckpoint(String id)
    {
        return new StoreOptions(walStore, Optional.of(id), manifestPollInterval);
    }

    public StoreOptions withManifestPollInterval(Duration interval)
    {
        return new StoreOptions(walStore, checkpointId, interval);
    }
}
