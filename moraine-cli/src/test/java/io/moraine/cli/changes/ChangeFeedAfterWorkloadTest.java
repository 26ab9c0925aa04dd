package io.moraine.cli.changes;

import io.moraine.testing.DuckLakeOracle;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.changes.ChangeFeed;
import io.moraine.core.error.SnapshotExpiredException;
import io.moraine.core.store.OpenMode;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The change feed of the whole oracle workload: flushed (backdated) and merged files filtered per row, rewritten files
 * (reported by DuckLake as update pairs), an expired snapshot and a dropped table.
 */
class ChangeFeedAfterWorkloadTest
        extends ChangeFeedMatchesDuckLake
{
    @Override
    List<String> steps()
    {
        return DuckLakeOracle.WORKLOAD;
    }

    @Override
    void assertSources(Map<String, Integer> sources)
    {
        assertThat(sources).containsKeys("file insertions", "partial file insertions", "delete file", "retired file");
    }

    @Test
    void anExpiredStartIsRefusedNamingTheOldestAndNewestSnapshots()
    {
        try (MoraineCatalog catalog = MoraineCatalog.open(store, OpenMode.READ_ONLY); CatalogSnapshot latest = catalog.latest()) {
            long tableId = latest.tables().getFirst().getLong("table_id");
            // The workload expires snapshot 3.
            assertThatThrownBy(() -> ChangeFeed.forTable(latest, tableId, 3))
                    .isInstanceOf(SnapshotExpiredException.class)
                    .hasMessageContaining("snapshot 3 was expired")
                    .hasMessageContaining("the oldest is 0, the newest " + latest.id());
        }
    }
}
