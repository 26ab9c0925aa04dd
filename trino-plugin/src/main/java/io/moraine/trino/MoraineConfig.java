package io.moraine.trino;

import io.airlift.configuration.Config;
import io.airlift.configuration.ConfigDescription;
import io.airlift.units.DataSize;
import io.airlift.units.Duration;
import io.airlift.units.MinDataSize;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import java.util.Optional;

/** Catalog properties of a moraine catalog. */
public class MoraineConfig
{
    private String storeUri;
    private String checkpointId;
    private String dataPath;
    private String allowedLocations;
    private Long defaultSnapshotId;
    private java.time.Instant defaultSnapshotTimestamp;
    private DataSize maxSplitSize = DataSize.of(64, DataSize.Unit.MEGABYTE);
    private int inlinedSplitMaxRows = io.moraine.core.inline.read.InlinedRowsPieces.Bounds.DEFAULT.maxRows();
    private DataSize inlinedSplitMaxSize = DataSize.ofBytes(io.moraine.core.inline.read.InlinedRowsPieces.Bounds.DEFAULT.maxBytes());
    private long metadataCacheMaxTables = 1000;
    private boolean tableStatisticsEnabled = true;
    private Duration dynamicFilteringWaitTimeout = new Duration(1, java.util.concurrent.TimeUnit.SECONDS);
    private Duration storeTimeout = Duration.succinctDuration(io.moraine.core.store.StoreOptions.DEFAULT_TIMEOUT.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
    private String readerFreshness = "on-demand";
    private Duration maxStaleness = Duration.succinctDuration(0, java.util.concurrent.TimeUnit.SECONDS);
    private Duration storePollInterval = Duration.succinctDuration(io.moraine.core.store.StoreOptions.DEFAULTS.manifestPollInterval().toMillis(),
            java.util.concurrent.TimeUnit.MILLISECONDS);

    @NotNull
    public String getStoreUri()
    {
        return storeUri;
    }

    @Config("moraine.store-uri")
    @ConfigDescription("Where the moraine catalog lives: a local path, file:///..., or s3://bucket[/prefix] (S3 settings from the environment)")
    public MoraineConfig setStoreUri(String storeUri)
    {
        this.storeUri = storeUri;
        return this;
    }

    public Optional<String> getDataPath()
    {
        return Optional.ofNullable(dataPath);
    }

    @Config("moraine.data-path")
    @ConfigDescription("Read data files under this directory instead of the catalog's data_path (e.g. the lake was moved or is mounted elsewhere); relative schema, table and file paths resolve against it")
    public MoraineConfig setDataPath(String dataPath)
    {
        this.dataPath = dataPath;
        return this;
    }

    public Optional<String> getAllowedLocations()
    {
        return Optional.ofNullable(allowedLocations);
    }

    @Config("moraine.allowed-locations")
    @ConfigDescription("Comma-separated locations (absolute paths or URIs) where data and delete files may live besides the data path; unset allows the data path and the files the catalog registered with absolute paths")
    public MoraineConfig setAllowedLocations(String allowedLocations)
    {
        this.allowedLocations = allowedLocations;
        return this;
    }

    public Optional<String> getCheckpointId()
    {
        return Optional.ofNullable(checkpointId);
    }

    @Config("moraine.checkpoint-id")
    @ConfigDescription("Pin every read to this checkpoint of the store (a reader that writes nothing); unset follows the writer")
    public MoraineConfig setCheckpointId(String checkpointId)
    {
        this.checkpointId = checkpointId;
        return this;
    }

    public Optional<Long> getDefaultSnapshotId()
    {
        return Optional.ofNullable(defaultSnapshotId);
    }

    public Optional<java.time.Instant> getDefaultSnapshotTimestamp()
    {
        return Optional.ofNullable(defaultSnapshotTimestamp);
    }

    @Config("moraine.default-snapshot-timestamp")
    @ConfigDescription("Read the snapshot current at this instant (ISO-8601, e.g. 2026-11-29T12:00:00Z) when a query names none")
    public MoraineConfig setDefaultSnapshotTimestamp(String timestamp)
    {
        this.defaultSnapshotTimestamp = timestamp == null ? null : java.time.Instant.parse(timestamp);
        return this;
    }

    @Config("moraine.default-snapshot-id")
    @ConfigDescription("Read this snapshot when a query names none (FOR VERSION AS OF overrides it); unset reads the newest")
    public MoraineConfig setDefaultSnapshotId(Long defaultSnapshotId)
    {
        this.defaultSnapshotId = defaultSnapshotId;
        return this;
    }

    @NotNull
    @MinDataSize("1MB")
    public DataSize getMaxSplitSize()
    {
        return maxSplitSize;
    }

    @Config("moraine.max-split-size")
    @ConfigDescription("Data files larger than this are read by several splits, each taking the row groups that start in its byte range")
    public MoraineConfig setMaxSplitSize(DataSize maxSplitSize)
    {
        this.maxSplitSize = maxSplitSize;
        return this;
    }

    @Min(1)
    public int getInlinedSplitMaxRows()
    {
        return inlinedSplitMaxRows;
    }

    @Config("moraine.inlined-split-max-rows")
    @ConfigDescription("A table's inlined rows are read on the coordinator and shipped to workers in splits of at most this many rows")
    public MoraineConfig setInlinedSplitMaxRows(int inlinedSplitMaxRows)
    {
        this.inlinedSplitMaxRows = inlinedSplitMaxRows;
        return this;
    }

    @NotNull
    @MinDataSize("1kB")
    public DataSize getInlinedSplitMaxSize()
    {
        return inlinedSplitMaxSize;
    }

    @Config("moraine.inlined-split-max-size")
    @ConfigDescription("A table's inlined rows are shipped to workers in splits of at most this many bytes of Arrow IPC (a single larger row is a split of its own); bounds the pieces of a change feed's inlined rows and a metadata table's splits too")
    public MoraineConfig setInlinedSplitMaxSize(DataSize inlinedSplitMaxSize)
    {
        this.inlinedSplitMaxSize = inlinedSplitMaxSize;
        return this;
    }

    /** The bound on one inlined-rows split. */
    public io.moraine.core.inline.read.InlinedRowsPieces.Bounds inlinedSplitBounds()
    {
        return new io.moraine.core.inline.read.InlinedRowsPieces.Bounds(inlinedSplitMaxRows, inlinedSplitMaxSize.toBytes());
    }

    @Min(0)
    public long getMetadataCacheMaxTables()
    {
        return metadataCacheMaxTables;
    }

    @Config("moraine.metadata-cache.max-tables")
    @ConfigDescription("How many (table, snapshot) column lists to keep across queries; a snapshot's columns never change, so entries are never stale. 0 turns the cache off")
    public MoraineConfig setMetadataCacheMaxTables(long metadataCacheMaxTables)
    {
        this.metadataCacheMaxTables = metadataCacheMaxTables;
        return this;
    }

    @NotNull
    @io.airlift.units.MinDuration("1ms")
    public Duration getStoreTimeout()
    {
        return storeTimeout;
    }

    @Config("moraine.store-timeout")
    @ConfigDescription("How long one open or read of the store may take before the query fails with MORAINE_STORE_UNAVAILABLE (an unreachable or refusing object store is retried by SlateDB without end)")
    public MoraineConfig setStoreTimeout(Duration storeTimeout)
    {
        this.storeTimeout = storeTimeout;
        return this;
    }

    @NotNull
    @io.airlift.units.MinDuration("10ms")
    public Duration getStorePollInterval()
    {
        return storePollInterval;
    }

    @Config("moraine.store-poll-interval")
    @ConfigDescription("With moraine.reader-freshness=poll: how often the catalog looks for commits that landed since the last look; a commit is seen at most this late. Each look costs about ten object-store requests (manifest, GC state, the next WAL objects), idle or not")
    public MoraineConfig setStorePollInterval(Duration storePollInterval)
    {
        this.storePollInterval = storePollInterval;
        return this;
    }

    @NotNull
    public String getReaderFreshness()
    {
        return readerFreshness;
    }

    @Config("moraine.reader-freshness")
    @ConfigDescription("on-demand (default): each query checks the store as it begins (about 9 object-store requests; none while idle) and sees every commit acknowledged before it; poll: SlateDB polls every moraine.store-poll-interval, idle or not")
    public MoraineConfig setReaderFreshness(String readerFreshness)
    {
        this.readerFreshness = readerFreshness;
        return this;
    }

    @NotNull
    public Duration getMaxStaleness()
    {
        return maxStaleness;
    }

    @Config("moraine.max-staleness")
    @ConfigDescription("With moraine.reader-freshness=on-demand: a query skips the check when the last one began less than this long ago, so it may miss commits of that last stretch; 0s (default) checks for every query")
    public MoraineConfig setMaxStaleness(Duration maxStaleness)
    {
        this.maxStaleness = maxStaleness;
        return this;
    }

    /** The reader freshness the two properties name; a bad combination is refused with a message naming them. */
    public io.moraine.core.store.ReaderFreshness freshness()
    {
        return io.moraine.core.store.ReaderFreshness.parse(readerFreshness, maxStaleness.toMillis() + "ms", "moraine.reader-freshness", "moraine.max-staleness");
    }

    @NotNull
    public Duration getDynamicFilteringWaitTimeout()
    {
        return dynamicFilteringWaitTimeout;
    }

    @Config("moraine.dynamic-filtering.wait-timeout")
    @ConfigDescription("How long split planning may wait for a join's dynamic filters, which then prune whole data files by their statistics; 0s plans at once")
    public MoraineConfig setDynamicFilteringWaitTimeout(Duration dynamicFilteringWaitTimeout)
    {
        this.dynamicFilteringWaitTimeout = dynamicFilteringWaitTimeout;
        return this;
    }

    public boolean isTableStatisticsEnabled()
    {
        return tableStatisticsEnabled;
    }

    @Config("moraine.table-statistics-enabled")
    @ConfigDescription("Report table statistics (row counts, column bounds, NULL fractions, sizes) from the catalog to the cost-based optimizer")
    public MoraineConfig setTableStatisticsEnabled(boolean tableStatisticsEnabled)
    {
        this.tableStatisticsEnabled = tableStatisticsEnabled;
        return this;
    }

    private DataSize rowSummaryCacheSize = DataSize.of(64, DataSize.Unit.MEGABYTE);

    public DataSize getRowSummaryCacheSize()
    {
        return rowSummaryCacheSize;
    }

    @Config("moraine.row-summaries.cache-size")
    @ConfigDescription("Memory for the row-id sets of published row summaries (.rowsum sidecars) that $row_id predicates prune files with; 0B turns the sidecar reads off")
    public MoraineConfig setRowSummaryCacheSize(DataSize rowSummaryCacheSize)
    {
        this.rowSummaryCacheSize = rowSummaryCacheSize;
        return this;
    }

    private boolean tinyFilesEnabled = true;

    public boolean isTinyFilesEnabled()
    {
        return tinyFilesEnabled;
    }

    @Config("moraine.tiny-files.enabled")
    @ConfigDescription("Read tiny data and delete files from the catalog's copies of them when the catalog keeps copies (no object-store request); "
            + "false opens the files themselves")
    public MoraineConfig setTinyFilesEnabled(boolean tinyFilesEnabled)
    {
        this.tinyFilesEnabled = tinyFilesEnabled;
        return this;
    }

    private boolean readOnly;

    public boolean isReadOnly()
    {
        return readOnly;
    }

    @Config("moraine.read-only")
    @ConfigDescription("Refuse every write (DDL, INSERT, CREATE TABLE AS): the connector then never opens the store's writer")
    public MoraineConfig setReadOnly(boolean readOnly)
    {
        this.readOnly = readOnly;
        return this;
    }
}
