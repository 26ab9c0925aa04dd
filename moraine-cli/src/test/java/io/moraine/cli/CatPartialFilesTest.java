package io.moraine.cli;

import io.moraine.cli.cat.ChangeFeedReader;
import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.changes.ChangeFeed;
import io.moraine.core.changes.ChangeKind;
import io.moraine.core.error.PartialFileWithoutSnapshotsException;
import io.moraine.core.io.LocalFileSystem;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreUri;
import io.moraine.cli.cat.ChangeFeedReader;
import io.moraine.importer.CatalogImporter;
import io.moraine.importer.DuckLakeSource;
import io.moraine.testing.PartialFileLake;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A partial file (DuckLake's flush of three inlined inserts, {@link PartialFileLake}) through {@code bin/moraine cat}
 * and the engine-free change-feed reader: with its {@code _ducklake_internal_snapshot_id} column, each snapshot sees its
 * own rows; without it, a read that must tell the rows apart is refused with the core's message — the one Trino and
 * Spark give — where DuckLake refuses too, and the reads DuckLake answers are answered the same way.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CatPartialFilesTest
{
    private PartialFileLake whole;
    private PartialFileLake stripped;
    private StoreUri wholeStore;
    private StoreUri strippedStore;

    @BeforeAll
    void setUp()
            throws Exception
    {
        Path directory = Files.createTempDirectory("moraine-cat-partial-files");
        whole = PartialFileLake.create(directory.resolve("whole"));
        stripped = PartialFileLake.withoutSnapshotColumn(directory.resolve("stripped"));
        wholeStore = importInto(whole, directory, "whole");
        strippedStore = importInto(stripped, directory, "stripped");
    }

    private static StoreUri importInto(PartialFileLake lake, Path directory, String name)
            throws Exception
    {
        StoreUri store = StoreUri.parse(directory.resolve("store-" + name).toString());
        CatalogImporter.importCatalog(DuckLakeSource.parse(lake.oracle().catalogCopy(directory.resolve(name + ".ducklake"))), store, Optional.empty(),
                CatalogImporter.Progress.SILENT);
        return store;
    }

    @AfterAll
    void tearDown()
            throws Exception
    {
        try (PartialFileLake first = whole; PartialFileLake second = stripped) {
            // closed
        }
    }

    @Test
    void eachSnapshotSeesItsOwnRowsOfAPartialFile()
    {
        for (long snapshot : List.of(whole.firstInsert(), whole.secondInsert(), whole.lastInsert())) {
            assertThat(ids(cat(wholeStore, "--snapshot", Long.toString(snapshot)))).as("snapshot %s", snapshot).isEqualTo(whole.idsAt(snapshot));
        }
        assertThat(insertedIds(wholeStore, whole.secondInsert(), whole.secondInsert())).containsExactly(3L);
    }

    @Test
    void aPartialFileWithoutItsSnapshotsIsRefusedWhereRowsMustBeToldApart()
    {
        for (long snapshot : List.of(stripped.firstInsert(), stripped.secondInsert())) {
            assertThatThrownBy(() -> cat(strippedStore, "--snapshot", Long.toString(snapshot)))
                    .isInstanceOf(PartialFileWithoutSnapshotsException.class)
                    .hasMessage(stripped.scanRefusal(snapshot));
        }
        assertThatThrownBy(() -> insertedIds(strippedStore, stripped.secondInsert(), stripped.lastInsert()))
                .isInstanceOf(PartialFileWithoutSnapshotsException.class)
                .hasMessage(stripped.insertionsRefusal(stripped.secondInsert(), stripped.lastInsert()));

        // bin/moraine cat prints it with its code and fails
        PrintStream err = System.err;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        int status;
        System.setErr(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            status = Main.run(new String[] {"cat", "--store", strippedStore.toString(), PartialFileLake.TABLE, "--snapshot", Long.toString(stripped.firstInsert())});
        }
        finally {
            System.setErr(err);
        }
        assertThat(status).isEqualTo(1);
        assertThat(printed.toString(StandardCharsets.UTF_8)).isEqualTo("moraine cat: CORRUPTION: " + stripped.scanRefusal(stripped.firstInsert()) + System.lineSeparator());
    }

    /** Where DuckLake reads the file (no row to leave out), so does cat. */
    @Test
    void aPartialFileWithoutItsSnapshotsIsReadWhereNoRowIsLeftOut()
    {
        assertThat(ids(cat(strippedStore))).containsExactly(1L, 2L, 3L, 4L, 5L);
        assertThat(ids(cat(strippedStore, "--snapshot", Long.toString(stripped.lastInsert())))).containsExactly(1L, 2L, 3L, 4L, 5L);
        assertThat(insertedIds(strippedStore, stripped.firstInsert(), stripped.lastInsert())).containsExactly(1L, 2L, 3L, 4L, 5L);
    }

    private static String cat(StoreUri store, String... args)
    {
        StringWriter out = new StringWriter();
        List<String> all = new ArrayList<>(List.of("--store", store.toString(), PartialFileLake.TABLE));
        all.addAll(List.of(args));
        CatCommand.run(all.toArray(String[]::new), out);
        return out.toString();
    }

    /** The ids of the CSV's rows (after its header), ascending. */
    private static List<Long> ids(String csv)
    {
        return csv.lines().skip(1).map(line -> Long.parseLong(line.split(",")[0])).sorted().toList();
    }

    /** The ids inserted in {@code [from, to]}, read by the engine-free change-feed reader, ascending. */
    private static List<Long> insertedIds(StoreUri store, long from, long to)
    {
        List<Long> ids = new ArrayList<>();
        try (MoraineCatalog catalog = MoraineCatalog.open(store, OpenMode.READ_ONLY); CatalogSnapshot end = catalog.at(to)) {
            long tableId = end.table("main", "t").orElseThrow().getLong("table_id");
            new ChangeFeedReader(end, ChangeFeed.forTable(end, tableId, from), LocalFileSystem.INSTANCE).read((kind, snapshot, rowId, row) -> {
                if (kind == ChangeKind.INSERTION) {
                    ids.add((Long) row[0]);
                }
            });
        }
        return ids.stream().sorted().toList();
    }
}
