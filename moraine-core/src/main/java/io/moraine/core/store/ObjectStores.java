package io.moraine.core.store;

import io.slatedb.uniffi.ObjectStore;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Resolves store URIs to SlateDB object stores. Named in-memory stores ({@code memory://<name>}) are shared by every
 * open in this JVM, so a writer and its readers see the same bytes; {@code memory://} alone is private to one open.
 */
final class ObjectStores
{
    private static final Map<String, ObjectStore> NAMED_MEMORY_STORES = new ConcurrentHashMap<>();

    private ObjectStores() {}

    static ObjectStore resolve(StoreUri uri)
    {
        SlateDbNativeLibrary.prepare();
        if (uri.scheme() == StoreUri.Scheme.MEMORY && !uri.memoryName().isEmpty()) {
            return NAMED_MEMORY_STORES.computeIfAbsent(uri.memoryName(), name -> resolveUrl(uri));
        }
        return resolveUrl(uri);
    }

    private static ObjectStore resolveUrl(StoreUri uri)
    {
        return SlateDbCalls.call(() -> ObjectStore.resolve(uri.objectStoreUrl()), uri, "resolving the object store");
    }
}
