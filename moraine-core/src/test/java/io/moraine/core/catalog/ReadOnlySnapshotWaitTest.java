package io.moraine.core.catalog;

import io.moraine.core.error.NotFoundException;
import io.moraine.core.row.Row;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.ReaderFreshness;
import io.moraine.core.store.StoreOptions;
import io.moraine.core.store.StoreUri;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;

import static io.moraine.core.catalog.CatalogTestSupport.changes;
import static io.moraine.core.catalog.CatalogTestSupport.head;
import static io.moraine.core.catalog.CatalogTestSupport.newCatalog;
import static io.moraine.core.catalog.CatalogTestSupport.nextSnapshot;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A polling read-only handle asked for a snapshot another process has just committed reads it instead of refusing it as
 * unknown (the id is handed out before the handle's next poll), and still refuses one that never arrives. (An on-demand
 * handle catches up at once: {@link ReaderFreshnessTest}.)
 */
class ReadOnlySnapshotWaitTest
{
    private static final Duration POLL = Duration.ofMillis(700);

    @TempDir
    Path temp;

    @Test
    void aJustCommittedSnapshotIsReadAndAnUnknownOneRefusedAfterTwoPolls()
    {
        StoreUri uri = StoreUri.parse(temp.resolve("store").toUri().toString());
        try (MoraineCatalog writer = newCatalog(uri);
                MoraineCatalog reader = MoraineCatalog.open(uri, OpenMode.READ_ONLY, StoreOptions.DEFAULTS.withFreshness(ReaderFreshness.polling()).withManifestPollInterval(POLL))) {
            int read = 0;
            Row previous = head(writer);
            for (int i = 0; i < 3; i++) {
                Row next = nextSnapshot(previous, 0, 0, 0);
                long id = next.getLong("snapshot_id");
                writer.begin(previous.getLong("snapshot_id")).insert(next).insert(changes(id, "inserted_into_table:1")).commit();
                previous = next;
                try (CatalogSnapshot snapshot = reader.at(id)) {
                    assertThat(snapshot.id()).isEqualTo(id);
                    read++;
                }
            }
            assertThat(read).isEqualTo(3);

            long unknown = previous.getLong("snapshot_id") + 1;
            long start = System.nanoTime();
            assertThatThrownBy(() -> reader.at(unknown)).isInstanceOf(NotFoundException.class)
                    .hasMessageContaining("snapshot " + unknown + " does not exist").hasMessageContaining("the newest is " + (unknown - 1));
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("waited about two poll intervals, not forever")
                    .isGreaterThanOrEqualTo(POLL.multipliedBy(2)).isLessThan(POLL.multipliedBy(2).plusSeconds(5));
        }
    }
}
