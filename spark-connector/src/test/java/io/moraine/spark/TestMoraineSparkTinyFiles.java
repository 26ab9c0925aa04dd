package io.moraine.spark;

import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.io.LocalFileSystem;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreUri;
import io.moraine.core.tiny.TinyFilePublisher;
import io.moraine.importer.CatalogImporter;
import io.moraine.importer.DuckLakeSource;
import io.moraine.spark.files.CatalogCopies;
import io.moraine.testing.DuckLakeOracle;
import io.moraine.testing.TinyFileLake;
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
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tiny-file copies (issue #19) in Spark: on a lake of single-row Parquet files written by DuckDB, once the copies
 * are published, Spark's vectorized reader reads every file from its task's copy, opening none (counted by a counting
 * {@code file:} Hadoop file system under the whole session), with DuckDB's answers; with the store's option off, or the
 * catalog's {@code tiny-files.enabled=false}, it opens each file.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestMoraineSparkTinyFiles
{
    /**
     * 300 files (the benchmark {@code bin/moraine bench tiny-files} takes the 5,000); the scan packs them into
     * shared partitions as Spark's file sources do ({@link DataFileGroupPartition}), so they are a few tasks, not 300.
     */
    private static final int FILES = Integer.getInteger("moraine.test.tiny-files", 300);
    /** Reads every row: a plain count(*) is answered from the catalog's record counts when no delete applies. */
    private static final String READING = "SELECT count(*), sum(v), min(s), max(s) FROM %s.main.t WHERE v >= 0";

    private DuckLakeOracle oracle;
    private SparkSession spark;
    private String dataPath;
    private int comparisons;

    @BeforeAll
    void setUp()
            throws Exception
    {
        Path directory = Files.createTempDirectory("moraine-spark-tiny-files");
        oracle = TinyFileLake.create(directory.resolve("lake"), FILES);
        dataPath = oracle.dataPath().toString();
        String copy = oracle.catalogCopy(directory.resolve("catalog-copy.ducklake"));
        StoreUri copies = StoreUri.parse(directory.resolve("store-copies").toString());
        StoreUri off = StoreUri.parse(directory.resolve("store-off").toString());
        for (StoreUri store : List.of(copies, off)) {
            CatalogImporter.importCatalog(DuckLakeSource.parse(copy), store, Optional.empty(), CatalogImporter.Progress.SILENT);
            try (MoraineCatalog catalog = MoraineCatalog.open(store, OpenMode.READ_WRITE)) {
                assertThat(TinyFilePublisher.publish(catalog, LocalFileSystem.INSTANCE).published()).isEqualTo(FILES + TinyFileLake.DELETED_TABLE_FILES * 2);
                if (store == off) {
                    catalog.setTinyFileThresholdBytes(0);
                }
            }
        }
        spark = SparkSessions.start(copies.toString(), Map.of(), Map.of(
                "spark.hadoop.fs.file.impl", CountingLocalFileSystem.class.getName(),
                "spark.hadoop.fs.file.impl.disable.cache", "true",
                "spark.sql.catalog.off", io.moraine.spark.MoraineSparkCatalog.class.getName(),
                "spark.sql.catalog.off.store", off.toString(),
                "spark.sql.catalog.files", io.moraine.spark.MoraineSparkCatalog.class.getName(),
                "spark.sql.catalog.files.store", copies.toString(),
                "spark.sql.catalog.files." + MoraineSettings.TINY_FILES_ENABLED, "false"));
    }

    @AfterAll
    void tearDown()
            throws Exception
    {
        try (DuckLakeOracle ignored = oracle) {
            if (spark != null) {
                spark.stop();
            }
        }
    }

    @Test
    void copiesServeEveryFileWithoutOpeningOne()
            throws Exception
    {
        CountingLocalFileSystem.drain();
        assertSameAsDuckDb(READING.formatted("lake"), READING.formatted("lake"));
        assertSameAsDuckDb("SELECT count(*) FROM lake.main.t", "SELECT count(*) FROM lake.main.t");
        assertThat(lakeFileOpens()).isEmpty();
        assertThat(CatalogCopies.openCount()).as("copies still registered after the readers closed").isZero();
        assertPackedIntoFewPartitions("SELECT v FROM lake.main.t WHERE v >= 0");
    }

    /** The files are read by a few shared partitions, every file in exactly one. */
    private void assertPackedIntoFewPartitions(String sql)
    {
        org.apache.spark.sql.Dataset<org.apache.spark.sql.Row> query = spark.sql(sql);
        query.collectAsList();
        List<org.apache.spark.sql.connector.read.InputPartition> partitions = scala.jdk.javaapi.CollectionConverters.asJava(
                        query.queryExecution().executedPlan().collectLeaves()).stream()
                .filter(org.apache.spark.sql.execution.datasources.v2.BatchScanExec.class::isInstance)
                .flatMap(scan -> scala.jdk.javaapi.CollectionConverters.asJava(((org.apache.spark.sql.execution.datasources.v2.BatchScanExec) scan).inputPartitions()).stream())
                .toList();
        long files = partitions.stream().mapToLong(partition -> partition instanceof DataFileGroupPartition group ? group.files().size() : 1).sum();
        assertThat(files).as("data files planned for %s", sql).isEqualTo(FILES);
        assertThat(partitions.size()).as("partitions reading %s files", FILES).isLessThanOrEqualTo(Math.max(1, FILES / 10));
        System.out.printf("%d tiny files read by %d partitions%n", FILES, partitions.size());
    }

    @Test
    void deleteFilesAreAppliedFromTheirCopies()
            throws Exception
    {
        String sql = "SELECT id, v FROM %s.main.d ORDER BY id";
        CountingLocalFileSystem.drain();
        assertSameAsDuckDb(sql.formatted("lake"), sql.formatted("lake"));
        assertSameAsDuckDb("SELECT count(*), sum(v) FROM lake.main.d", "SELECT count(*), sum(v) FROM lake.main.d");
        assertThat(lakeFileOpens()).isEmpty();
        // from the files themselves: the 8 data files and their 8 delete files
        assertSameAsDuckDb(sql.formatted("off"), sql.formatted("lake"));
        Map<String, Integer> opens = lakeFileOpens();
        assertThat(opens.keySet().stream().filter(path -> path.endsWith("-delete.parquet")).count()).isEqualTo(TinyFileLake.DELETED_TABLE_FILES);
        assertThat(opens.keySet().stream().filter(path -> !path.endsWith("-delete.parquet")).count()).isEqualTo(TinyFileLake.DELETED_TABLE_FILES);
    }

    @Test
    void theOptionOffOpensEveryFile()
            throws Exception
    {
        int before = comparisons;
        for (String catalog : List.of("off", "files")) {
            CountingLocalFileSystem.drain();
            assertSameAsDuckDb(READING.formatted(catalog), READING.formatted("lake"));
            Map<String, Integer> opens = lakeFileOpens();
            assertThat(opens).as(catalog).hasSize(FILES);
            assertThat(opens.keySet()).as(catalog).allMatch(path -> path.contains("/main/t/"));
        }
        assertThat(comparisons - before).isEqualTo(2);
    }

    /** Opens of the lake's files since the last call, by path. */
    private Map<String, Integer> lakeFileOpens()
    {
        return CountingLocalFileSystem.drain().entrySet().stream()
                .filter(entry -> entry.getKey().startsWith(dataPath) && entry.getKey().endsWith(".parquet"))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    private void assertSameAsDuckDb(String sparkSql, String duckDbSql)
            throws Exception
    {
        List<String> expected = oracle.query(duckDbSql).stream().map(row -> String.join("|", row)).toList();
        List<String> actual = spark.sql(sparkSql).collectAsList().stream().map(TestMoraineSparkTinyFiles::text).toList();
        assertThat(expected).isNotEmpty();
        assertThat(actual).as(sparkSql).isEqualTo(expected);
        comparisons++;
    }

    private static String text(Row row)
    {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < row.length(); i++) {
            text.append(i == 0 ? "" : "|").append(row.get(i));
        }
        return text.toString();
    }
}
