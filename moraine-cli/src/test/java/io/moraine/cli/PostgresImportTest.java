package io.moraine.cli;

import io.moraine.cli.DuckLakeAnswers.Answer;
import io.moraine.core.catalog.CatalogDump;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.row.TableKind;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreUri;
import io.moraine.testing.DuckLakeOracle;
import io.moraine.testing.PostgresServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code bin/moraine import} from a {@code ducklake:postgres:} catalog that DuckDB + DuckLake wrote into a real
 * PostgreSQL server ({@link PostgresServer}): once just before the workload flushes its inlined rows (DuckLake's
 * inlined tables then live in PostgreSQL, with its column types) and once after the whole workload. Every catalog
 * table of the store equals PostgreSQL's, and every table at every surviving snapshot, read back with
 * {@code bin/moraine cat}, equals DuckDB's answer.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PostgresImportTest
{
    @RegisterExtension
    static final PostgresServer POSTGRES = new PostgresServer();

    @TempDir
    static Path directory;

    private DuckLakeOracle oracle;
    private Imported beforeFlush;
    private Imported afterWorkload;

    /** A store imported from the PostgreSQL catalog, with what DuckLake answered at that moment. */
    private record Imported(StoreUri store, Map<TableKind, List<String>> catalogCsv, List<Answer> answers) {}

    @BeforeAll
    void setUp()
            throws Exception
    {
        oracle = DuckLakeOracle.createOnPostgres(directory.resolve("lake"), POSTGRES.conninfo());
        assertThat(oracle.catalogSpec()).startsWith("ducklake:postgres:");
        oracle.run(DuckLakeOracle.WORKLOAD_BEFORE_FLUSH);
        beforeFlush = importNow("before-flush");
        oracle.run(DuckLakeOracle.WORKLOAD_FROM_FLUSH);
        afterWorkload = importNow("after-workload");
    }

    /** Runs {@code bin/moraine import} on the catalog as PostgreSQL holds it now (DuckLake keeps it attached). */
    private Imported importNow(String name)
            throws Exception
    {
        Map<TableKind, List<String>> csv = new EnumMap<>(TableKind.class);
        for (TableKind kind : TableKind.values()) {
            csv.put(kind, oracle.catalogCsv(kind));
        }
        List<Answer> answers = DuckLakeAnswers.everyTableAtEverySnapshot(oracle);
        StoreUri store = StoreUri.parse(directory.resolve(name).toString());
        assertThat(Main.run(new String[] {"import", "--source", oracle.catalogSpec(), "--store", store.toString()}))
                .as("bin/moraine import exit status").isZero();
        assertThat(Main.run(new String[] {"verify", "--store", store.toString(), "--check-files"})).as("bin/moraine verify exit status").isZero();
        return new Imported(store, csv, answers);
    }

    @AfterAll
    void tearDown()
            throws Exception
    {
        if (oracle != null) {
            oracle.close();
        }
    }

    @Test
    void theCatalogHeldInlinedRowsBeforeTheFlushAndFilesAfterIt()
    {
        assertThat(beforeFlush.catalogCsv().get(TableKind.INLINED_DATA_TABLES)).as("inlined tables registered").hasSizeGreaterThan(1);
        assertThat(afterWorkload.catalogCsv().get(TableKind.DATA_FILE)).as("the workload wrote Parquet").hasSizeGreaterThan(2);
        assertThat(afterWorkload.catalogCsv().get(TableKind.DELETE_FILE)).as("the workload wrote delete files").hasSizeGreaterThan(1);
    }

    @Test
    void everyCatalogTableBeforeTheFlushEqualsPostgres()
    {
        assertThat(assertCatalogTables(beforeFlush)).isGreaterThan(50);
    }

    @Test
    void everyCatalogTableAfterTheWorkloadEqualsPostgres()
    {
        assertThat(assertCatalogTables(afterWorkload)).isGreaterThan(50);
    }

    @Test
    void everyTableAtEverySnapshotBeforeTheFlushMatchesDuckLake()
    {
        assertEveryAnswer(beforeFlush);
    }

    @Test
    void everyTableAtEverySnapshotAfterTheWorkloadMatchesDuckLake()
    {
        assertEveryAnswer(afterWorkload);
    }

    /** Compares every catalog table's rows with PostgreSQL's (as DuckDB reads them); returns the rows compared. */
    private static int assertCatalogTables(Imported imported)
    {
        int rows = 0;
        try (MoraineCatalog catalog = MoraineCatalog.open(imported.store(), OpenMode.READ_ONLY)) {
            for (TableKind kind : TableKind.values()) {
                StringWriter dump = new StringWriter();
                CatalogDump.writeCsv(catalog, kind, dump);
                List<String> expected = imported.catalogCsv().get(kind);
                assertThat(DuckLakeAnswers.lines(dump.toString())).as(kind.tableName())
                        .containsExactlyElementsOf(DuckLakeAnswers.lines(String.join("\n", expected) + "\n"));
                rows += expected.size() - 1;
            }
        }
        System.out.printf("%s: %d catalog rows compared in %d catalog tables%n", imported.store(), rows, TableKind.values().length);
        return rows;
    }

    private static void assertEveryAnswer(Imported imported)
    {
        int compared = 0;
        int rows = 0;
        for (Answer answer : imported.answers()) {
            StringWriter out = new StringWriter();
            List<String> args = new ArrayList<>(List.of("--store", imported.store().toString(), answer.table(),
                    "--snapshot", Long.toString(answer.snapshot())));
            CatCommand.run(args.toArray(String[]::new), out);
            assertThat(DuckLakeAnswers.lines(out.toString())).as("%s at snapshot %d", answer.table(), answer.snapshot())
                    .containsExactlyElementsOf(answer.lines());
            compared++;
            rows += answer.lines().size() - 1;
        }
        System.out.printf("%s: %d tables at snapshots compared, %d rows%n", imported.store(), compared, rows);
        assertThat(imported.answers()).hasSizeGreaterThan(10);
        assertThat(compared).isEqualTo(imported.answers().size());
        assertThat(rows).as("rows compared").isGreaterThan(1000);
    }
}
