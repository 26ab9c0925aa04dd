package io.moraine.trino;

import io.moraine.core.store.StoreUri;
import io.moraine.importer.CatalogImporter;
import io.moraine.importer.DuckLakeSource;
import io.moraine.testing.PartialFileLake;
import io.trino.Session;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryFailedException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.trino.testing.TestingSession.testSession;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A partial file (DuckLake's flush of three inlined inserts, {@link PartialFileLake}) through Trino: with its
 * {@code _ducklake_internal_snapshot_id} column, each snapshot sees its own rows; without it (catalog {@code stripped}),
 * a read that must tell the rows apart is refused with the core's message — the one Spark and {@code bin/moraine cat}
 * give — where DuckLake refuses too, and the reads DuckLake answers are answered the same way.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestMorainePartialFiles
{
    private PartialFileLake whole;
    private PartialFileLake stripped;
    private DistributedQueryRunner trino;

    @BeforeAll
    void setUp()
            throws Exception
    {
        Path directory = Files.createTempDirectory("moraine-trino-partial-files");
        whole = PartialFileLake.create(directory.resolve("whole"));
        stripped = PartialFileLake.withoutSnapshotColumn(directory.resolve("stripped"));
        trino = DistributedQueryRunner.builder(Session.builder(testSession()).setCatalog("lake").setSchema("main").build()).setWorkerCount(0).build();
        trino.installPlugin(new MorainePlugin());
        for (Map.Entry<String, PartialFileLake> lake : Map.of("lake", whole, "stripped", stripped).entrySet()) {
            StoreUri store = StoreUri.parse(directory.resolve("store-" + lake.getKey()).toString());
            CatalogImporter.importCatalog(DuckLakeSource.parse(lake.getValue().oracle().catalogCopy(directory.resolve(lake.getKey() + ".ducklake"))), store,
                    Optional.empty(), CatalogImporter.Progress.SILENT);
            trino.createCatalog(lake.getKey(), "moraine", Map.of("moraine.store-uri", store.toString()));
        }
    }

    @AfterAll
    void tearDown()
            throws Exception
    {
        try (PartialFileLake first = whole; PartialFileLake second = stripped) {
            if (trino != null) {
                trino.close();
            }
        }
    }

    @Test
    void eachSnapshotSeesItsOwnRowsOfAPartialFile()
    {
        for (long snapshot : List.of(whole.firstInsert(), whole.secondInsert(), whole.lastInsert())) {
            assertThat(ids("SELECT id FROM lake.main.t FOR VERSION AS OF " + snapshot + " ORDER BY id")).as("snapshot %s", snapshot).isEqualTo(whole.idsAt(snapshot));
        }
        assertThat(ids("SELECT \"$snapshot_id\" FROM lake.main.t ORDER BY id"))
                .containsExactly(whole.firstInsert(), whole.firstInsert(), whole.secondInsert(), whole.lastInsert(), whole.lastInsert());
        assertThat(ids("SELECT id FROM TABLE(lake.system.table_insertions(schema_name => 'main', table_name => 't', start_snapshot => " + whole.secondInsert()
                + ", end_snapshot => " + whole.secondInsert() + "))")).containsExactly(3L);
    }

    @Test
    void aPartialFileWithoutItsSnapshotsIsRefusedWhereRowsMustBeToldApart()
    {
        for (long snapshot : List.of(stripped.firstInsert(), stripped.secondInsert())) {
            assertRefused("SELECT id FROM stripped.main.t FOR VERSION AS OF " + snapshot, stripped.scanRefusal(snapshot));
        }
        assertRefused("SELECT count(*) FROM stripped.main.t FOR VERSION AS OF " + stripped.secondInsert(), stripped.scanRefusal(stripped.secondInsert()));
        assertRefused("SELECT id FROM TABLE(stripped.system.table_insertions(schema_name => 'main', table_name => 't', start_snapshot => " + stripped.secondInsert()
                + ", end_snapshot => " + stripped.lastInsert() + "))", stripped.insertionsRefusal(stripped.secondInsert(), stripped.lastInsert()));
    }

    /** Where DuckLake reads the file (no row to leave out), so does Trino, every row's snapshot the file's begin_snapshot. */
    @Test
    void aPartialFileWithoutItsSnapshotsIsReadWhereNoRowIsLeftOut()
    {
        assertThat(ids("SELECT id FROM stripped.main.t ORDER BY id")).containsExactly(1L, 2L, 3L, 4L, 5L);
        assertThat(ids("SELECT id FROM stripped.main.t FOR VERSION AS OF " + stripped.lastInsert() + " ORDER BY id")).containsExactly(1L, 2L, 3L, 4L, 5L);
        assertThat(ids("SELECT DISTINCT \"$snapshot_id\" FROM stripped.main.t")).containsExactly(stripped.firstInsert());
        assertThat(ids("SELECT id FROM TABLE(stripped.system.table_insertions(schema_name => 'main', table_name => 't', start_snapshot => "
                + stripped.firstInsert() + ", end_snapshot => " + stripped.lastInsert() + ")) ORDER BY id")).containsExactly(1L, 2L, 3L, 4L, 5L);
    }

    private List<Long> ids(String sql)
    {
        return trino.execute(sql).getMaterializedRows().stream().map(MaterializedRow::getFields).map(fields -> ((Number) fields.getFirst()).longValue()).toList();
    }

    private void assertRefused(String sql, String message)
    {
        assertThatThrownBy(() -> trino.execute(sql))
                .as(sql)
                .isInstanceOf(QueryFailedException.class)
                .hasMessage(message)
                .satisfies(failure -> assertThat(trino.getCoordinator().getDispatchManager().getQueryInfo(((QueryFailedException) failure).getQueryId()).getErrorCode())
                        .isEqualTo(MoraineErrorCode.MORAINE_CORRUPTION.toErrorCode()));
    }
}
