package io.moraine.trino;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import com.google.common.util.concurrent.UncheckedExecutionException;
import com.google.inject.Inject;

import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;

/**
 * Remembers a table's columns per snapshot across queries. A snapshot's columns never change (flushes and compactions
 * rewrite files, not columns), so entries need no invalidation; the newest snapshot is still resolved per query.
 * {@code moraine.metadata-cache.max-tables=0} turns it off.
 */
public class MoraineMetadataCache
{
    private final Cache<TableAtSnapshot, List<MoraineColumnHandle>> columns;
    private final boolean enabled;

    @Inject
    public MoraineMetadataCache(MoraineConfig config)
    {
        this.enabled = config.getMetadataCacheMaxTables() > 0;
        this.columns = CacheBuilder.newBuilder().maximumSize(Math.max(config.getMetadataCacheMaxTables(), 0)).build();
    }

    List<MoraineColumnHandle> columns(long tableId, long snapshotId, Supplier<List<MoraineColumnHandle>> loader)
    {
        if (!enabled) {
            return loader.get();
        }
        try {
            return columns.get(new TableAtSnapshot(tableId, snapshotId), loader::get);
        }
        catch (ExecutionException | UncheckedExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    private record TableAtSnapshot(long tableId, long snapshotId) {}
}
