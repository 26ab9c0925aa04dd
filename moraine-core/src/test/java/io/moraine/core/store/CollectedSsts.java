package io.moraine.core.store;

import io.slatedb.uniffi.Admin;
import io.slatedb.uniffi.AdminBuilder;
import io.slatedb.uniffi.VersionedManifest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Does to a store on file:// what SlateDB's garbage collector does to the SSTs a compaction replaced: deletes them once
 * the newest manifest names none of them. (SlateDB 0.17's own collector deleted none on file://, even with a
 * 100 ms interval and minimum age: with boundary files on, its manifest collection fails for want of a conditional
 * update the local file system lacks; with them off, it still deleted nothing within 80 s, for a reason not found.) Also the switch of the retry that
 * redoes a read finding one gone, for tests in other packages.
 */
public final class CollectedSsts
        implements AutoCloseable
{
    private final Path directory;
    private final Admin admin;

    public CollectedSsts(StoreUri uri)
            throws io.slatedb.uniffi.Error
    {
        this.directory = Path.of(java.net.URI.create(uri.toString()));
        try (AdminBuilder builder = new AdminBuilder(uri.dbPath(), ObjectStores.resolve(uri, StoreOptions.DEFAULTS))) {
            this.admin = builder.build();
        }
    }

    /** Turns the retry after a missing file on or off (it is on unless a test turns it off). */
    public static void retryAfterMissingObject(boolean enabled)
    {
        MissingObjectRetry.enabled = enabled;
    }

    /** The SST files the store holds now (L0 and compacted; not the write-ahead log). */
    public Set<Path> ssts()
            throws IOException
    {
        try (Stream<Path> files = Files.walk(directory)) {
            return files.filter(file -> file.toString().endsWith(".sst") && file.startsWith(directory.resolve("compacted"))).collect(Collectors.toSet());
        }
    }

    /** Whether the newest manifest names none of {@code ssts}: a compaction replaced them all. */
    public boolean unreferenced(Set<Path> ssts)
            throws Exception
    {
        VersionedManifest manifest = admin.readManifest(null).get();
        Set<String> named = Stream.concat(manifest.l0().stream(), manifest.compacted().stream().flatMap(run -> run.sstViews().stream()))
                .map(view -> view.sst().id().value() + ".sst")
                .collect(Collectors.toSet());
        return ssts.stream().noneMatch(sst -> named.contains(sst.getFileName().toString()));
    }

    /** Deletes {@code ssts}, which must be {@link #unreferenced}. */
    public void collect(Set<Path> ssts)
            throws Exception
    {
        if (!unreferenced(ssts)) {
            throw new IllegalStateException("the newest manifest still names some of " + ssts);
        }
        for (Path sst : ssts) {
            Files.delete(sst);
        }
    }

    @Override
    public void close()
    {
        admin.close();
    }
}
