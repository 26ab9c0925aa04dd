package io.moraine.trino;

import com.google.common.collect.HashMultiset;
import com.google.common.collect.Multiset;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.io.LocalFileSystem;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreUri;
import io.moraine.core.tiny.TinyFilePublisher;
import io.moraine.importer.CatalogImporter;
import io.moraine.importer.DuckLakeSource;
import io.moraine.testing.DuckLakeOracle;
import io.moraine.testing.TinyFileLake;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.trino.Session;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedRow;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import static io.trino.testing.TestingSession.testSession;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tiny-file copies (issue #19), counted as {@link TestMoraineFileOperations} counts, by Trino's file-system tracing: on
 * a lake of 1,000 single-row Parquet files written by DuckDB, once the copies are published, queries that read every
 * row open no data or delete file and answer exactly as DuckDB; with the store's option off (threshold 0), or the
 * session's {@code tiny_files_enabled} off, the same queries open every file.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestMoraineTinyFiles
{
    private static final int FILES = 1_000;
    /** Queries that must read each row (count(*) too: this connector pushes no aggregation into the catalog). */
    private static final List<String> READING = List.of(
            "SELECT count(*) FROM t",
            "SELECT count(*), sum(v), min(s), max(s) FROM t WHERE v >= 0");

    private DuckLakeOracle oracle;
    private DistributedQueryRunner trino;
    private int comparisons;

    @BeforeAll
    void setUp()
            throws Exception
    {
        Path directory = Files.createTempDirectory("moraine-trino-tiny-files");
        oracle = TinyFileLake.create(directory.resolve("lake"), FILES);
        String copy = oracle.catalogCopy(directory.resolve("catalog-copy.ducklake"));
        StoreUri copies = StoreUri.parse(directory.resolve("store-copies").toString());
        StoreUri off = StoreUri.parse(directory.resolve("store-off").toString());
        for (StoreUri store : List.of(copies, off)) {
            CatalogImporter.importCatalog(DuckLakeSource.parse(copy), store, Optional.empty(), CatalogImporter.Progress.SILENT);
            try (MoraineCatalog catalog = MoraineCatalog.open(store, OpenMode.READ_WRITE)) {
                TinyFilePublisher.Result published = TinyFilePublisher.publish(catalog, LocalFileSystem.INSTANCE);
                assertThat(published.published()).as("copies published").isEqualTo(FILES + TinyFileLake.DELETED_TABLE_FILES * 2);
                if (store == off) {
                    catalog.setTinyFileThresholdBytes(0);
                }
            }
        }
        trino = DistributedQueryRunner.builder(Session.builder(testSession()).setCatalog("lake").setSchema("main").build()).setWorkerCount(0).build();
        trino.installPlugin(new MorainePlugin());
        trino.createCatalog("lake", "moraine", Map.of("moraine.store-uri", copies.toString()));
        trino.createCatalog("off", "moraine", Map.of("moraine.store-uri", off.toString()));
    }

    @AfterAll
    void tearDown()
            throws Exception
    {
        MoraineQueryRunner.close(trino, oracle);
    }

    @Test
    void copiesServeEveryFileWithoutOpeningOne()
            throws Exception
    {
        for (String sql : READING) {
            assertThat(fileOpens(trino.getDefaultSession(), sql)).as(sql).isEmpty();
            assertSameAsDuckDb(trino.getDefaultSession(), sql, sql.replace("FROM t", "FROM lake.main.t"));
        }
        assertThat(comparisons).isEqualTo(READING.size());
    }

    @Test
    void deleteFilesAreAppliedFromTheirCopies()
            throws Exception
    {
        String sql = "SELECT id, v FROM d ORDER BY id";
        assertThat(fileOpens(trino.getDefaultSession(), sql)).isEmpty();
        int before = comparisons;
        assertSameAsDuckDb(trino.getDefaultSession(), sql, "SELECT id, v FROM lake.main.d ORDER BY id");
        assertSameAsDuckDb(trino.getDefaultSession(), "SELECT count(*), sum(v) FROM d", "SELECT count(*), sum(v) FROM lake.main.d");
        assertThat(comparisons - before).isEqualTo(2);
        // The same rows from the files themselves: 8 data files and their 8 delete files.
        Session off = Session.builder(trino.getDefaultSession()).setCatalog("off").build();
        Multiset<String> opens = fileOpens(off, sql);
        assertThat(opens.count("data file")).isEqualTo(TinyFileLake.DELETED_TABLE_FILES);
        assertThat(opens.count("delete file")).isEqualTo(TinyFileLake.DELETED_TABLE_FILES);
        assertSameAsDuckDb(off, sql, "SELECT id, v FROM lake.main.d ORDER BY id");
    }

    @Test
    void theOptionOffOpensEveryFile()
            throws Exception
    {
        Session off = Session.builder(trino.getDefaultSession()).setCatalog("off").build();
        Session readFiles = Session.builder(trino.getDefaultSession()).setCatalogSessionProperty("lake", MoraineSessionProperties.TINY_FILES_ENABLED, "false").build();
        int before = comparisons;
        for (String sql : READING) {
            assertOpensEveryFile(off, sql);
        }
        // the session's switch (for benchmarks): one query is enough to show the files are read instead
        assertOpensEveryFile(readFiles, READING.getFirst());
        assertThat(comparisons - before).isEqualTo(READING.size() + 1);
    }

    private void assertOpensEveryFile(Session session, String sql)
            throws Exception
    {
        Multiset<String> opens = fileOpens(session, sql);
        assertThat(opens.count("data file")).as(sql).isEqualTo(FILES);
        assertThat(opens.elementSet()).as(sql).containsExactly("data file");
        assertSameAsDuckDb(session, sql, sql.replace("FROM t", "FROM lake.main.t"));
    }

    private void assertSameAsDuckDb(Session session, String trinoSql, String duckDbSql)
            throws Exception
    {
        List<String> expected = oracle.query(duckDbSql).stream().map(row -> String.join("|", row)).toList();
        List<String> actual = trino.execute(session, trinoSql).getMaterializedRows().stream()
                .map(TestMoraineTinyFiles::text)
                .toList();
        assertThat(expected).isNotEmpty();
        assertThat(actual).as(trinoSql).isEqualTo(expected);
        comparisons++;
    }

    private static String text(MaterializedRow row)
    {
        return row.getFields().stream().map(String::valueOf).collect(Collectors.joining("|"));
    }

    /** The lake files a query opens ({@code InputFile.newInput} or {@code newStream}), by kind: data file or delete file. */
    private Multiset<String> fileOpens(Session session, String sql)
    {
        trino.executeWithPlan(session, sql);
        Multiset<String> opens = HashMultiset.create();
        for (SpanData span : trino.getSpans()) {
            String location = span.getAttributes().get(AttributeKey.stringKey("trino.file.location"));
            if (location != null && (span.getName().equals("InputFile.newInput") || span.getName().equals("InputFile.newStream"))) {
                opens.add(location.endsWith("-delete.parquet") ? "delete file" : "data file");
            }
        }
        return opens;
    }
}
