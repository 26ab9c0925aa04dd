package io.moraine.duckdb.ext;

import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.io.LakeFileSystem;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreUri;
import io.moraine.core.tiny.TinyFilePublisher;
import io.moraine.core.tiny.TinyFileSweeper;

/**
 * Tiny-file publishing and sweeping through the writer a DuckDB in this process holds ({@code ATTACH
 * 'ducklake:moraine:<store>' ... READ_WRITE}): the store has one writer, and opening another would fence DuckDB's.
 * Call it after commits (an application that writes through DuckDB and wants its small files served from the
 * catalog); the copies are written beside DuckLake's commits, never inside one (docs/tiny-files.md).
 */
public final class AttachedTinyFiles
{
    private AttachedTinyFiles() {}

    /** Publishes every table's tiny files of the store attached read-write in this process at {@code storeUri}. */
    public static TinyFilePublisher.Result publish(String storeUri, LakeFileSystem files)
    {
        return TinyFilePublisher.publish(writer(storeUri), files);
    }

    public static TinyFileSweeper.Result sweep(String storeUri)
    {
        return TinyFileSweeper.sweep(writer(storeUri));
    }

    /** The catalog DuckDB writes {@code storeUri} through, refused when no attach in this process writes it. */
    public static MoraineCatalog writer(String storeUri)
    {
        StoreUri wanted = StoreUri.parse(storeUri);
        for (AttachedStore store : NativeBridge.attachedStores()) {
            MoraineCatalog catalog;
            try {
                catalog = store.catalog();
            }
            catch (RuntimeException e) {
                continue; // a lake not created yet
            }
            StoreUri uri = catalog.uri();
            if (catalog.mode() == OpenMode.READ_WRITE && uri.scheme() == wanted.scheme() && uri.dbPath().equals(wanted.dbPath())
                    && java.util.Objects.equals(uri.objectStoreUrl(), wanted.objectStoreUrl())) {
                return catalog;
            }
        }
        throw new InvalidArgumentException("no DuckDB in this process has ducklake:moraine:" + storeUri + " attached READ_WRITE; attach it "
                + "READ_WRITE first, or, when no DuckDB writes to the store, run bin/moraine tiny-files publish --store " + storeUri);
    }
}
