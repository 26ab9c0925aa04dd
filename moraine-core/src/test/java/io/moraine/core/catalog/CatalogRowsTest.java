package io.moraine.core.catalog;

import io.moraine.core.error.ConstraintException;
import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.store.StoreUri;
import io.moraine.core.tx.StagedTransaction;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static io.moraine.core.catalog.CatalogTestSupport.changes;
import static io.moraine.core.catalog.CatalogTestSupport.memoryStore;
import static io.moraine.core.catalog.CatalogTestSupport.newCatalog;
import static io.moraine.core.catalog.CatalogTestSupport.scan;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Every ducklake_* table round-trips through staged transactions and raw scans, current and history. */
class CatalogRowsTest
{
    @Test
    void aNewCatalogServesDuckLakesBootstrapRows()
    {
        try (MoraineCatalog catalog = newCatalog(memoryStore("bootstrap"))) {
            assertThat(catalog.headSnapshotId()).hasValue(0);
            assertThat(scan(catalog, TableKind.SNAPSHOT, RowScope.ALL)).singleElement()
                    .satisfies(row -> assertThat(row.values().subList(2, 5)).containsExactly(0L, 1L, 0L));
            assertThat(scan(catalog, TableKind.SNAPSHOT_CHANGES, RowScope.ALL)).singleElement()
                    .satisfies(row -> assertThat(row.getString("changes_made")).isEqualTo("created_schema:\"main\""));
            assertThat(scan(catalog, TableKind.SCHEMA, RowScope.CURRENT)).singleElement()
                    .satisfies(row -> assertThat(row.getString("schema_name")).isEqualTo("main"));
            assertThat(scan(catalog, TableKind.METADATA, RowScope.ALL))
                    .extracting(row -> row.getString("key") + "=" + row.getString("value"))
                    .containsExactly("version=1.0", "created_by=" + NewCatalog.CREATED_BY, "data_path=/lake/data/", "encrypted=false");
        }
    }

    @Test
    void everyKindRoundTripsWithHistoryInPlaceUpdatesAndPhysicalDeletes()
    {
        try (MoraineCatalog catalog = newCatalog(memoryStore("kinds"))) {
            // Snapshot 1 inserts one sample row of every kind (its own snapshot rows are the samples).
            StagedTransaction insert = catalog.begin(0);
            List<Row> samples = new ArrayList<>();
            for (TableKind kind : TableKind.values()) {
                Row sample = SampleRows.of(kind, 1, 1);
                samples.add(sample);
                insert.insert(sample);
            }
            assertThat(insert.commit()).isEqualTo(1);
            for (Row sample : samples) {
                assertThat(scan(catalog, sample.kind(), RowScope.ALL)).as(sample.kind().tableName()).contains(sample);
            }

            // Snapshot 2 ends every versioned row, updates the in-place kinds and deletes some rows physically.
            StagedTransaction change = catalog.begin(1).insert(SampleRows.of(TableKind.SNAPSHOT, 2, 2)).insert(changes(2, "altered_table:1001"));
            for (Row sample : samples) {
                Object[] key = keyOf(sample);
                switch (sample.kind().lifecycle()) {
                    case VERSIONED -> change.endRow(sample.kind(), 2, key);
                    case UPDATED_IN_PLACE -> change.update(sample.kind(), Map.of(nonKeyColumn(sample.kind()), updatedValue(sample)), key);
                    case INSERT_ONLY -> {
                        if (sample.kind() == TableKind.NAME_MAPPING || sample.kind() == TableKind.FILE_COLUMN_STATS) {
                            change.delete(sample.kind(), key);
                        }
                    }
                }
            }
            assertThat(change.commit()).isEqualTo(2);

            for (Row sample : samples) {
                TableKind kind = sample.kind();
                switch (kind.lifecycle()) {
                    case VERSIONED -> {
                        assertThat(scan(catalog, kind, RowScope.CURRENT)).as(kind.tableName()).doesNotContain(sample);
                        assertThat(scan(catalog, kind, RowScope.HISTORY)).as(kind.tableName()).containsExactly(sample.with("end_snapshot", 2L));
                    }
                    case UPDATED_IN_PLACE -> assertThat(scan(catalog, kind, RowScope.CURRENT)).as(kind.tableName())
                            .contains(sample.with(nonKeyColumn(kind), updatedValue(sample)));
                    case INSERT_ONLY -> {
                        boolean deleted = kind == TableKind.NAME_MAPPING || kind == TableKind.FILE_COLUMN_STATS;
                        if (deleted) {
                            assertThat(scan(catalog, kind, RowScope.ALL)).as(kind.tableName()).doesNotContain(sample);
                        }
                        else {
                            assertThat(scan(catalog, kind, RowScope.ALL)).as(kind.tableName()).contains(sample);
                        }
                    }
                }
            }

            // Expiry deletes history rows physically.
            catalog.begin(2).delete(TableKind.DATA_FILE, keyOf(samples.get(TableKind.DATA_FILE.ordinal()))).commit();
            assertThat(scan(catalog, TableKind.DATA_FILE, RowScope.ALL)).isEmpty();
        }
    }

