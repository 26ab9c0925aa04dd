package io.moraine.core.catalog;

import io.moraine.core.changes.ChangeFeed;
import io.moraine.core.error.FileOutsideAllowedLocationsException;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.scan.DataFileTask;
import io.moraine.core.scan.ScanBuilder;
import io.moraine.core.scan.ScanTask;
import io.moraine.core.scan.TaskStream;
import io.moraine.core.store.StoreUri;
import io.moraine.testing.SyntheticCatalog;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The Scan API and the change feed check every file path against the allowed locations before a task names it. */
class AllowedLocationsScanTest
{
    private static final String ESCAPING = "../../../outside/escaped.parquet";

    private static MoraineCatalog lakeWithFile(String path, boolean relative)
    {
        MoraineCatalog catalog = MoraineCatalog.create(StoreUri.parse("memory:///allowed-" + System.nanoTime()),
                new NewCatalog("/lake/data/", false, false, NewCatalog.CREATED_BY));
        io.moraine.core.tx.StagedTransaction load = catalog.begin(-1);
        for (Row row : new SyntheticCatalog(2, 1, 1).all()) {
            load.insert(row.kind() == TableKind.DATA_FILE ? row.with("path", path).with("path_is_relative", relative) : row);
        }
        load.insert(Row.of(TableKind.COLUMN, 1L, 1L, null, 1L, 1L, "id", "int64", null, null, true, null, null, null));
        load.commit();
        return catalog;
    }

    private static List<String> scannedPaths(MoraineCatalog catalog, AllowedLocations allowed)
    {
        List<String> paths = new ArrayList<>();
        try (CatalogSnapshot snapshot = catalog.latest(); TaskStream tasks = ScanBuilder.forTable(snapshot, 1).withAllowedLocations(allowed).build().planTasks()) {
            tasks.forEachRemaining((ScanTask task) -> paths.add(((DataFileTask) task).path()));
        }
        return paths;
    }

    private static int changeTasks(MoraineCatalog catalog, AllowedLocations allowed)
    {
        try (CatalogSnapshot snapshot = catalog.latest()) {
            return ChangeFeed.forTable(snapshot, 1, 2).withAllowedLocations(allowed).planTasks().size();
        }
    }

    @Test
    void aRelativePathEscapingTheDataPathIsRefusedUntilTheSettingNamesItsLocation()
    {
        try (MoraineCatalog catalog = lakeWithFile(ESCAPING, true)) {
            AllowedLocations unset = AllowedLocations.registered("moraine.allowed-locations");
            assertThatThrownBy(() -> scannedPaths(catalog, unset))
                    .isInstanceOf(FileOutsideAllowedLocationsException.class)
                    .hasMessageContaining("/lake/data/main/t1/" + ESCAPING)
                    .hasMessageContaining("moraine.allowed-locations");
            assertThatThrownBy(() -> changeTasks(catalog, unset)).isInstanceOf(FileOutsideAllowedLocationsException.class);
            // The default of a scan that names no setting refuses it too.
            try (CatalogSnapshot snapshot = catalog.latest()) {
                assertThatThrownBy(() -> ScanBuilder.forTable(snapshot, 1).build().planTasks().hasNext()).isInstanceOf(FileOutsideAllowedLocationsException.class);
            }

            AllowedLocations sibling = AllowedLocations.of(List.of("/lake/outside2"), "moraine.allowed-locations");
            assertThatThrownBy(() -> scannedPaths(catalog, sibling)).isInstanceOf(FileOutsideAllowedLocationsException.class);

            AllowedLocations named = AllowedLocations.of(List.of("/lake/outside"), "moraine.allowed-locations");
            assertThat(scannedPaths(catalog, named)).containsExactly("/lake/data/main/t1/" + ESCAPING);
            assertThat(changeTasks(catalog, named)).isEqualTo(1);
        }
    }

    @Test
    void anAbsolutePathIsReadAsRegisteredUnlessTheSettingLeavesItOut()
    {
        try (MoraineCatalog catalog = lakeWithFile("/elsewhere/registered.parquet", false)) {
            assertThat(scannedPaths(catalog, AllowedLocations.registered("s"))).containsExactly("/elsewhere/registered.parquet");
            assertThatThrownBy(() -> scannedPaths(catalog, AllowedLocations.of(List.of("/lake/outside"), "allowed-locations")))
                    .isInstanceOf(FileOutsideAllowedLocationsException.class)
                    .hasMessageContaining("/elsewhere/registered.parquet")
                    .hasMessageContaining("allowed-locations");
            assertThat(scannedPaths(catalog, AllowedLocations.of(List.of("file:///elsewhere/"), "allowed-locations"))).hasSize(1);
        }
    }

    @Test
    void aDataPathOverrideIsTheDataPathTheCheckUses()
    {
        try (MoraineCatalog catalog = lakeWithFile("a.parquet", true); CatalogSnapshot snapshot = catalog.latest();
                TaskStream tasks = ScanBuilder.forTable(snapshot, 1).withDataPath(Optional.of("/moved/lake"))
                        .withAllowedLocations(AllowedLocations.of(List.of(), "s")).build().planTasks()) {
            assertThat(((DataFileTask) tasks.next()).path()).isEqualTo("/moved/lake/main/t1/a.parquet");
        }
    }
}
