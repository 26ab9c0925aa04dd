package io.moraine.spark;

import io.moraine.core.store.StoreUri;
import io.moraine.importer.CatalogImporter;
import io.moraine.importer.DuckLakeSource;
import io.moraine.testing.CanonicalRowsAssert;
import io.moraine.testing.CanonicalText;
import io.moraine.testing.DuckLakeOracle;
import io.moraine.testing.LakeColumn;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Reads that the oracle workload does not reach, on a lake of its own: columns swapped by renames (a filter must
 * prune by column id, never by the file's names), a renamed struct field read through nested pruning, uuid and
 * interval values, metadata columns, limits and statistics; and every kind of bad input, refused with an analysis
 * error naming the problem.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestMoraineSparkReads
{
    private static final List<String> LAKE = List.of(
            "CREATE TABLE lake.main.t (a INTEGER, b INTEGER, info STRUCT(x INTEGER, y VARCHAR), u UUID, w INTERVAL)",
            "INSERT INTO lake.main.t SELECT i, 1000000 + i, {'x': i, 'y': 'y' || i}, "
                    + "('00000000-0000-0000-0000-' || lpad(i::VARCHAR, 12, '0'))::UUID, INTERVAL (i) SECOND FROM range(3000) t(i)",
            "ALTER TABLE lake.main.t RENAME COLUMN a TO tmp",
            "ALTER TABLE lake.main.t RENAME COLUMN b TO a",
            "ALTER TABLE lake.main.t RENAME COLUMN tmp TO b",
            "ALTER TABLE lake.main.t RENAME COLUMN info.y TO why",
            "INSERT INTO lake.main.t VALUES (5000, 5001, {'x': -1, 'why': 'inlined'}, '00000000-0000-0000-0000-00000000abcd', INTERVAL 3 DAY)",
            "DELETE FROM lake.main.t WHERE b % 10 = 3",
            "CREATE TABLE lake.main.gone (v INTEGER)",
            "INSERT INTO lake.main.gone VALUES (1)",
            "INSERT INTO lake.main.gone VALUES (2)",
            "CALL ducklake_expire_snapshots('lake', versions => [8])",
            // One file of four row groups (DuckDB's 122,880 rows each), keys ascending; the key column renamed after it was written.
            "SET threads = 1",
            "CREATE TABLE lake.main.big (id BIGINT, v BIGINT)",
            "INSERT INTO lake.main.big SELECT i, i * 3 FROM range(400000) t(i)",
            "ALTER TABLE lake.main.big RENAME COLUMN id TO key",
            // HUGEINT and UHUGEINT, inlined in their lossless 16-byte form (ArrowHugeint): listed and refused as before.
            "CREATE TABLE lake.main.wide (id INTEGER, h HUGEINT, u UHUGEINT, s STRUCT(h HUGEINT))",
            "INSERT INTO lake.main.wide VALUES (1, -99999999999999999999999999999999999999, 99999999999999999999999999999999999999, "
                    + "{'h': -12345678901234567890123}), (2, 0, 0, {'h': NULL}), (3, NULL, NULL, NULL), (4, 9223372036854775808, 18446744073709551616, {'h': 1})",
            // More inlined rows than one piece (8,192 rows), under two schema versions, some deleted.
            "CALL lake.set_option('data_inlining_row_limit', 20000)",
            "CREATE TABLE lake.main.many (id INTEGER, s STRUCT(a INTEGER, b VARCHAR))",
            "INSERT INTO lake.main.many SELECT i, {'a': i, 'b': 'b' || i} FROM range(10000) t(i)",
            "ALTER TABLE lake.main.many RENAME COLUMN s.b TO c",
            "INSERT INTO lake.main.many SELECT i, {'a': -i, 'c': NULL} FROM range(10000, 13000) t(i)",
            "DELETE FROM lake.main.many WHERE id % 7 = 0");

    private DuckLakeOracle oracle;
    private SparkSession spark;
    private String store;
    private Path directory;

    @BeforeAll
    void setUp()
            throws Exception
    {
        directory = Files.createTempDirectory("moraine-spark-reads");
        oracle = DuckLakeOracle.create(directory.resolve("lake"), DuckLakeOracle.CatalogDatabase.DUCKDB);
        for (String statement : LAKE) {
            oracle.execute(statement);
        }
        StoreUri uri = StoreUri.parse(directory.resolve("store").toString());
        CatalogImporter.importCatalog(DuckLakeSource.parse(oracle.catalogCopy(directory.resolve("catalog-copy.ducklake"))), uri, Optional.empty(),
                CatalogImporter.Progress.SILENT);
        store = uri.toString();
        spark = SparkSessions.start(store, Map.of());
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
    void swappedColumnsAreReadAndPrunedByColumnId()
            throws Exception
    {
        for (String where : List.of("a = 1000005", "b = 5", "a > 1002990", "b < 4", "b IN (7, 2999, 5000)", "b IS NOT NULL AND b < 3")) {
            assertSame("SELECT a, b FROM lake.main.t WHERE " + where, "SELECT a, b FROM lake.main.t WHERE " + where);
        }
        assertThat(spark.sql("SELECT count(*) FROM lake.main.t WHERE a = 1000005").first().getLong(0)).isEqualTo(1);
    }

    @Test
    void rowGroupsArePrunedByFieldIdAfterARename()
    {
        Dataset<Row> query = spark.sql("SELECT key, v FROM lake.main.big WHERE key BETWEEN 250000 AND 250010");
        List<Row> rows = query.collectAsList();
        assertThat(rows).hasSize(11).allSatisfy(row -> assertThat(row.getLong(1)).isEqualTo(row.getLong(0) * 3));
        long scanned = scala.jdk.javaapi.CollectionConverters.asJava(query.queryExecution().executedPlan().collectLeaves()).stream()
                .filter(org.apache.spark.sql.execution.datasources.v2.BatchScanExec.class::isInstance)
                .mapToLong(scan -> scan.metrics().apply("numOutputRows").value())
                .sum();
        // The file's column is still named id: a filter by name would find no column key and skip nothing.
        assertThat(scanned).as("rows the scan read (of 400,000 in four row groups)").isBetween(11L, 122_880L);
    }

    @Test
    void renamedStructFieldIsReadThroughNestedPruning()
            throws Exception
    {
        assertSame("SELECT b, info.why FROM lake.main.t", "SELECT b, info.why FROM lake.main.t");
        assertSame("SELECT b, info.x FROM lake.main.t WHERE info.x < 10", "SELECT b, info.x FROM lake.main.t WHERE info.x < 10");
        assertSame("SELECT info FROM lake.main.t", "SELECT info FROM lake.main.t");
    }

    @Test
    void uuidAndIntervalValuesAreDuckDbsText()
            throws Exception
    {
        List<List<String>> expected = oracle.query("SELECT b, CAST(u AS VARCHAR), CAST(w AS VARCHAR) FROM lake.main.t").stream()
                .map(row -> row.stream().map(value -> value == null ? "NULL" : value).toList()).toList();
        List<List<String>> actual = spark.sql("SELECT b, u, w FROM lake.main.t").collectAsList().stream()
                .map(row -> java.util.stream.IntStream.range(0, 3).mapToObj(i -> row.isNullAt(i) ? null : row.get(i).toString()).toList())
                .toList();
        assertThat(actual).containsExactlyInAnyOrderElementsOf(expected).hasSize(2701);
    }

    @Test
    void inlinedHugeintAndUhugeintAreListedAsDecimal38AndRefusedWhenRead()
            throws Exception
    {
        assertThat(spark.table("lake.main.wide").schema().fields()).extracting(field -> field.name() + " " + field.dataType().simpleString())
                .containsExactly("id int", "h decimal(38,0)", "u decimal(38,0)", "s struct<h:decimal(38,0)>");
        assertSame("SELECT id FROM lake.main.wide", "SELECT id FROM lake.main.wide");
        for (String column : List.of("h", "u", "s")) {
            assertThatThrownBy(() -> spark.sql("SELECT " + column + " FROM lake.main.wide").collectAsList()).as(column)
                    .hasMessageContaining("MORAINE_UNSUPPORTED").hasMessageContaining("column " + column + " of");
        }
    }

    @Test
    void metadataColumnsNameEachRowsFileRowIdAndSnapshot()
            throws Exception
    {
        List<List<String>> expected = oracle.query("SELECT b, rowid FROM lake.main.t");
        List<Row> rows = spark.sql("SELECT b, _row_id, _file, _pos, _snapshot_id FROM lake.main.t").collectAsList();
        assertThat(rows.stream().map(row -> List.of(Integer.toString(row.getInt(0)), Long.toString(row.getLong(1)))).toList())
                .containsExactlyInAnyOrderElementsOf(expected);
        for (Row row : rows) {
            boolean inlined = row.getInt(0) == 5000;
            assertThat(row.isNullAt(2)).as("_file of b=%s", row.get(0)).isEqualTo(inlined);
            assertThat(row.isNullAt(3)).as("_pos of b=%s", row.get(0)).isEqualTo(inlined);
            if (!inlined) {
                assertThat(row.getString(2)).endsWith(".parquet");
                // One file, written in one go: a row's position is its row id.
                assertThat(row.getLong(3)).isEqualTo(row.getLong(1));
                assertThat(row.getLong(4)).isEqualTo(2);
            }
            else {
                assertThat(row.getLong(4)).isEqualTo(7);
            }
        }
        assertThat(spark.sql("SELECT * FROM lake.main.t").columns()).containsExactly("b", "a", "info", "u", "w");
    }

    @Test
    void inlinedRowsBeyondOnePieceAreReadInSeveralPartitions()
            throws Exception
    {
        assertSame("SELECT id, s.c, s.a FROM lake.main.many", "SELECT id, s.c, s.a FROM lake.main.many");
        assertSame("SELECT s FROM lake.main.many WHERE id > 9990", "SELECT s FROM lake.main.many WHERE id > 9990");
        List<List<String>> expected = oracle.query("SELECT id, rowid, snapshot_id FROM lake.main.many");
        List<Row> rows = spark.sql("SELECT id, _row_id, _snapshot_id, _file, _pos FROM lake.main.many").collectAsList();
        assertThat(rows.stream().map(row -> List.of(Integer.toString(row.getInt(0)), Long.toString(row.getLong(1)), Long.toString(row.getLong(2)))).toList())
                .containsExactlyInAnyOrderElementsOf(expected);
        assertThat(rows).allSatisfy(row -> assertThat(row.isNullAt(3) && row.isNullAt(4)).isTrue());
        // 11,142 rows: two pieces of the first version's 8,571 (8,192 rows at most each), one of the second's 2,571
        assertThat(spark.sql("SELECT * FROM lake.main.many").rdd().getNumPartitions()).isGreaterThanOrEqualTo(3);
        assertThat(spark.sql("SELECT count(*) FROM lake.main.many").first().getLong(0)).isEqualTo(expected.size());
    }

    @Test
    void limitsAndCountsAreExact()
    {
        assertThat(spark.sql("SELECT * FROM lake.main.t LIMIT 7").collectAsList()).hasSize(7);
        assertThat(spark.sql("SELECT count(*) FROM lake.main.t").first().getLong(0)).isEqualTo(2701);
        assertThat(spark.sql("SELECT count(*) FROM lake.main.t VERSION AS OF 2").first().getLong(0)).isEqualTo(3000);
    }

    @Test
    void joinsWithRuntimeFiltersMatchDuckDb()
            throws Exception
    {
        String join = "SELECT x.b, x.a FROM lake.main.t x JOIN (SELECT b FROM lake.main.t WHERE b < 10) y ON x.b = y.b";
        spark.conf().set("spark.sql.optimizer.dynamicPartitionPruning.reuseBroadcastOnly", "false");
        try {
            assertSame(join, join);
        }
        finally {
            spark.conf().unset("spark.sql.optimizer.dynamicPartitionPruning.reuseBroadcastOnly");
        }
    }

    @Test
    void namespacesAndTablesAreListed()
    {
        assertThat(spark.sql("SHOW NAMESPACES IN lake").collectAsList().stream().map(row -> row.getString(0)).toList()).containsExactly("main");
        assertThat(spark.sql("SHOW TABLES IN lake.main").collectAsList().stream().map(row -> row.getString(1)).toList()).containsExactlyInAnyOrder("t", "gone", "big", "wide", "many");
        assertThat(spark.read().format("moraine").option("store", store).load("main.t").count()).isEqualTo(2701);
        assertThat(spark.read().format("moraine").option("store", store).option("versionAsOf", "2").load("t").count()).isEqualTo(3000);
    }

    @Test
    void dataPathOverrideReadsTheLakeFromWhereItWasMoved()
            throws Exception
    {
        Path moved = directory.resolve("moved");
        try (var paths = Files.walk(oracle.dataPath())) {
            for (Path source : paths.toList()) {
                Path target = moved.resolve(oracle.dataPath().relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                }
                else {
                    Files.copy(source, target);
                }
            }
        }
        String query = "SELECT count(*), sum(b) FROM %s.main.t";
        spark.conf().set("spark.sql.catalog.moved", MoraineSparkCatalog.class.getName());
        spark.conf().set("spark.sql.catalog.moved.store", store);
        spark.conf().set("spark.sql.catalog.moved.data-path", moved.toString());
        assertThat(spark.sql(query.formatted("moved")).collectAsList()).isEqualTo(spark.sql(query.formatted("lake")).collectAsList());
        List<Row> files = spark.sql("SELECT path FROM moved.main.t.files").collectAsList();
        assertThat(files).isNotEmpty().allSatisfy(row -> assertThat(row.getString(0)).startsWith(moved.toString()));
        spark.conf().set("spark.sql.catalog.nowhere2", MoraineSparkCatalog.class.getName());
        spark.conf().set("spark.sql.catalog.nowhere2.store", store);
        spark.conf().set("spark.sql.catalog.nowhere2.data-path", moved.resolve("absent").toString());
        assertThatThrownBy(() -> spark.sql(query.formatted("nowhere2")).collectAsList()).hasStackTraceContaining(moved.resolve("absent").toString());
    }

    @Test
    @SuppressWarnings("deprecation")
    void bothCatalogClassNamesWork()
    {
        // the session's "lake" is io.moraine.spark.MoraineSparkCatalog; the former name is a deprecated subclass
        assertThat(spark.conf().get("spark.sql.catalog.lake")).isEqualTo("io.moraine.spark.MoraineSparkCatalog");
        assertThat(MoraineCatalog.class.getSuperclass()).isEqualTo(MoraineSparkCatalog.class);
        spark.conf().set("spark.sql.catalog.former", "io.moraine.spark.MoraineCatalog");
        spark.conf().set("spark.sql.catalog.former.store", store);
        String query = "SELECT count(*), sum(b) FROM %s.main.t";
        assertThat(spark.sql(query.formatted("former")).collectAsList()).isEqualTo(spark.sql(query.formatted("lake")).collectAsList());
        assertThat(spark.sql("SHOW TABLES IN former.main").collectAsList()).isEqualTo(spark.sql("SHOW TABLES IN lake.main").collectAsList());
    }

    @Test
    void metadataTablesListSnapshotsAndFiles()
            throws Exception
    {
        List<Row> snapshots = spark.sql("SELECT snapshot_id, changes FROM lake.main.t.snapshots ORDER BY snapshot_id").collectAsList();
        List<List<String>> expected = oracle.query("SELECT snapshot_id FROM ducklake_snapshots('lake') ORDER BY 1");
        assertThat(snapshots.stream().map(row -> Long.toString(row.getLong(0))).toList()).isEqualTo(expected.stream().map(List::getFirst).toList());
        assertThat(spark.table("lake.main.t.files").columns()).containsExactlyElementsOf(
                io.moraine.core.metadata.MetadataTableType.FILES.columns().stream().map(io.moraine.core.row.Column::name).toList());
        long compared = 0;
        for (List<String> snapshot : oracle.query("SELECT snapshot_id FROM ducklake_snapshots('lake') ORDER BY 1")) {
            long id = Long.parseLong(snapshot.getFirst());
            if (id == 0 || id == 8) {
                // Before the table, and expired.
                continue;
            }
            List<List<String>> duckdb = oracle.query("SELECT f.data_file_id, l.data_file, f.record_count, f.file_size_bytes, f.row_id_start, f.begin_snapshot, "
                    + "l.delete_file, CAST(l.delete_file_size_bytes AS BIGINT) FROM ducklake_list_files('lake', 't', snapshot_version => " + id + ") l "
                    + "JOIN __ducklake_metadata_lake.ducklake_data_file f ON l.data_file LIKE '%' || f.path AND f.begin_snapshot <= " + id
                    + " AND (f.end_snapshot IS NULL OR f.end_snapshot > " + id + ") AND f.table_id = (SELECT table_id FROM "
                    + "__ducklake_metadata_lake.ducklake_table WHERE table_name = 't' LIMIT 1) ORDER BY 1");
            List<List<String>> read = spark.sql("SELECT data_file_id, path, record_count, file_size_bytes, row_id_start, begin_snapshot, delete_file_path, "
                    + "delete_file_size_bytes FROM lake.main.t.files VERSION AS OF " + id + " ORDER BY 1").collectAsList().stream()
                    .map(row -> java.util.stream.IntStream.range(0, row.size()).mapToObj(i -> row.isNullAt(i) ? null : row.get(i).toString()).toList())
                    .toList();
            assertThat(read).as("lake.main.t.files at snapshot " + id).isEqualTo(duckdb);
            compared += read.size();
        }
        assertThat(compared).as("file rows compared").isGreaterThanOrEqualTo(5);
        Row newest = spark.sql("SELECT record_count, delete_file_path, delete_count FROM lake.main.t.files").first();
        assertThat(newest.getLong(0)).isEqualTo(3000);
        assertThat(newest.getString(1)).isNotNull();
        assertThat(newest.getLong(2)).isEqualTo(300);
    }

    @Test
    void badInputIsRefusedNamingTheProblem()
    {
        spark.conf().set("spark.sql.catalog.nowhere", MoraineSparkCatalog.class.getName());
        spark.conf().set("spark.sql.catalog.nowhere.store", store + "-absent");
        assertAnalysisError("SELECT * FROM nowhere.main.t", "cannot open the moraine store", store + "-absent");
        spark.conf().set("spark.sql.catalog.unset", MoraineSparkCatalog.class.getName());
        assertAnalysisError("SELECT * FROM unset.main.t", "no 'store' setting");
        assertAnalysisError("SELECT * FROM lake.nosuch.t", "nosuch");
        assertAnalysisError("SELECT * FROM lake.main.nosuch", "nosuch");
        assertAnalysisError("SELECT * FROM lake.main.t VERSION AS OF 99", "99");
        assertAnalysisError("SELECT * FROM lake.main.t VERSION AS OF 8", "8", "expired");
        assertAnalysisError("SELECT * FROM lake.main.t VERSION AS OF 'x'", "snapshot id", "'x'");
        assertAnalysisError("SELECT * FROM lake.main.t TIMESTAMP AS OF '2000-01-01 00:00:00'", "2000-01-01");
        assertAnalysisError("SELECT * FROM lake.main.gone VERSION AS OF 2", "does not exist at snapshot 2");
        spark.conf().set("spark.sql.catalog.readonly", MoraineSparkCatalog.class.getName());
        spark.conf().set("spark.sql.catalog.readonly.store", store);
        spark.conf().set("spark.sql.catalog.readonly.read-only", "true");
        assertAnalysisError("CREATE TABLE readonly.main.n (v INT)", "read-only");
        assertAnalysisError("DROP TABLE readonly.main.t", "read-only");
        assertAnalysisError("INSERT INTO readonly.main.t SELECT * FROM readonly.main.t LIMIT 1", "read-only");
        assertThatThrownBy(() -> spark.read().format("moraine").option("store", store).option("versionAsOf", "2").option("timestampAsOf", "2030-01-01 00:00:00")
                .load("main.t").count())
                .isInstanceOf(AnalysisException.class)
                .hasMessageContaining("version")
                .hasMessageContaining("timestamp");
        assertThatThrownBy(() -> spark.read().format("moraine").load("main.t").count())
                .isInstanceOf(AnalysisException.class)
                .hasMessageContaining("no 'store' setting");
    }

    private void assertAnalysisError(String sql, String... fragments)
    {
        var assertion = assertThatThrownBy(() -> spark.sql(sql).collectAsList()).as(sql).isInstanceOf(AnalysisException.class);
        for (String fragment : fragments) {
            assertion.hasMessageContaining(fragment);
        }
    }

    /** Spark's rows of {@code sparkSql} equal DuckDB's rows of {@code duckDbSql}, compared as canonical text. */
    private void assertSame(String sparkSql, String duckDbSql)
            throws Exception
    {
        List<Row> rows = spark.sql(sparkSql).collectAsList();
        String[] names = spark.sql(sparkSql).columns();
        List<LakeColumn> columns = Arrays.stream(names).map(name -> new LakeColumn(name, "?")).toList();
        List<List<String>> actual = rows.stream().map(row -> java.util.stream.IntStream.range(0, names.length)
                .mapToObj(i -> CanonicalText.of(SparkCanonicalRows.plain(row.get(i)))).toList()).toList();
        List<List<String>> expected = duckDb(duckDbSql, names.length);
        CanonicalRowsAssert.assertSameRows(sparkSql, columns, expected, "Spark", actual);
        assertThat(actual).as(sparkSql).isNotEmpty();
    }

    private List<List<String>> duckDb(String sql, int width)
            throws Exception
    {
        List<List<String>> rows = new java.util.ArrayList<>();
        try (var statement = oracle.connection().createStatement(); var result = statement.executeQuery(sql)) {
            while (result.next()) {
                List<String> row = new java.util.ArrayList<>();
                for (int i = 1; i <= width; i++) {
                    Object value = result.getObject(i);
                    if (value instanceof org.duckdb.DuckDBStruct struct) {
                        value = new CanonicalText.Struct(struct.getMap());
                    }
                    row.add(CanonicalText.of(value));
                }
                rows.add(row);
            }
        }
        return rows;
    }
}
