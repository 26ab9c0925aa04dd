package io.moraine.duckdb.ext;

import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.S3Settings;
import io.moraine.core.store.StoreOptions;
import io.moraine.core.store.StoreUri;
import io.moraine.core.store.WriterMode;
import io.moraine.core.tx.CommitPolicy;

import java.util.Optional;

/**
 * What an ATTACH asks for: the store, how DuckDB's access mode maps onto an open (RFC 0006, "Attach modes"), an
 * optional checkpoint to pin to, an optional separate WAL store, the store timeout and the S3 settings of matching
 * DuckDB secrets.
 */
record AttachRequest(StoreUri store, OpenMode mode, StoreOptions options, CommitPolicy commitPolicy, io.moraine.core.catalog.AllowedLocations allowedLocations)
{
    /** How errors name the setting that widens the allowed locations. */
    static final String ALLOWED_LOCATIONS_SETTING = "the ATTACH option ALLOWED_LOCATIONS (META_ALLOWED_LOCATIONS on the ducklake: attach)";

    /** What a commit that lost the race does unless COMMIT_POLICY says otherwise (docs/duckdb.md, "Commit policy"). */
    static final CommitPolicy DEFAULT_COMMIT_POLICY = CommitPolicy.REBASE;

    /**
     * What a read-write attach does when another process takes the store's writer, unless WRITER_MODE says otherwise
     * (docs/writes.md, "The writer hand-off"; chosen from bin/moraine bench writes --handoff, docs/benchmarks.md).
     */
    static final WriterMode DEFAULT_WRITER_MODE = WriterMode.HANDOFF;

    /** How errors name the writer-mode setting. */
    static final String WRITER_MODE_SETTING = "the ATTACH option WRITER_MODE (META_WRITER_MODE on the ducklake: attach)";

    /** How errors name the freshness settings of a READ_ONLY attach (docs/freshness.md). */
    static final String READER_FRESHNESS_SETTING = "the ATTACH option READER_FRESHNESS (META_READER_FRESHNESS on the ducklake: attach)";
    static final String MAX_STALENESS_SETTING = "the ATTACH option MAX_STALENESS (META_MAX_STALENESS on the ducklake: attach)";

    /** {@code accessMode} is DuckDB's: READ_WRITE, READ_ONLY or AUTOMATIC (no mode given). */
    static AttachRequest parse(String uri, String accessMode, AttachOptions attachOptions)
    {
        String checkpointId = attachOptions.get("checkpoint").orElse(null);
        if (uri == null || uri.isBlank()) {
            throw new InvalidArgumentException("ATTACH of a moraine store needs the store's URI: ATTACH '<uri>' AS m (TYPE moraine), "
                    + "with a local path, file://, memory:// or s3://bucket/prefix");
        }
        StoreUri store = StoreUri.parse(uri);
        StoreOptions options = StoreOptions.DEFAULTS.withReadListener(NativeBridge.readListener());
        Optional<String> walPath = attachOptions.get("wal_path");
        if (walPath.isPresent()) {
            options = options.withWalStore(StoreUri.parse(walPath.get()));
        }
        options = attachOptions.applyTo(options, store);
        options = options.withWriterMode(attachOptions.get("writer_mode").map(value -> WriterMode.parse(value, WRITER_MODE_SETTING)).orElse(DEFAULT_WRITER_MODE));
        options = options.withFreshness(io.moraine.core.store.ReaderFreshness.parse(attachOptions.get("reader_freshness").orElse("on-demand"),
                attachOptions.get("max_staleness").orElse("0"), READER_FRESHNESS_SETTING, MAX_STALENESS_SETTING));
        OpenMode mode;
        if (checkpointId != null && !checkpointId.isEmpty()) {
            if (accessMode.equals("READ_WRITE")) {
                throw new InvalidArgumentException("ATTACH '" + uri + "' gives CHECKPOINT '" + checkpointId + "' with READ_WRITE: a writer "
                        + "commits at the store's head, a checkpoint is a fixed past cut. Attach READ_ONLY (or without a mode) to read "
                        + "the checkpoint, or drop CHECKPOINT to write");
            }
            mode = OpenMode.CHECKPOINT;
            options = options.withCheckpoint(checkpointId);
        }
        else {
            mode = accessMode.equals("READ_ONLY") ? OpenMode.READ_ONLY : OpenMode.READ_WRITE;
        }
        return new AttachRequest(store, mode, options, attachOptions.get("commit_policy").map(CommitPolicy::parse).orElse(DEFAULT_COMMIT_POLICY),
                io.moraine.core.catalog.AllowedLocations.parse(attachOptions.get("allowed_locations"), ALLOWED_LOCATIONS_SETTING));
    }

    /**
     * The attach of the lake whose DuckLake metadata lives in schema {@code schema} (DuckLake's METADATA_SCHEMA) of
     * this store: a store of its own under {@link MetadataSchemaPath#of}, opened as this one is (mode, WAL store
     * under the same path, S3 settings, timeout, commit policy).
     */
    AttachRequest forMetadataSchema(String schema)
    {
        if (mode == OpenMode.CHECKPOINT) {
            throw new InvalidArgumentException("schema " + schema + " of " + store + ": a CHECKPOINT attach pins the store's lake in schema main; "
                    + "the lakes of other metadata schemas are stores of their own, without that checkpoint. Attach READ_ONLY to read them");
        }
        String path = MetadataSchemaPath.of(schema);
        StoreUri schemaStore = store.resolve(path);
        StoreOptions schemaOptions = options;
        // The schema's lake keeps the attach's WAL store as given: SlateDB writes its log under the lake's own path
        // (<store path>/schemas/<name>/wal/) in that store, so the lakes never share log objects, and the store records
        // exactly that location (a prefixed S3 WAL store could not be honored by the binding anyway).
        S3Settings settings = options.s3Settings().get(store);
        if (settings != null) {
            schemaOptions = schemaOptions.withS3Settings(schemaStore, settings);
        }
        return new AttachRequest(schemaStore, mode, schemaOptions, commitPolicy, allowedLocations);
    }

    Optional<String> checkpointId()
    {
        return options.checkpointId();
    }
}
