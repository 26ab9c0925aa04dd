package io.moraine.spark;

import io.moraine.core.store.StoreTimeouts;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

import java.io.Serializable;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The settings of a moraine catalog in Spark ({@code spark.sql.catalog.<name>.<setting>}, or reader options of
 * {@code format("moraine")}): the same as the Trino catalog's.
 *
 * @param store where the catalog lives (a local path, {@code file:///...}, {@code s3://bucket[/prefix]})
 * @param dataPath read data and delete files under this directory instead of the catalog's {@code data_path}
 * @param checkpointId pin every read to this checkpoint of the store
 * @param defaultSnapshotId the snapshot read when a query names none
 * @param defaultSnapshotTimestamp read the snapshot current at this instant when a query names none
 * @param storeTimeout how long one open or read of the store may take (the store's default, 30 s, when absent)
 * @param storePollInterval with {@code reader-freshness=poll}: how often the store is looked at for new commits (the store's
 *        default, 100 ms, when absent)
 * @param freshness {@code reader-freshness} ({@code on-demand}, the default, or {@code poll}) and {@code max-staleness} (0 when
 *        absent): how a read-only catalog keeps up with the store's writer (docs/freshness.md)
 * @param tinyFiles read tiny files from the catalog's copies of them when it keeps copies (default); false opens the files
 * @param readOnly refuse every write (DDL, appends) without opening the store's writer; default false
 * @param allowedLocations comma-separated locations where data and delete files may live besides the data path
 *        ({@link io.moraine.core.catalog.AllowedLocations}); absent allows the data path and the files the catalog registered
 */
public record MoraineSettings(String store, Optional<String> dataPath, Optional<String> checkpointId, Optional<Long> defaultSnapshotId,
        Optional<Instant> defaultSnapshotTimestamp, Optional<Duration> storeTimeout, Optional<Duration> storePollInterval, boolean tinyFiles,
        Optional<String> allowedLocations, boolean readOnly, io.moraine.core.store.ReaderFreshness freshness)
        implements Serializable
{
    public static final String STORE = "store";
    public static final String DATA_PATH = "data-path";
    public static final String CHECKPOINT_ID = "checkpoint-id";
    public static final String DEFAULT_SNAPSHOT_ID = "default-snapshot-id";
    public static final String DEFAULT_SNAPSHOT_TIMESTAMP = "default-snapshot-timestamp";
    public static final String STORE_TIMEOUT = "store-timeout";
    public static final String STORE_POLL_INTERVAL = "store-poll-interval";
    public static final String TINY_FILES_ENABLED = "tiny-files.enabled";
    public static final String ALLOWED_LOCATIONS = "allowed-locations";
    public static final String READ_ONLY = "read-only";
    public static final String READER_FRESHNESS = "reader-freshness";
    public static final String MAX_STALENESS = "max-staleness";

    /** Every setting name, for copying settings into a session catalog's configuration. */
    public static final java.util.List<String> NAMES = java.util.List.of(STORE, DATA_PATH, CHECKPOINT_ID, DEFAULT_SNAPSHOT_ID, DEFAULT_SNAPSHOT_TIMESTAMP,
            STORE_TIMEOUT, STORE_POLL_INTERVAL, TINY_FILES_ENABLED, ALLOWED_LOCATIONS, READ_ONLY, READER_FRESHNESS, MAX_STALENESS);

    public static MoraineSettings from(CaseInsensitiveStringMap options, String where)
    {
        String store = options.get(STORE);
        if (store == null || store.isBlank()) {
            throw SparkErrors.invalidSetting(where + " has no '" + STORE + "' setting: set it to the moraine store, e.g. "
                    + "spark.sql.catalog.lake.store=s3://bucket/catalog or .option(\"store\", \"/path/to/store\")");
        }
        Optional<Long> snapshotId = Optional.ofNullable(options.get(DEFAULT_SNAPSHOT_ID)).map(text -> {
            try {
                return Long.parseLong(text.strip());
            }
            catch (NumberFormatException e) {
                throw SparkErrors.invalidSetting(where + " setting '" + DEFAULT_SNAPSHOT_ID + "' is '" + text + "', not a snapshot id (a number)");
            }
        });
        Optional<Instant> snapshotTimestamp = Optional.ofNullable(options.get(DEFAULT_SNAPSHOT_TIMESTAMP)).map(text -> {
            try {
                return Instant.parse(text.strip());
            }
            catch (DateTimeParseException e) {
                throw SparkErrors.invalidSetting(where + " setting '" + DEFAULT_SNAPSHOT_TIMESTAMP + "' is '" + text
                        + "', not an ISO-8601 instant such as 2026-11-29T12:00:00Z");
            }
        });
        if (snapshotId.isPresent() && snapshotTimestamp.isPresent()) {
            throw SparkErrors.invalidSetting(where + " sets both '" + DEFAULT_SNAPSHOT_ID + "' and '" + DEFAULT_SNAPSHOT_TIMESTAMP + "'; set one");
        }
        boolean tinyFiles = flag(options, TINY_FILES_ENABLED, where).orElse(true);
        boolean readOnly = flag(options, READ_ONLY, where).orElse(false);
        Optional<String> allowedLocations = nonBlank(options.get(ALLOWED_LOCATIONS));
        try {
            io.moraine.core.catalog.AllowedLocations.parse(allowedLocations, where + " setting '" + ALLOWED_LOCATIONS + "'");
        }
        catch (io.moraine.core.error.InvalidArgumentException e) {
            throw SparkErrors.invalidSetting(e.getMessage());
        }
        io.moraine.core.store.ReaderFreshness freshness;
        try {
            freshness = io.moraine.core.store.ReaderFreshness.parse(nonBlank(options.get(READER_FRESHNESS)).orElse("on-demand"),
                    nonBlank(options.get(MAX_STALENESS)).orElse("0"), where + " setting '" + READER_FRESHNESS + "'", where + " setting '" + MAX_STALENESS + "'");
        }
        catch (io.moraine.core.error.InvalidArgumentException e) {
            throw SparkErrors.invalidSetting(e.getMessage());
        }
        return new MoraineSettings(store.strip(), nonBlank(options.get(DATA_PATH)), nonBlank(options.get(CHECKPOINT_ID)), snapshotId, snapshotTimestamp,
                duration(options, STORE_TIMEOUT, where), duration(options, STORE_POLL_INTERVAL, where), tinyFiles, allowedLocations, readOnly, freshness);
    }

    /** The settings as options again (for a catalog registered on behalf of {@code format("moraine")}). */
    public Map<String, String> asOptions()
    {
        Map<String, String> options = new TreeMap<>();
        options.put(STORE, store);
        dataPath.ifPresent(value -> options.put(DATA_PATH, value));
        checkpointId.ifPresent(value -> options.put(CHECKPOINT_ID, value));
        defaultSnapshotId.ifPresent(value -> options.put(DEFAULT_SNAPSHOT_ID, value.toString()));
        defaultSnapshotTimestamp.ifPresent(value -> options.put(DEFAULT_SNAPSHOT_TIMESTAMP, value.toString()));
        storeTimeout.ifPresent(value -> options.put(STORE_TIMEOUT, value.toMillis() + "ms"));
        storePollInterval.ifPresent(value -> options.put(STORE_POLL_INTERVAL, value.toMillis() + "ms"));
        if (!tinyFiles) {
            options.put(TINY_FILES_ENABLED, "false");
        }
        allowedLocations.ifPresent(value -> options.put(ALLOWED_LOCATIONS, value));
        if (readOnly) {
            options.put(READ_ONLY, "true");
        }
        if (!freshness.equals(io.moraine.core.store.ReaderFreshness.DEFAULT)) {
            options.put(READER_FRESHNESS, freshness.onDemand() ? "on-demand" : "poll");
            options.put(MAX_STALENESS, freshness.maxStaleness().toMillis() + "ms");
        }
        return options;
    }

    /** Where the catalog's files may live, as {@code allowed-locations} says (checked as tasks are planned). */
    public io.moraine.core.catalog.AllowedLocations allowed()
    {
        return io.moraine.core.catalog.AllowedLocations.parse(allowedLocations, "the Spark option '" + ALLOWED_LOCATIONS + "'");
    }

    private static Optional<Boolean> flag(CaseInsensitiveStringMap options, String setting, String where)
    {
        return nonBlank(options.get(setting)).map(text -> switch (text.toLowerCase(java.util.Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw SparkErrors.invalidSetting(where + " setting '" + setting + "' is '" + text + "'; set it to true or false");
        });
    }

    private static Optional<Duration> duration(CaseInsensitiveStringMap options, String setting, String where)
    {
        return nonBlank(options.get(setting)).map(text -> {
            try {
                return StoreTimeouts.parse(where + " setting '" + setting + "'", text);
            }
            catch (IllegalArgumentException e) {
                throw SparkErrors.invalidSetting(e.getMessage());
            }
        });
    }

    private static Optional<String> nonBlank(String value)
    {
        return Optional.ofNullable(value).map(String::strip).filter(text -> !text.isEmpty());
    }
}
