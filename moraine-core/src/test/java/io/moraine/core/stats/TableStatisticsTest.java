package io.moraine.core.stats;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.catalog.NewCatalog;
import io.moraine.core.scan.ScanFilter;
import io.moraine.core.store.StoreUri;
import io.moraine.core.types.TableSchema;
import io.moraine.testing.SyntheticCatalog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.util.List;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

/** Row counts at every snapshot of a catalog grown by appends (the oracle comparisons are in the Trino connector's tests). */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TableStatisticsTest
{
    private static final long TABLE = 1;
    private static final int FILES_PER_SNAPSHOT = 3;

    private MoraineCatalog catalog;

    @BeforeAll
    void createCatalog()
    {
        // Snapshot 1 creates the table, each later one adds three files of 100 rows.
        catalog = MoraineCatalog.create(StoreUri.parse("memory:///table-statistics-" + System.nanoTime()),
                new NewCatalog("/lake/data/", false, false, NewCatalog.CREATED_BY));
        new SyntheticCatalog(21, FILES_PER_SNAPSHOT, 1).load(catalog);
    }

    @AfterAll
    void close()
    {
        catalog.close();
    }

    @Test
    void theRowCountAtASnapshotCountsTheFilesVisibleThere()
    {
        for (long snapshotId = 1; snapshotId <= 21; snapshotId++) {
            try (CatalogSnapshot snapshot = catalog.at(snapshotId)) {
                TableStatistics statistics = TableStatistics.of(snapshot, TABLE, new TableSchema(List.of()), ScanFilter.all());
                assertThat(statistics.rowCount()).as("snapshot " + snapshotId).isEqualTo(OptionalLong.of((snapshotId - 1) * FILES_PER_SNAPSHOT * 100));
            }
        }
    }

    @Test
    void aFilterThatMatchesNothingCountsNoRow()
    {
        try (CatalogSnapshot snapshot = catalog.latest()) {
            assertThat(TableStatistics.of(snapshot, TABLE, new TableSchema(List.of()), ScanFilter.none()).rowCount()).isEqualTo(OptionalLong.of(0));
        }
    }
}
