package io.moraine.inline.flush;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.inline.read.InlineReader;
import io.moraine.core.inline.read.InlineScan;
import io.moraine.core.inline.read.InlineSelection;
import io.moraine.core.row.Row;
import io.moraine.core.error.StoreException;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreUri;
import io.moraine.core.scan.InlinedFileDeletes;
import io.moraine.files.LakeFileSystems;
import io.moraine.importer.OracleImports;
import io.moraine.testing.DuckLakeOracle;
import io.moraine.testing.S3ProxyServer;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The flush of a lake whose data path is in S3 (S3Proxy; the catalog store there too, one set of AWS_* settings for
 * both). The lake is made by DuckDB + DuckLake on local files (DuckDB's httpfs is not available offline), its files
 * uploaded and its catalog imported with the data path rewritten to {@code s3://}; DuckLake's own flush of the local
 * original is the oracle for the files ours uploads.
 */
class InlineFlushS3Test
{
    private static final long T = 1;
    private static final long P = 2;

    @TempDir
    Path temp;

    @Test
    void flushUploadsTheDataAndDeleteFilesDuckLakesOwnFlushWrites()
            throws Exception
    {
        S3ProxyServer s3 = S3ProxyServer.shared();
        String bucket = s3.createBucket("moraine-flush-lake");
        String dataPath = "s3://" + bucket + "/lake/data/";
        StoreUri store = StoreUri.parse("s3://" + bucket + "/catalog");
        try (DuckLakeOracle oracle = DuckLakeOracle.create(temp.resolve("lake"), DuckLakeOracle.CatalogDatabase.DUCKDB)) {
            // t: only inlined rows, some ended (a delete file for the flushed data file); p: a Parquet file with a delete
            // file and inlined deletes of its rows (a new cumulative delete file, read from S3 and rewritten).
            oracle.execute("CREATE TABLE lake.t (id INTEGER, name VARCHAR, tags VARCHAR[])");
            oracle.execute("INSERT INTO lake.t VALUES (1, 'one', ['a', NULL]), (2, 'two', []), (3, NULL, NULL)");
            oracle.execute("INSERT INTO lake.t VALUES (4, 'four', ['d'])");
            oracle.execute("DELETE FROM lake.t WHERE id = 2");
            oracle.execute("UPDATE lake.t SET name = 'THREE' WHERE id = 3");
            oracle.execute("CREATE TABLE lake.p (a INTEGER, b VARCHAR)");
            oracle.execute("INSERT INTO lake.p SELECT i, 'b' || i FROM range(2000) t(i)");
            oracle.execute("DELETE FROM lake.p WHERE a < 100");
            oracle.execute("DELETE FROM lake.p WHERE a IN (500, 501)");
            s3.upload(bucket, oracle.dataPath(), "lake/data/");
            OracleImports.importInto(oracle, temp.resolve("copy.ducklake"), store, Optional.of(dataPath));
            Set<String> uploadedBefore = s3.objects(bucket, "lake/data/").keySet();

            Path downloads = temp.resolve("downloads");
            List<String> ourDeletedVersions = new ArrayList<>();
            Set<String> ourPDeletions = new TreeSet<>();
            List<String> ourDataFiles = new ArrayList<>();
            try (MoraineCatalog catalog = MoraineCatalog.open(store, OpenMode.READ_WRITE)) {
                long head = catalog.headSnapshotId().orElseThrow();
                List<InlineFlusher.FlushedFile> flushed = InlineFlusher.flush(catalog, Optional.empty(), TestLakeFiles.FILES);
                assertThat(flushed).singleElement().satisfies(file -> {
                    assertThat(file.dataFile()).startsWith(dataPath + "main/t/ducklake-");
                    assertThat(file.rows()).isEqualTo(5); // four inserted and the updated version of 3
                });
                assertThat(catalog.headSnapshotId()).as("one commit").hasValue(head + 1);

                Map<String, Long> objects = s3.objects(bucket, "lake/data/");
                try (CatalogSnapshot after = catalog.latest(); RootAllocator allocator = new RootAllocator();
                        InlineScan scan = InlineReader.scan(after.reader(), T, new InlineSelection.ForFlush(Long.MAX_VALUE), Optional.empty(), 100, allocator)) {
                    assertThat(scan.selectedRows()).as("inline rows left after the flush").isZero();
                    assertThat(InlinedFileDeletes.positionsAt(after.reader(), P, Long.MAX_VALUE)).isEmpty();

                    Row dataFile = after.dataFiles(T).toList().getFirst();
                    String dataKey = "lake/data/main/t/" + dataFile.getString("path");
                    Path localData = downloadChecked(s3, bucket, dataKey, dataFile, objects, downloads);
                    ourDataFiles.add(localData.toString());
                    assertThat(columnsOf(oracle, localData.toString())).contains("_ducklake_internal_row_id", "_ducklake_internal_snapshot_id");
                    Row deleteFile = after.deleteFiles(T).toList().getFirst();
                    Path localDelete = downloadChecked(s3, bucket, "lake/data/main/t/" + deleteFile.getString("path"), deleteFile, objects, downloads);
                    assertThat(oracle.query("SELECT DISTINCT file_path FROM read_parquet('" + localDelete + "')"))
                            .as("the delete file names its data file by its S3 path").containsExactly(List.of("s3://" + bucket + "/" + dataKey));
                    ourDeletedVersions.addAll(deletedVersions(oracle, localData.toString(), localDelete.toString()));

                    for (Row pDelete : after.deleteFiles(P).toList()) {
                        String key = "lake/data/main/p/" + pDelete.getString("path");
                        assertThat(uploadedBefore).as("p's delete file is new").doesNotContain(key);
                        Path local = downloadChecked(s3, bucket, key, pDelete, objects, downloads);
                        ourPDeletions.addAll(deletions(oracle, pDelete.getLong("data_file_id"), local.toString()));
                    }
                }
            }

            oracle.execute("CALL ducklake_flush_inlined_data('lake')");
            String theirData = oracle.dataPath().resolve("main/t/" + oracle.query("SELECT path FROM __ducklake_metadata_lake.ducklake_data_file "
                    + "WHERE table_id = " + T + " AND end_snapshot IS NULL").getFirst().getFirst()).toString();
            String ours = ourDataFiles.getFirst();
            assertThat(columnsOf(oracle, ours)).as("columns and field ids").isEqualTo(columnsOf(oracle, theirData));
            assertThat(count(oracle, "SELECT * FROM read_parquet('" + ours + "') EXCEPT ALL SELECT * FROM read_parquet('" + theirData + "')")).isZero();
            assertThat(count(oracle, "SELECT * FROM read_parquet('" + theirData + "') EXCEPT ALL SELECT * FROM read_parquet('" + ours + "')")).isZero();
            String theirDelete = oracle.dataPath().resolve("main/t/" + oracle.query("SELECT path FROM __ducklake_metadata_lake.ducklake_delete_file "
                    + "WHERE table_id = " + T + " AND end_snapshot IS NULL").getFirst().getFirst()).toString();
            assertThat(ourDeletedVersions).as("(row id, begin, end) of the rows t's delete file deletes")
                    .isNotEmpty().containsExactlyInAnyOrderElementsOf(deletedVersions(oracle, theirData, theirDelete));
            Set<String> theirPDeletions = new TreeSet<>();
            for (List<String> file : oracle.query("SELECT data_file_id, path FROM __ducklake_metadata_lake.ducklake_delete_file "
                    + "WHERE table_id = " + P + " AND end_snapshot IS NULL")) {
                theirPDeletions.addAll(deletions(oracle, Long.parseLong(file.get(0)), oracle.dataPath().resolve("main/p/" + file.get(1)).toString()));
            }
            assertThat(ourPDeletions).as("file:position@snapshot of p's deleted rows").isEqualTo(theirPDeletions).hasSize(102);
        }
    }

    @Test
    void aRefusedUploadCommitsNothingAndSaysWhere()
            throws Exception
    {
        S3ProxyServer s3 = S3ProxyServer.shared();
        String bucket = s3.createBucket("moraine-flush-refused");
        String dataPath = "s3://moraine-flush-no-such-bucket/lake/data/";
        StoreUri store = StoreUri.parse("s3://" + bucket + "/catalog");
        try (DuckLakeOracle oracle = DuckLakeOracle.create(temp.resolve("refused-lake"), DuckLakeOracle.CatalogDatabase.DUCKDB)) {
            oracle.execute("CREATE TABLE lake.r (a INTEGER)");
            oracle.execute("INSERT INTO lake.r VALUES (1), (2), (3)");
            OracleImports.importInto(oracle, temp.resolve("refused-copy.ducklake"), store, Optional.of(dataPath));
        }
        try (MoraineCatalog catalog = MoraineCatalog.open(store, OpenMode.READ_WRITE)) {
            long head = catalog.headSnapshotId().orElseThrow();
            assertThatThrownBy(() -> InlineFlusher.flush(catalog, Optional.empty(), TestLakeFiles.FILES))
                    .isInstanceOf(StoreException.class)
                    .hasMessageContaining("writing " + dataPath + "main/r/ducklake-")
                    .hasMessageContaining("The specified bucket does not exist")
                    .hasMessageContaining("check that its bucket or directory exists")
                    .hasMessageContaining("nothing was committed to the catalog");
            assertThat(catalog.headSnapshotId()).as("the catalog head").hasValue(head);
            try (CatalogSnapshot after = catalog.latest(); RootAllocator allocator = new RootAllocator();
                    InlineScan scan = InlineReader.scan(after.reader(), 1, new InlineSelection.ForFlush(Long.MAX_VALUE), Optional.empty(), 100, allocator)) {
                assertThat(scan.selectedRows()).as("the inlined rows are all still there").isEqualTo(3);
                assertThat(after.dataFiles(1).toList()).isEmpty();
            }
        }
    }

    @Test
    void aDataFileLargerThanOneUploadPartIsUploadedInPartsAndDuckDbReadsItsRows()
            throws Exception
    {
        S3ProxyServer s3 = S3ProxyServer.shared();
        String bucket = s3.createBucket("moraine-flush-large");
        String dataPath = "s3://" + bucket + "/lake/data/";
        StoreUri store = StoreUri.parse("s3://" + bucket + "/catalog");
        Map<String, String> environment = new HashMap<>(System.getenv());
        environment.put("MORAINE_S3_PART_SIZE", "5MB");
        try (DuckLakeOracle oracle = DuckLakeOracle.create(temp.resolve("large-lake"), DuckLakeOracle.CatalogDatabase.DUCKDB);
                LakeFileSystems files = LakeFileSystems.fromEnvironment(environment)) {
            oracle.execute("CALL lake.set_option('data_inlining_row_limit', 10000)");
            oracle.execute("CREATE TABLE lake.big (id INTEGER, payload VARCHAR)");
            // 1 KiB of hex digits a row, which Parquet cannot compress: some 8 MB of data file, more than one 5 MB part.
            oracle.execute("INSERT INTO lake.big SELECT i, array_to_string(list_transform(range(32), x -> md5((i * 32 + x)::VARCHAR)), '') "
                    + "FROM range(8000) t(i)");
            String inlinedRows = rowsDigest(oracle, "lake.big");
            OracleImports.importInto(oracle, temp.resolve("large-copy.ducklake"), store, Optional.of(dataPath));

            try (MoraineCatalog catalog = MoraineCatalog.open(store, OpenMode.READ_WRITE)) {
                List<InlineFlusher.FlushedFile> flushed = InlineFlusher.flush(catalog, Optional.empty(), files);
                assertThat(flushed).singleElement().satisfies(file -> assertThat(file.rows()).as("rows flushed").isEqualTo(8000));
                try (CatalogSnapshot after = catalog.latest()) {
                    Row dataFile = after.dataFiles(flushed.getFirst().tableId()).toList().getFirst();
                    assertThat(dataFile.getLong("file_size_bytes")).as("bytes of the data file").isGreaterThan(5L * 1024 * 1024);
                    Path local = downloadChecked(s3, bucket, "lake/data/main/big/" + dataFile.getString("path"), dataFile,
                            s3.objects(bucket, "lake/data/"), temp.resolve("large-downloads"));
                    assertThat(rowsDigest(oracle, "read_parquet('" + local + "')")).as("the rows DuckDB reads from the uploaded file")
                            .isEqualTo(inlinedRows);
                }
            }
        }
    }

    /** The row count and an order-independent hash of a relation's (id, payload) rows. */
    private static String rowsDigest(DuckLakeOracle oracle, String relation)
            throws SQLException
    {
        return oracle.query("SELECT count(*) || ':' || sum(hash(id, payload)) FROM " + relation).getFirst().getFirst();
    }

    /** Downloads a file the flush uploaded, checking the object's size and footer length against its catalog row. */
    private static Path downloadChecked(S3ProxyServer s3, String bucket, String key, Row file, Map<String, Long> objects, Path downloads)
            throws IOException
    {
        assertThat(objects).as("uploaded objects").containsEntry(key, file.getLong("file_size_bytes"));
        Path local = s3.download(bucket, key, downloads.resolve(key));
        assertThat(file.getLong("footer_size")).as("footer size of " + key).isEqualTo(footerLength(local));
        return local;
    }

    private static long footerLength(Path file)
            throws IOException
    {
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            byte[] tail = new byte[8];
            in.seek(in.length() - 8);
            in.readFully(tail);
            return ByteBuffer.wrap(tail, 0, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
        }
    }

    private static String columnsOf(DuckLakeOracle oracle, String path)
            throws SQLException
    {
        return oracle.query("SELECT string_agg(name || ':' || coalesce(field_id::VARCHAR, '-'), ',' ORDER BY name) FROM parquet_schema('"
                + path + "')").getFirst().getFirst();
    }

    private static List<String> deletions(DuckLakeOracle oracle, long dataFileId, String deleteFile)
            throws SQLException
    {
        return oracle.query("SELECT '" + dataFileId + ":' || pos || '@' || _ducklake_internal_snapshot_id FROM read_parquet('" + deleteFile + "')")
                .stream().map(List::getFirst).toList();
    }

    /** The versions a delete file deletes from its data file, as "row_id/begin/end". */
    private static List<String> deletedVersions(DuckLakeOracle oracle, String dataFile, String deleteFile)
            throws SQLException
    {
        return oracle.query("SELECT f._ducklake_internal_row_id || '/' || f._ducklake_internal_snapshot_id || '/' || d._ducklake_internal_snapshot_id "
                + "FROM read_parquet('" + dataFile + "', file_row_number = true) f JOIN read_parquet('" + deleteFile + "') d ON d.pos = f.file_row_number")
                .stream().map(List::getFirst).toList();
    }

    private static long count(DuckLakeOracle oracle, String sql)
            throws SQLException
    {
        return Long.parseLong(oracle.query("SELECT count(*) FROM (" + sql + ")").getFirst().getFirst());
    }
}
