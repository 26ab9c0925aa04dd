package io.moraine.core.store;

import io.moraine.core.error.InvalidArgumentException;
import io.slatedb.uniffi.ObjectStore;
import io.slatedb.uniffi.ObjectStoreBuilder;
import io.slatedb.uniffi.ObjectStoreType;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Resolves store URIs to SlateDB object stores. Named in-memory stores ({@code memory://<name>}) are shared by every
 * open in this JVM, so a writer and its readers see the same bytes; {@code memory://} alone is private to one open.
 * A store on S3 is reached with the {@link S3Settings} its options give, else with the {@code AWS_*} environment.
 */
final class ObjectStores
{
    private static final Map<String, ObjectStore> NAMED_MEMORY_STORES = new ConcurrentHashMap<>();
    // The explicit settings each S3 store was last resolved with, so that error messages (which know only the URI)
    // name the endpoint and credentials actually used.
    private static final Map<StoreUri, S3Settings> SETTINGS_IN_USE = new ConcurrentHashMap<>();

    private ObjectStores() {}

    static ObjectStore resolve(StoreUri uri, StoreOptions options)
    {
        SlateDbNativeLibrary.prepare();
        if (uri.scheme() == StoreUri.Scheme.FILE && java.nio.file.Files.isRegularFile(java.nio.file.Path.of("/" + uri.dbPath()))) {
            // SlateDB would wait for a manifest under it until the store timeout.
            throw new InvalidArgumentException("store " + uri + " is a file, not a directory: a moraine store is a directory of SlateDB objects. "
                    + "A DuckDB database file is a DuckLake catalog of its own: attach it as 'ducklake:<file>', or copy it into a store with "
                    + "`bin/moraine import --source ducklake:<file> --store <directory>`");
        }
        if (uri.scheme() == StoreUri.Scheme.MEMORY && !uri.memoryName().isEmpty()) {
            return NAMED_MEMORY_STORES.computeIfAbsent(uri.memoryName(), name -> resolveUrl(uri));
        }
        Optional<S3Settings> settings = uri.scheme() == StoreUri.Scheme.S3 ? options.s3Settings(uri) : Optional.empty();
        if (settings.isEmpty()) {
            SETTINGS_IN_USE.remove(uri);
            return resolveUrl(uri);
        }
        SETTINGS_IN_USE.put(uri, settings.get());
        return build(uri, settings.get());
    }

    /**
     * The object store of a separate write-ahead log. SlateDB writes the log under {@code <db path>/wal/} of this store,
     * the catalog's own path. {@code rooted}: the store is rooted at the WAL URI's path, so the log goes under
     * {@code <wal path>/<db path>/wal/}; otherwise (stores created before the WAL location was recorded) at the root of
     * the WAL URI's bucket or file system, as they were written. The binding builds S3 clients at the bucket root only
     * (a path in the URL is ignored), so a rooted WAL store on S3 with a prefix is refused rather than written elsewhere.
     */
    static ObjectStore resolveWal(StoreUri wal, StoreOptions options, boolean rooted)
    {
        if (!rooted) {
            return resolve(wal, options);
        }
        return switch (wal.scheme()) {
            case FILE -> {
                SlateDbNativeLibrary.prepare();
                java.nio.file.Path root = java.nio.file.Path.of("/" + wal.dbPath());
                try {
                    java.nio.file.Files.createDirectories(root);
                }
                catch (java.io.IOException e) {
                    throw new InvalidArgumentException("cannot create the WAL store directory " + root + ": " + e.getMessage(), e);
                }
                yield SlateDbCalls.call(() -> {
                    try (ObjectStoreBuilder builder = new ObjectStoreBuilder(ObjectStoreType.LOCAL)) {
                        builder.withConfig("local_path", root.toString());
                        return builder.build();
                    }
                }, wal, "resolving the WAL store");
            }
            case S3 -> {
                if (!wal.dbPath().isEmpty()) {
                    throw new InvalidArgumentException("WAL store " + wal + " has a prefix ('" + wal.dbPath() + "'): SlateDB 0.17's Java binding "
                            + "builds S3 clients at the bucket root and ignores a path, so the log would be written under "
                            + wal.objectStoreUrl() + "/<catalog path>/wal/ instead of under the prefix. Name the bucket alone ("
                            + wal.objectStoreUrl() + "; the log then goes under <catalog path>/wal/ in it), or a local directory");
                }
                yield resolve(wal, options);
            }
            case MEMORY -> resolve(wal, options);
        };
    }

    /** The explicit settings {@code uri} was last resolved with; empty: the environment. */
    static Optional<S3Settings> settingsInUse(StoreUri uri)
    {
        return Optional.ofNullable(SETTINGS_IN_USE.get(uri));
    }

    private static ObjectStore resolveUrl(StoreUri uri)
    {
        return SlateDbCalls.call(() -> ObjectStore.resolve(uri.objectStoreUrl()), uri, "resolving the object store");
    }

    private static ObjectStore build(StoreUri uri, S3Settings settings)
    {
        String bucket = uri.objectStoreUrl().substring("s3://".length());
        return SlateDbCalls.call(() -> {
            // Not fromEnv: given settings replace the environment, none of it is merged in.
            try (ObjectStoreBuilder builder = new ObjectStoreBuilder(ObjectStoreType.S3)) {
                builder.withUrl(uri.objectStoreUrl());
                for (Map.Entry<String, String> entry : settings.objectStoreConfig(bucket).entrySet()) {
                    builder.withConfig(entry.getKey(), entry.getValue());
                }
                return builder.build();
            }
        }, uri, "building the S3 client from the " + settings.source());
    }
}
