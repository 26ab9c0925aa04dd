package io.moraine.duckdb.ext;

import io.moraine.core.store.SlateStore;
import io.moraine.core.store.StoreUri;

import java.util.Optional;

/**
 * The data path a new lake gets when {@code ATTACH 'ducklake:moraine:<store>'} gives no DATA_PATH, as DuckLake gives a
 * DuckDB-file catalog {@code <file>.files/}: {@code <store path>.files/} beside the store ({@code /data/lake} takes
 * {@code /data/lake.files/}, {@code s3://bucket/lake} takes {@code s3://bucket/lake.files/}). A lake that exists keeps
 * the data path it recorded; an in-memory store and a store at a bucket's root have no default.
 */
final class DefaultDataPath
{
    private DefaultDataPath() {}

    /** The path beside {@code store}, if one can be named. */
    static Optional<String> beside(StoreUri store)
    {
        return switch (store.scheme()) {
            case FILE -> Optional.of("/" + store.dbPath() + ".files/");
            case S3 -> store.dbPath().isEmpty() ? Optional.empty() : Optional.of(store.objectStoreUrl() + "/" + store.dbPath() + ".files/");
            case MEMORY -> Optional.empty();
        };
    }

    /**
     * The default data path of the lake an attach request names (in {@code metadataSchema}, empty for the store's own
     * lake), or empty when that lake exists already or no default applies.
     */
    static Optional<String> forNewLake(AttachRequest request, String metadataSchema)
    {
        Optional<String> path = beside(request.store());
        if (path.isEmpty()) {
            return path;
        }
        AttachRequest lake = metadataSchema.isEmpty() || metadataSchema.equalsIgnoreCase(AttachedStore.METADATA_SCHEMA) ? request : request.forMetadataSchema(metadataSchema);
        return SlateStore.holdsData(lake.store(), lake.options()) ? Optional.empty() : path;
    }
}
