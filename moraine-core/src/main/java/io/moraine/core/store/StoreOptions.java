package io.moraine.core.store;

import io.moraine.core.error.InvalidArgumentException;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Options of a store open.
 *
 * @param walStore where the write-ahead log lives, when not in the catalog store itself
 * @param checkpointId for {@link OpenMode#CHECKPOINT}: the checkpoint to pin to
 * @param manifestPollInterval for readers: how often to look for the writer's new commits
 * @param readListener told of every point read and range scan (tracing, counting)
 * @param timeout how long one open, read or close of the store may take before it fails with
 *         {@link io.moraine.core.error.StoreUnavailableException} (SlateDB retries a failing object store forever)
 * @param createIfMissing whether a {@link OpenMode#READ_WRITE} open may create the store when none exists at its
 *         location; otherwise every open of a missing store fails with
 *         {@link io.moraine.core.error.StoreNotFoundException} and writes nothing
 * @param s3Settings the S3 client settings of a store (the catalog store or the WAL store) given explicitly; a store
 *         on S3 without an entry takes them from the {@code AWS_*} environment
 * @param writerMode for {@link OpenMode#READ_WRITE}: whether the writer moves between processes ({@link WriterMode#HANDOFF},
 *         the default) or stays with one ({@link WriterMode#EXCLUSIVE})
 * @param freshness for {@link OpenMode#READ_ONLY}: whether the reader checks the store when a read begins (the default,
 *         {@link ReaderFreshness#DEFAULT}: no background requests) or polls it every {@code manifestPollInterval}
 */
public record StoreOptions(Optional<StoreUri> walStore, Optional<String> checkpointId, Duration manifestPollInterval, StoreReadListener readListener,
        Duration timeout, boolean createIfMissing, Map<StoreUri, S3Settings> s3Settings, WriterMode writerMode, ReaderFreshness freshness)
{
    /** The default {@link #timeout()}: long enough for a slow object store, short enough to notice a dead one. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

    public static final StoreOptions DEFAULTS = new StoreOptions(Optional.empty(), Optional.empty(), Duration.ofMillis(100), StoreReadListener.NONE,
            DEFAULT_TIMEOUT, false, Map.of(), WriterMode.HANDOFF, ReaderFreshness.DEFAULT);

    /** Options with the default {@link WriterMode#HANDOFF}. */
    public StoreOptions(Optional<StoreUri> walStore, Optional<String> checkpointId, Duration manifestPollInterval, StoreReadListener readListener,
            Duration timeout, boolean createIfMissing, Map<StoreUri, S3Settings> s3Settings)
    {
        this(walStore, checkpointId, manifestPollInterval, readListener, timeout, createIfMissing, s3Settings, WriterMode.HANDOFF, ReaderFreshness.DEFAULT);
    }

    public StoreOptions
    {
        requireNonNull(walStore, "walStore is null");
        requireNonNull(checkpointId, "checkpointId is null");
        requireNonNull(manifestPollInterval, "manifestPollInterval is null");
        requireNonNull(readListener, "readListener is null");
        requireNonNull(timeout, "timeout is null");
        requireNonNull(writerMode, "writerMode is null");
        requireNonNull(freshness, "freshness is null");
        s3Settings = Map.copyOf(requireNonNull(s3Settings, "s3Settings is null"));
        if (timeout.isNegative() || timeout.isZero()) {
            throw new InvalidArgumentException("the store timeout must be positive, not " + timeout);
        }
        if (manifestPollInterval.toMillis() < 1) {
            throw new InvalidArgumentException("the store poll interval must be at least 1ms, not " + manifestPollInterval);
        }
    }

    public StoreOptions withWalStore(StoreUri store)
    {
        return new StoreOptions(Optional.of(store), checkpointId, manifestPollInterval, readListener, timeout, createIfMissing, s3Settings, writerMode, freshness);
    }

    public StoreOptions withCheckpoint(String id)
    {
        return new StoreOptions(walStore, Optional.of(id), manifestPollInterval, readListener, timeout, createIfMissing, s3Settings, writerMode, freshness);
    }

    public StoreOptions withManifestPollInterval(Duration interval)
    {
        return new StoreOptions(walStore, checkpointId, interval, readListener, timeout, createIfMissing, s3Settings, writerMode, freshness);
    }

    public StoreOptions withReadListener(StoreReadListener listener)
    {
        return new StoreOptions(walStore, checkpointId, manifestPollInterval, listener, timeout, createIfMissing, s3Settings, writerMode, freshness);
    }

    public StoreOptions withTimeout(Duration storeTimeout)
    {
        return new StoreOptions(walStore, checkpointId, manifestPollInterval, readListener, storeTimeout, createIfMissing, s3Settings, writerMode, freshness);
    }

    /** Lets a {@link OpenMode#READ_WRITE} open create the store where none exists (catalog creation and imports only). */
    public StoreOptions withCreateIfMissing()
    {
        return new StoreOptions(walStore, checkpointId, manifestPollInterval, readListener, timeout, true, s3Settings, writerMode, freshness);
    }

    public StoreOptions withWriterMode(WriterMode mode)
    {
        return new StoreOptions(walStore, checkpointId, manifestPollInterval, readListener, timeout, createIfMissing, s3Settings, mode, freshness);
    }

    /** How a {@link OpenMode#READ_ONLY} open keeps up with the writer. */
    public StoreOptions withFreshness(ReaderFreshness readerFreshness)
    {
        return new StoreOptions(walStore, checkpointId, manifestPollInterval, readListener, timeout, createIfMissing, s3Settings, writerMode, readerFreshness);
    }

    /** The same options, but never creating a missing store. */
    public StoreOptions withoutCreateIfMissing()
    {
        return new StoreOptions(walStore, checkpointId, manifestPollInterval, readListener, timeout, false, s3Settings, writerMode, freshness);
    }

    /** Reaches {@code store} (the catalog store or the WAL store) with {@code settings} instead of the environment. */
    public StoreOptions withS3Settings(StoreUri store, S3Settings settings)
    {
        if (store.scheme() != StoreUri.Scheme.S3) {
            throw new InvalidArgumentException("S3 settings were given for store " + store + ", which is not on S3");
        }
        Map<StoreUri, S3Settings> settingsByStore = new HashMap<>(s3Settings);
        settingsByStore.put(store, settings);
        return new StoreOptions(walStore, checkpointId, manifestPollInterval, readListener, timeout, createIfMissing, settingsByStore, writerMode, freshness);
    }

    /** The settings given for {@code store}; empty: the {@code AWS_*} environment. */
    public Optional<S3Settings> s3Settings(StoreUri store)
    {
        return Optional.ofNullable(s3Settings.get(store));
    }
}
