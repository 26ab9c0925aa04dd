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
 * @param readListener told of every point read and range scan (tracing, counting)
 */
public record StoreOptions(Optional<StoreUri> walStore, Optional<String> checkpointId, Duration manifestPollInterval, StoreReadListener readListener)
{
    public static final StoreOptions DEFAULTS = new StoreOptions(Optional.empty(), Optional.empty(), Duration.ofMillis(100), StoreReadListener.NONE);

    public StoreOptions
    {
        requireNonNull(walStore, "walStore is null");
        requireNonNull(checkpointId, "checkpointId is null");
        requireNonNull(manifestPollInterval, "manifestPollInterval is null");
        requireNonNull(readListener, "readListener is null");
    }

    public StoreOptions withWalStore(StoreUri store)
    {
        return new StoreOptions(Optional.of(store), checkpointId, manifestPollInterval, readListener);
    }

    public StoreOptions withCheckpoint(String id)
    {
        return new StoreOptions(walStore, Optional.of(id), manifestPollInterval, readListener);
    }

    public StoreOptions withManifestPollInterval(Duration interval)
    {
        return new StoreOptions(walStore, checkpointId, interval, readListener);
    }

    public StoreOptions withReadListener(StoreReadListener listener)
    {
        return new StoreOptions(walStore, checkpointId, manifestPollInterval, listener);
    }
}
