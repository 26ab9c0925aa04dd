package io.moraine.trino;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import com.google.common.util.concurrent.UncheckedExecutionException;
import com.google.inject.Inject;
import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.error.MoraineException;
import io.moraine.core.types.TableColumn;
import io.moraine.core.types.TableSchema;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;

/**
 * A table's columns at a snapshot, as the core's {@link TableSchema} (for scans) and as column handles (for Trino),
 * remembered across queries. A snapshot's columns never change (flushes and compactions rewrite files, not columns), so
 * entries need no invalidation; the newest snapshot is still resolved per query. {@code moraine.metadata-cache.max-tables=0}
 * turns the cache off.
 */
public class MoraineTableColumns
{
    /** The columns of one table at one snapshot. */
    record Columns(TableSchema schema, List<MoraineColumnHandle> handles) {}

    private final MoraineCatalogHolder catalog;
    private final MoraineTypes types;
    private final Cache<TableAtSnapshot, Columns> cache;
    private final boolean enabled;

    @Inject
    public MoraineTableColumns(MoraineCatalogHolder catalog, MoraineTypes types, MoraineConfig config)
    {
        this.catalog = catalog;
        this.types = types;
        this.enabled = config.getMetadataCacheMaxTables() > 0;
        this.cache = CacheBuilder.newBuilder().maximumSize(Math.max(config.getMetadataCacheMaxTables(), 0)).build();
    }

    Columns of(MoraineTableHandle table)
    {
        return cached(table, () -> {
            try (CatalogSnapshot snapshot = catalog.catalog().at(table.snapshotId())) {
                return load(table, snapshot);
            }
        });
    }

    /** The columns read through {@code snapshot}, already open at the table's snapshot, when they are not cached. */
    Columns of(MoraineTableHandle table, CatalogSnapshot snapshot)
    {
        return cached(table, () -> load(table, snapshot));
    }

    private Columns cached(MoraineTableHandle table, Callable<Columns> loader)
    {
        try {
            if (!enabled) {
                return loader.call();
            }
            return cache.get(new TableAtSnapshot(table.tableId(), table.snapshotId()), loader);
        }
        catch (MoraineException e) {
            throw MoraineErrorCode.toTrino(e);
        }
        catch (ExecutionException | UncheckedExecutionException e) {
            if (e.getCause() instanceof MoraineException moraine) {
                throw MoraineErrorCode.toTrino(moraine);
            }
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException(e.getCause());
        }
        catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private Columns load(MoraineTableHandle table, CatalogSnapshot snapshot)
    {
        TableSchema schema = snapshot.model().columns(table.tableId());
        List<MoraineColumnHandle> handles = new ArrayList<>();
        for (TableColumn column : schema.columns()) {
            handles.add(new MoraineColumnHandle(column.columnId(), column.name(), types.toTrino(column), column.type().duckLakeName(), column.initialDefault()));
        }
        return new Columns(schema, List.copyOf(handles));
    }

    private record TableAtSnapshot(long tableId, long snapshotId) {}
}