    @Test
    void visibilityFollowsBeginAndEndAtEverySnapshot()
    {
        try (MoraineCatalog catalog = newCatalog(memoryStore("visibility"))) {
            Row snapshot0 = CatalogTestSupport.head(catalog);
            Row s1 = CatalogTestSupport.nextSnapshot(snapshot0, 1, 1, 0);
            catalog.begin(0).insert(s1).insert(changes(1, "created_table:\"main\".\"t\"")).insert(CatalogTestSupport.table(1, 0, "t", 1)).commit();
            Row s2 = CatalogTestSupport.nextSnapshot(s1, 1, 0, 0);
            catalog.begin(1).insert(s2).insert(changes(2, "altered_table:1"))
                    .endRow(TableKind.TABLE, 2, 1L, 1L)
                    .insert(CatalogTestSupport.table(1, 0, "renamed", 2)).commit();
            Row s3 = CatalogTestSupport.nextSnapshot(s2, 1, 0, 0);
            catalog.begin(2).insert(s3).insert(changes(3, "dropped_table:1")).endRow(TableKind.TABLE, 3, 1L, 2L).commit();

            List<String> names = new ArrayList<>();
            for (long s = 0; s <= 3; s++) {
                try (CatalogSnapshot snapshot = catalog.at(s)) {
                    names.add(snapshot.tables().stream().map(row -> row.getString("table_name")).findFirst().orElse("-"));
                    assertThat(snapshot.table(1).isPresent()).isEqualTo(s == 1 || s == 2);
                }
            }
            assertThat(names).containsExactly("-", "t", "renamed", "-");
            try (CatalogSnapshot snapshot = catalog.at(1)) {
                assertThat(snapshot.table("main", "t")).isPresent();
                assertThat(snapshot.table("main", "renamed")).isEmpty();
            }
        }
    }

    @Test
    void declaredPrimaryKeysRefuseDisplacingALiveRow()
    {
        try (MoraineCatalog catalog = newCatalog(memoryStore("pk"))) {
            Row s1 = CatalogTestSupport.nextSnapshot(CatalogTestSupport.head(catalog), 0, 0, 1);
            catalog.begin(0).insert(s1).insert(changes(1, "inserted_into_table:5"))
                    .insert(CatalogTestSupport.dataFile(5, 0, 1, 0, 10)).commit();

            Row s2 = CatalogTestSupport.nextSnapshot(s1, 0, 0, 1);
            // data_file_id 0 again, in another table: DuckLake's primary key is data_file_id alone.
            assertThatThrownBy(() -> catalog.begin(1).insert(s2).insert(CatalogTestSupport.dataFile(6, 0, 2, 0, 10)).commit())
                    .isInstanceOf(ConstraintException.class)
                    .hasMessageContaining("data_file_id = 0");
            assertThatThrownBy(() -> catalog.begin(1).insert(s2)
                    .insert(Row.of(TableKind.SCHEMA, 0L, java.util.UUID.randomUUID(), 2L, null, "other", "other/", true)).commit())
                    .isInstanceOf(ConstraintException.class)
                    .hasMessageContaining("schema_id");
            // A failed commit wrote nothing: the head and the first file are as they were.
            assertThat(catalog.headSnapshotId()).hasValue(1);
            assertThat(scan(catalog, TableKind.DATA_FILE, RowScope.ALL)).hasSize(1);
        }
    }

    @Test
    void wrongCellsAndUnknownKindsAreRefusedWithTypedErrors()
    {
        assertThatThrownBy(() -> Row.of(TableKind.SNAPSHOT, "one", null, null, null, null))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("ducklake_snapshot.snapshot_id is BIGINT");
        assertThatThrownBy(() -> Row.of(TableKind.SNAPSHOT, 1L))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("has 5 columns");
        assertThatThrownBy(() -> TableKind.fromTableName("ducklake_nonsense"))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("ducklake_data_file");
        assertThatThrownBy(() -> Row.ofMap(TableKind.TABLE, Map.of("no_such_column", 1L)))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("no_such_column");
        StoreUri uri = memoryStore("bad-input");
        try (MoraineCatalog catalog = newCatalog(uri)) {
            assertThatThrownBy(() -> catalog.begin(0).delete(TableKind.TABLE, 1L).commit())
                    .isInstanceOf(InvalidArgumentException.class)
                    .hasMessageContaining("2 key cells");
            assertThatThrownBy(() -> catalog.begin(0).update(TableKind.TABLE_STATS, Map.of("table_id", 2L), 1L).commit())
                    .isInstanceOf(InvalidArgumentException.class)
                    .hasMessageContaining("part of the row key");
        }
    }

    static Object[] keyOf(Row row)
    {
        return Arrays.stream(row.kind().keyColumnIndexes()).mapToObj(row::get).toArray();
    }

    private static String nonKeyColumn(TableKind kind)
    {
        return switch (kind) {
            case METADATA -> "value";
            case TABLE_STATS -> "record_count";
            case TABLE_COLUMN_STATS -> "max_value";
            default -> throw new IllegalArgumentException(kind.toString());
        };
    }

    private static Object updatedValue(Row sample)
    {
        return sample.kind() == TableKind.TABLE_STATS ? 424242L : "updated";
    }
}
