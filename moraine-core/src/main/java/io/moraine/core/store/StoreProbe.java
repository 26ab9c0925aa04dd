package io.moraine.core.store;

import io.slatedb.uniffi.Admin;
import io.slatedb.uniffi.AdminBuilder;
import io.slatedb.uniffi.ObjectStore;
import io.slatedb.uniffi.SlateDbWalReader;
import io.slatedb.uniffi.VersionedManifest;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static io.moraine.core.store.SlateDbCalls.await;
import static io.moraine.core.store.SlateDbCalls.call;

/**
 * Reads how far a store's writer has got, as cheaply as SlateDB allows, without opening a reader: the newest manifest
 * id (one LIST of the manifests after the one last seen) and the newest write-ahead-log object (SlateDB's WAL tail
 * probe: a round of 8 parallel HEADs when nothing was written). A commit is acknowledged once its log object is
 * durable, so a commit acknowledged before a probe began has a log object the probe sees; compactions and memtable
 * flushes show as a new manifest.
 */
final class StoreProbe
        implements AutoCloseable
{
    /** How far the writer had got: its newest manifest and its newest write-ahead-log object. */
    record StoreVersion(long manifestId, long walTail) {}

    private final StoreUri uri;
    private final Admin admin;
    private final SlateDbWalReader walReader;
    private final Duration timeout;

    StoreProbe(StoreUri uri, ObjectStore objectStore, Optional<ObjectStore> walObjectStore, Duration timeout)
    {
        this.uri = uri;
        this.timeout = timeout;
        try (AdminBuilder builder = new AdminBuilder(uri.dbPath(), objectStore)) {
            this.admin = call(() -> {
                if (walObjectStore.isPresent()) {
                    builder.withWalObjectStore(walObjectStore.get());
                }
                return builder.build();
            }, uri, "opening the store's admin interface");
        }
        try {
            this.walReader = call(() -> walObjectStore.isPresent()
                    ? SlateDbWalReader.withWalObjectStore(uri.dbPath(), objectStore, walObjectStore.get())
                    : new SlateDbWalReader(uri.dbPath(), objectStore), uri, "opening the store's WAL probe");
        }
        catch (RuntimeException e) {
            admin.close();
            throw e;
        }
    }

    /** The store's version read from scratch: its newest manifest (LIST and GETs) and the log written since. */
    StoreVersion read()
    {
        VersionedManifest manifest = await(executor -> admin.readManifest(null, executor), uri, "reading the store's manifest", timeout);
        return new StoreVersion(manifest.id(), walTailAfter(manifest.replayAfterWalId()));
    }

    /** The store's version now, knowing it was at least {@code known}: a LIST of the manifests after it and a WAL tail probe. */
    StoreVersion readAfter(StoreVersion known)
    {
        List<VersionedManifest> newer = await(executor -> admin.listManifests(known.manifestId() + 1, null, executor), uri,
                "listing the store's new manifests", timeout);
        long manifestId = newer.stream().mapToLong(VersionedManifest::id).max().orElse(known.manifestId());
        return new StoreVersion(Math.max(manifestId, known.manifestId()), walTailAfter(known.walTail()));
    }

    private long walTailAfter(long walId)
    {
        return await(executor -> walReader.lastWalFileId(walId, executor), uri, "probing the store's write-ahead log", timeout);
    }

    @Override
    public void close()
    {
        try (admin; walReader) {
            // Both only hold native handles.
        }
    }
}
