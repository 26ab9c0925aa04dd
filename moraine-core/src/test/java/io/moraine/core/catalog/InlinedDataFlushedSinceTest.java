package io.moraine.core.catalog;

import io.moraine.core.row.Row;
import io.moraine.core.store.StoreOptions;
import io.moraine.core.tx.CommitListener;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.moraine.core.catalog.CatalogTestSupport.changes;
import static io.moraine.core.catalog.CatalogTestSupport.memoryStore;
import static io.moraine.core.catalog.CatalogTestSupport.nextSnapshot;
import static org.assertj.core.api.Assertions.assertThat;

/** {@link CatalogSnapshot#inlinedDataFlushedSince}: which snapshots it looks at, and what it costs. */
class InlinedDataFlushedSinceTest
{
    @Test
    void findsAFlushOfTheTableAmongTheSnapshotsAfterTheGivenOneUpToTheViewsHead()
    {
        CountingReads reads = new CountingReads();
        try (MoraineCatalog catalog = MoraineCatalog.create(memoryStore("flushed-since"), NewCatalog.bootstrapped("/lake/data"),
                StoreOptions.DEFAULTS.withReadListener(reads), List.of(), CommitListener.NONE)) {
            // 1: an insert into 1; 2: a flush of 2; 3: a flush of 1; 4: no changes recorded; 5: a flush of 1 (older name); 6: an insert.
            appendSnapshots(catalog, "inlined_insert:1", "inline_flush:2", "inserted_into_table:3,inline_flush:1", null, "flushed_inlined:1",
                    "inserted_into_table:1");
            try (CatalogSnapshot atOne = catalog.at(1)) {
                assertThat(atOne.inlinedDataFlushedSince(1, 0)).isTrue();
                assertThat(atOne.inlinedDataFlushedSince(1, 2)).isTrue();
                assertThat(atOne.inlinedDataFlushedSince(1, 3)).as("the older name counts too").isTrue();
                assertThat(atOne.inlinedDataFlushedSince(1, 5)).isFalse();
                assertThat(atOne.inlinedDataFlushedSince(2, 1)).isTrue();
                assertThat(atOne.inlinedDataFlushedSince(2, 2)).as("the given snapshot itself is not looked at").isFalse();
                assertThat(atOne.inlinedDataFlushedSince(3, -1)).isFalse();

                reads.clear();
                assertThat(atOne.inlinedDataFlushedSince(3, 0)).isFalse();
                assertThat(reads.points()).as("the view's head comes from the writer's memory").isEmpty();
                assertThat(reads.scans()).as("one scan over snapshots 1..6").containsExactly("current/ducklake_snapshot_changes");

                reads.clear();
                assertThat(atOne.inlinedDataFlushedSince(1, 6)).isFalse();
                assertThat(reads.points()).as("the view's head comes from the writer's memory").isEmpty();
                assertThat(reads.scans()).as("nothing after the head to look at").isEmpty();

                // A later flush is beyond this view's head; a new view sees it.
                appendSnapshots(catalog, "inline_flush:3");
                assertThat(atOne.inlinedDataFlushedSince(3, 0)).isFalse();
            }
            try (CatalogSnapshot latest = catalog.latest()) {
                assertThat(latest.inlinedDataFlushedSince(3, 0)).isTrue();
                assertThat(latest.inlinedDataFlushedSince(3, 6)).isTrue();
                assertThat(latest.inlinedDataFlushedSince(3, 7)).isFalse();
            }
        }
    }

    private static void appendSnapshots(MoraineCatalog catalog, String... changesMade)
    {
        Row previous = CatalogTestSupport.head(catalog);
        for (String changes : changesMade) {
            Row next = nextSnapshot(previous, 0, 0, 0);
            catalog.begin(previous.getLong("snapshot_id")).insert(next).insert(changes(next.getLong("snapshot_id"), changes)).commit();
            previous = next;
        }
    }
}
