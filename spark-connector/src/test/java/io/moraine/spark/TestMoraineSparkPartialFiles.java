package io.moraine.spark;

import io.moraine.core.error.PartialFileWithoutSnapshotsException;
import io.moraine.core.store.StoreUri;
import io.moraine.importer.CatalogImporter;
import io.moraine.importer.DuckLakeSource;
import io.moraine.testing.PartialFileLake;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A partial file (DuckLake's flush of three inlined inserts, {@link PartialFileLake}) through Spark: with its
 * {@code _ducklake_internal_snapshot_id} column, each snapshot sees its own rows; without it (catalog {@code stripped}),
 * a scan or change feed that must tell the rows apart is refused with the core's message — the one Trino and
 * {@code bin/moraine cat} give — where DuckLake refuses too (Spark's reader would have read the missing column as NULLs),
 * and the reads DuckLake answers are answered the same way.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestMoraineSparkPartialFiles
{
    private PartialFileLake whole;
    private PartialFileLake stripped;
    private SparkSession spark;

    @BeforeAll
    void setUp()
            throws Exception
    {
        Path directory = Files.createTempDirectory("moraine-spark-partial-files");
        whole = PartialFileLake.create(directory.resolve("whole"));
        stripped = PartialFileLake.withoutSnapshotColumn(directory.resolve("stripped"));
        String[] stores = new String[2];
        int i = 0;
        for (PartialFileLake lake : List.of(whole, stripped)) {
            StoreUri store = StoreUri.parse(directory.resolve("store-" + i).toString());
            CatalogImporter.importCatalog(DuckLakeSource.parse(lake.oracle().catalogCopy(directory.resolve("catalog-" + i + ".ducklake"))), store,
                    Optional.empty(), CatalogImporter.Progress.SILENT);
            stores[i++] = store.toString();
        }
        spark = SparkSessions.start(stores[0], Map.of(), Map.of(
                "spark.sql.catalog.stripped", MoraineSparkCatalog.class.getName(),
                "spark.sql.catalog.stripped.store", stores[1]));
    }

    @AfterAll
    void tearDown()
            throws Exception
    {
        try (PartialFileLake first = whole; PartialFileLake second = stripped) {
            if (spark != null) {
                spark.stop();
            }
        }
    }

    @Test
    void eachSnapshotSeesItsOwnRowsOfAPartialFile()
    {
        for (long snapshot : List.of(whole.firstInsert(), whole.secondInsert(), whole.lastInsert())) {
            assertThat(ids("SELECT id FROM lake.main.t VERSION AS OF " + snapshot + " ORDER BY id")).as("snapshot %s", snapshot).isEqualTo(whole.idsAt(snapshot));
        }
        assertThat(ids("SELECT _snapshot_id FROM lake.main.t ORDER BY id"))
                .containsExactly(whole.firstInsert(), whole.firstInsert(), whole.secondInsert(), whole.lastInsert(), whole.lastInsert());
        assertThat(ids("SELECT id FROM lake.main.t CHANGES FROM VERSION " + whole.secondInsert() + " TO VERSION " + whole.secondInsert())).containsExactly(3L);
        assertThat(ids(() -> changeFeed("lake", whole.secondInsert(), whole.secondInsert()))).containsExactly(3L);
    }

    @Test
    void aPartialFileWithoutItsSnapshotsIsRefusedWhereRowsMustBeToldApart()
    {
        for (long snapshot : List.of(stripped.firstInsert(), stripped.secondInsert())) {
            assertRefused(() -> spark.sql("SELECT id FROM stripped.main.t VERSION AS OF " + snapshot), stripped.scanRefusal(snapshot));
            assertRefused(() -> spark.read().format("moraine").option("store", storeOf("stripped")).option("versionAsOf", Long.toString(snapshot)).load("main.t"),
                    stripped.scanRefusal(snapshot));
        }
        String insertions = stripped.insertionsRefusal(stripped.secondInsert(), stripped.lastInsert());
        assertRefused(() -> spark.sql("SELECT id FROM stripped.main.t CHANGES FROM VERSION " + stripped.secondInsert() + " TO VERSION " + stripped.lastInsert()),
                insertions);
        assertRefused(() -> changeFeed("stripped", stripped.secondInsert(), stripped.lastInsert()), insertions);
    }

    /** Where DuckLake reads the file (no row to leave out), so does Spark, every row's snapshot the file's begin_snapshot. */
    @Test
    void aPartialFileWithoutItsSnapshotsIsReadWhereNoRowIsLeftOut()
    {
        assertThat(ids("SELECT id FROM stripped.main.t ORDER BY id")).containsExactly(1L, 2L, 3L, 4L, 5L);
        assertThat(ids("SELECT id FROM stripped.main.t VERSION AS OF " + stripped.lastInsert() + " ORDER BY id")).containsExactly(1L, 2L, 3L, 4L, 5L);
        assertThat(ids("SELECT DISTINCT _snapshot_id FROM stripped.main.t")).containsExactly(stripped.firstInsert());
        assertThat(ids("SELECT id FROM stripped.main.t CHANGES FROM VERSION " + stripped.firstInsert() + " TO VERSION " + stripped.lastInsert() + " ORDER BY id"))
                .containsExactly(1L, 2L, 3L, 4L, 5L);
    }

    private Dataset<Row> changeFeed(String catalog, long from, long to)
    {
        return spark.read().format("moraine").option("store", storeOf(catalog)).option("readChangeFeed", "true").option("startingVersion", Long.toString(from))
                .option("endingVersion", Long.toString(to)).load("main.t").select("id");
    }

    private String storeOf(String catalog)
    {
        return spark.conf().get("spark.sql.catalog." + catalog + ".store");
    }

    private List<Long> ids(String sql)
    {
        return ids(() -> spark.sql(sql));
    }

    private static List<Long> ids(Supplier<Dataset<Row>> query)
    {
        return query.get().collectAsList().stream().map(row -> ((Number) row.get(0)).longValue()).toList();
    }

    /** Reading the query fails with the core's refusal, message unchanged, somewhere in its causes (Spark wraps an executor's failure). */
    private static void assertRefused(Supplier<Dataset<Row>> query, String message)
    {
        Throwable failure = catchThrowable(() -> query.get().collectAsList());
        assertThat(failure).as("reading the query fails").isNotNull();
        Throwable refusal = failure;
        while (refusal != null && !(refusal instanceof PartialFileWithoutSnapshotsException)) {
            refusal = refusal.getCause();
        }
        assertThat(refusal).as("the core's refusal among the causes of %s", failure).isNotNull();
        assertThat(refusal).hasMessage(message);
    }
}
