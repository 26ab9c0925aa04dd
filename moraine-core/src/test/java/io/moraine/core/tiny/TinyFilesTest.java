package io.moraine.core.tiny;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.catalog.NewCatalog;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.io.LocalFileSystem;
import io.moraine.core.keyspace.RowKeys;
import io.moraine.core.keyspace.Subspace;
import io.moraine.core.keyspace.TinyFileKeys;
import io.moraine.core.scan.DataFileTask;
import io.moraine.core.scan.ScanBuilder;
import io.moraine.core.scan.ScanTask;
import io.moraine.core.scan.TaskStream;
import io.moraine.core.store.StoreOptions;
import io.moraine.core.store.StoreUri;
import io.moraine.core.tx.CommitListener;
import io.moraine.core.verify.StoreVerifier;
import io.moraine.core.verify.VerifyProblem;
import io.moraine.core.verify.VerifyReport;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tiny-file copies in the core: publishing (what is copied, what is skipped and counted, idempotence), planning (tasks
 * carry copies only when the store's option is above 0 and the scan wants them), lifecycle (deleting a file's row
 * deletes its copy in the same batch), the sweep and what verify reports of copies. The files are on the local file system; the store is real
 * SlateDB in memory.
 */
class TinyFilesTest
{
    private static final long TABLE = 1;
    private static final long TINY = 0;
    private static final long OVERSIZE = 1;
    private static final long MISMATCH = 2;
    private static final long MISSING = 3;
    private static final long NOT_PARQUET = 4;
    private static final long TINY_2 = 5;
    private static final long DELETE_OF_TINY = 6;

    @TempDir
    Path lake;

    private final List<Map<ByteBuffer, byte[]>> batches = new ArrayList<>();
    private MoraineCatalog catalog;
    private final Map<Long, byte[]> contents = new HashMap<>();

    @BeforeEach
    void createLake()
            throws IOException
    {
        Path table = Files.createDirectories(lake.resolve("main/t1"));
        write(table, TINY, parquetLike(1500));
        write(table, OVERSIZE, parquetLike(5000));
        write(table, MISMATCH, parquetLike(900));
        write(table, NOT_PARQUET, "not a parquet file at all".repeat(10).getBytes(StandardCharsets.UTF_8));
        write(table, TINY_2, parquetLike(2000));
        write(table, DELETE_OF_TINY, parquetLike(700));
        CommitListener listener = (landed, writes) -> batches.add(new java.util.LinkedHashMap<>(writes));
        catalog = MoraineCatalog.create(StoreUri.parse("memory:///tiny-" + UUID.randomUUID()), new NewCatalog(lake + "/", false, false, NewCatalog.CREATED_BY),
                StoreOptions.DEFAULTS, List.of(), listener);
        Instant start = Instant.parse("2026-01-01T00:00:00Z");
        var load = catalog.begin(-1);
        load.insert(Row.of(TableKind.SNAPSHOT, 0L, start, 0L, 1L, 0L));
        load.insert(Row.of(TableKind.SNAPSHOT_CHANGES, 0L, "created_schema:\"main\"", null, null, null));
        load.insert(Row.of(TableKind.SCHEMA, 0L, new UUID(0, 0), 0L, null, "main", "main/", true));
        load.insert(Row.of(TableKind.SNAPSHOT, 1L, start.plusSeconds(1), 1L, 2L, 0L));
        load.insert(Row.of(TableKind.TABLE, TABLE, new UUID(1, 1), 1L, null, 0L, "t1", "t1/", true));
        load.insert(Row.of(TableKind.COLUMN, 1L, 1L, null, TABLE, 1L, "a", "int64", null, "NULL", true, null, "literal", "duckdb"));
        load.insert(Row.of(TableKind.SNAPSHOT_CHANGES, 1L, "created_table:\"main\".\"t1\"", null, null, null));
        load.insert(Row.of(TableKind.SNAPSHOT, 2L, start.plusSeconds(2), 1L, 2L, 7L));
        load.insert(Row.of(TableKind.SNAPSHOT_CHANGES, 2L, "inserted_into_table:1", null, null, null));
        for (long id : List.of(TINY, OVERSIZE, MISMATCH, MISSING, NOT_PARQUET, TINY_2)) {
            long size = id == MISMATCH ? 950 : id == MISSING ? 1000 : contents.get(id).length;
            load.insert(Row.of(TableKind.DATA_FILE, id, TABLE, 2L, null, null, name(id), true, "parquet", 1L, size, 100L, id, null, null, null, null));
        }
        load.insert(Row.of(TableKind.DELETE_FILE, DELETE_OF_TINY, TABLE, 2L, null, TINY, name(DELETE_OF_TINY), true, "parquet", 1L,
                (long) contents.get(DELETE_OF_TINY).length, 100L, null, null));
        load.commit();
    }

    @org.junit.jupiter.api.AfterEach
    void close()
    {
        catalog.close();
    }

    @Test
    void publishCopiesTinyFilesOnceAndCountsWhatItSkips()
    {
        assertThat(catalog.tinyFileThresholdBytes()).isEqualTo(4096);
        TinyFilePublisher.Result first = TinyFilePublisher.publish(catalog, LocalFileSystem.INSTANCE);
        assertThat(first.files()).isEqualTo(7);
        assertThat(first.published()).isEqualTo(3); // TINY, TINY_2 and the delete file
        assertThat(first.bytesWritten()).isEqualTo(1500 + 2000 + 700);
        assertThat(first.oversize()).isEqualTo(1);
        assertThat(first.sizeMismatch()).isEqualTo(1);
        assertThat(first.missing()).isEqualTo(1);
        assertThat(first.notParquet()).isEqualTo(1);
        assertThat(first.alreadyCopied()).isZero();
        assertThat(first.batches()).isEqualTo(1);
        assertThat(copyIds()).containsExactly("9/" + TINY, "9/" + TINY_2, "12/" + DELETE_OF_TINY);
        int batchesBefore = batches.size();

        TinyFilePublisher.Result second = TinyFilePublisher.publish(catalog, LocalFileSystem.INSTANCE);
        assertThat(second.published()).isZero();
        assertThat(second.alreadyCopied()).isEqualTo(3);
        assertThat(second.batches()).isZero();
        assertThat(batches).hasSize(batchesBefore); // no commit, and no snapshot, for a copy
        assertThat(catalog.headSnapshotId()).hasValue(2);
    }

    @Test
    void aFileWhoseRowIsDeletedWhileItIsReadGetsNoCopy()
    {
        // The row of TINY_2 is deleted by a commit that lands after the publisher listed the file and before its batch.
        io.moraine.core.io.LakeFileSystem deletingWhileRead = new io.moraine.core.io.LakeFileSystem()
        {
            @Override
            public org.apache.parquet.io.InputFile newInputFile(String path, java.util.OptionalLong length)
            {
                if (path.endsWith(name(TINY_2))) {
                    catalog.begin().delete(TableKind.DATA_FILE, TABLE, TINY_2).commit();
                }
                return LocalFileSystem.INSTANCE.newInputFile(path, length);
            }

            @Override
            public org.apache.parquet.io.OutputFile newOutputFile(String path)
            {
                throw new UnsupportedOperationException();
            }

            @Override
            public void deleteFile(String path)
            {
                throw new UnsupportedOperationException();
            }

            @Override
            public List<String> listFiles(String directory)
            {
                throw new UnsupportedOperationException();
            }

            @Override
            public List<ListedFile> listFilesWithModificationTimes(String directory)
            {
                throw new UnsupportedOperationException();
            }
        };
        TinyFilePublisher.Result result = TinyFilePublisher.publish(catalog, deletingWhileRead);
        assertThat(result.goneBeforeWrite()).isEqualTo(1);
        assertThat(result.published()).isEqualTo(2);
        assertThat(copyIds()).containsExactly("9/" + TINY, "12/" + DELETE_OF_TINY);
    }

    @Test
    void batchesAreBoundedByFilesAndBytes()
    {
        TinyFilePublisher.Result result = new TinyFilePublisher(LocalFileSystem.INSTANCE, new TinyFilePublisher.Options(2, 1, 1 << 20),
                TinyFilePublisher.Progress.NONE).publish(catalog, Optional.empty(), Optional.empty());
        assertThat(result.published()).isEqualTo(3);
        assertThat(result.batches()).isEqualTo(3);
    }

    @Test
    void aThresholdOfZeroCopiesNothingAndPlanningIgnoresCopies()
    {
        TinyFilePublisher.publish(catalog, LocalFileSystem.INSTANCE);
        catalog.setTinyFileThresholdBytes(0);
        assertThat(catalog.tinyFileThresholdBytes()).isZero();
        assertThat(plannedCopies(true)).isEmpty();
        assertThat(TinyFilePublisher.publish(catalog, LocalFileSystem.INSTANCE).published()).isZero();
        catalog.setTinyFileThresholdBytes(1000);
        assertThat(plannedCopies(true)).containsOnlyKeys(TINY, TINY_2); // copies taken under a higher threshold are still right
    }

    @Test
    void planningAttachesCopiesToDataFilesAndTheirDeleteFiles()
    {
        assertThat(plannedCopies(true)).isEmpty();
        TinyFilePublisher.publish(catalog, LocalFileSystem.INSTANCE);
        Map<Long, byte[]> copies = plannedCopies(true);
        assertThat(copies).containsOnlyKeys(TINY, TINY_2);
        assertThat(copies.get(TINY)).isEqualTo(contents.get(TINY));
        assertThat(copies.get(TINY_2)).isEqualTo(contents.get(TINY_2));
        int deleteCopies = 0;
        try (CatalogSnapshot snapshot = catalog.latest(); TaskStream tasks = ScanBuilder.forTable(snapshot, TABLE).build().planTasks()) {
            while (tasks.hasNext()) {
                DataFileTask task = (DataFileTask) tasks.next();
                for (var delete : task.deleteFiles()) {
                    assertThat(task.dataFileId()).isEqualTo(TINY);
                    assertThat(delete.copy().orElseThrow().toByteArray()).isEqualTo(contents.get(DELETE_OF_TINY));
                    deleteCopies++;
                }
            }
        }
        assertThat(deleteCopies).isEqualTo(1);
        assertThat(plannedCopies(false)).isEmpty();
    }

    @Test
    void aCopyWhoseSizeDiffersFromTheRowIsIgnored()
    {
        TinyFilePublisher.publish(catalog, LocalFileSystem.INSTANCE);
        byte[] key = TinyFileKeys.key(TABLE, TableKind.DATA_FILE, TINY_2);
        catalog.writeBesideCommits(reader -> Map.of(ByteBuffer.wrap(key), TinyFileKeys.encodeValue(TableKind.DATA_FILE, 1999, new byte[1999])));
        assertThat(plannedCopies(true)).containsOnlyKeys(TINY);
    }

    @Test
    void deletingAFileRowDeletesItsCopyInTheSameBatch()
    {
        TinyFilePublisher.publish(catalog, LocalFileSystem.INSTANCE);
        batches.clear();
        catalog.begin().delete(TableKind.DELETE_FILE, TABLE, DELETE_OF_TINY).delete(TableKind.DATA_FILE, TABLE, TINY).commit();
        assertThat(batches).hasSize(1);
        Map<ByteBuffer, byte[]> batch = batches.getFirst();
        for (var file : List.of(Map.entry(TableKind.DATA_FILE, TINY), Map.entry(TableKind.DELETE_FILE, DELETE_OF_TINY))) {
            ByteBuffer row = ByteBuffer.wrap(RowKeys.key(Subspace.CURRENT, file.getKey(), TABLE, file.getValue()));
            ByteBuffer copy = ByteBuffer.wrap(TinyFileKeys.key(TABLE, file.getKey(), file.getValue()));
            assertThat(batch).containsKey(row).containsKey(copy);
            assertThat(batch.get(row)).isNull();
            assertThat(batch.get(copy)).isNull();
        }
        assertThat(copyIds()).containsExactly("9/" + TINY_2);
    }

    @Test
    void endingAFileRowKeepsItsCopyForTimeTravel()
    {
        TinyFilePublisher.publish(catalog, LocalFileSystem.INSTANCE);
        try (CatalogSnapshot head = catalog.latest()) {
            var tx = catalog.begin();
            tx.insert(Row.of(TableKind.SNAPSHOT, 3L, Instant.parse("2026-01-01T00:00:03Z"), 1L, 2L, 7L));
            tx.insert(Row.of(TableKind.SNAPSHOT_CHANGES, 3L, "deleted_from_table:1", null, null, null));
            tx.endRow(TableKind.DATA_FILE, 3L, TABLE, TINY_2);
            tx.commit();
        }
        assertThat(copyIds()).contains("9/" + TINY_2);
        try (CatalogSnapshot old = catalog.at(2); TaskStream tasks = ScanBuilder.forTable(old, TABLE).build().planTasks()) {
            long copies = 0;
            while (tasks.hasNext()) {
                copies += ((DataFileTask) tasks.next()).copy().isPresent() ? 1 : 0;
            }
            assertThat(copies).isEqualTo(2);
        }
    }

    @Test
    void theSweepRemovesOrphansAndKeepsLiveCopies()
    {
        TinyFilePublisher.publish(catalog, LocalFileSystem.INSTANCE);
        byte[] orphan = TinyFileKeys.key(TABLE, TableKind.DATA_FILE, 999);
        byte[] orphanOfGoneTable = TinyFileKeys.key(77, TableKind.DELETE_FILE, 3);
        catalog.writeBesideCommits(reader -> Map.of(ByteBuffer.wrap(orphan), TinyFileKeys.encodeValue(TableKind.DATA_FILE, 4, "PAR1".getBytes(StandardCharsets.UTF_8)),
                ByteBuffer.wrap(orphanOfGoneTable), TinyFileKeys.encodeValue(TableKind.DELETE_FILE, 4, "PAR1".getBytes(StandardCharsets.UTF_8))));
        assertThat(copyIds()).hasSize(5);
        TinyFileSweeper.Result result = TinyFileSweeper.sweep(catalog);
        assertThat(result.copies()).isEqualTo(5);
        assertThat(result.deleted()).isEqualTo(2);
        assertThat(copyIds()).containsExactly("9/" + TINY, "9/" + TINY_2, "12/" + DELETE_OF_TINY);
        assertThat(TinyFileSweeper.sweep(catalog).deleted()).isZero();
    }

    @Test
    void verifyChecksEveryCopyAndComparesGoodOnesWithTheirFiles()
            throws IOException
    {
        TinyFilePublisher.publish(catalog, LocalFileSystem.INSTANCE);
        StoreVerifier.Options withFiles = StoreVerifier.Options.STORE_ONLY.withFiles(LocalFileSystem.INSTANCE);
        VerifyReport clean = StoreVerifier.verify(catalog.store().latest(), withFiles);
        assertThat(tinyFileProblems(clean)).isEmpty();
        assertThat(clean.checked("tiny-file copies")).isEqualTo(3);
        assertThat(clean.checked("tiny-file copies compared with their files")).isEqualTo(3);

        catalog.writeBesideCommits(reader -> Map.of(
                ByteBuffer.wrap(TinyFileKeys.key(TABLE, TableKind.DATA_FILE, 999)), TinyFileKeys.encodeValue(TableKind.DATA_FILE, 4, "PAR1".getBytes(StandardCharsets.UTF_8)),
                ByteBuffer.wrap(TinyFileKeys.key(77, TableKind.DATA_FILE, MISMATCH)), TinyFileKeys.encodeValue(TableKind.DATA_FILE, 950, new byte[950]),
                ByteBuffer.wrap(TinyFileKeys.key(TABLE, TableKind.DATA_FILE, OVERSIZE)), TinyFileKeys.encodeValue(TableKind.DATA_FILE, 4999, new byte[4999]),
                ByteBuffer.wrap(TinyFileKeys.key(TABLE, TableKind.DATA_FILE, NOT_PARQUET)), new byte[] {1, 9, 0, 0, 0, 0, 0, 0, 1, 0, 7},
                ByteBuffer.wrap(new byte[] {0x07, 1, 2}), new byte[] {1}));
        byte[] damaged = contents.get(TINY).clone();
        damaged[100] ^= 1;
        Files.write(lake.resolve("main/t1").resolve(name(TINY)), damaged);

        VerifyReport broken = StoreVerifier.verify(catalog.store().latest(), withFiles);
        assertThat(tinyFileProblems(broken)).containsExactlyInAnyOrder(
                "tiny-file copy 070102", // a key of no copy
                "tiny-file copy of data file " + NOT_PARQUET, // a header longer than its bytes
                "tiny-file copy of data file 999", // no row
                "tiny-file copy of data file " + MISMATCH, // kept under another table
                "tiny-file copy of data file " + OVERSIZE, // taken at another size
                "ducklake_data_file(table_id=" + TABLE + ", data_file_id=" + TINY + ")"); // differs from the file
        assertThat(broken.checked("tiny-file copies")).isEqualTo(8);
        assertThat(broken.checked("tiny-file copies compared with their files")).isEqualTo(3);
        assertThat(broken.problems()).filteredOn(problem -> problem.where().endsWith("data_file_id=" + TINY + ")"))
                .singleElement().satisfies(problem -> assertThat(problem.detail()).contains("differs from the bytes of").contains(name(TINY)));
    }

    /** Where each tiny-file problem is (a catalog row without its subspace). */
    private static List<String> tinyFileProblems(VerifyReport report)
    {
        return report.problems().stream().filter(problem -> problem.check() == VerifyProblem.Check.TINY_FILE)
                .map(problem -> problem.where().replaceAll("^(current|history)/", ""))
                .toList();
    }

    @Test
    void statusCountsCopiesAndTheirShareOfTheCatalog()
    {
        TinyFilePublisher.publish(catalog, LocalFileSystem.INSTANCE);
        TinyFileStatus status = TinyFileStatus.of(catalog);
        assertThat(status.copies()).isEqualTo(3);
        assertThat(status.copyBytes()).isEqualTo(1500 + 2000 + 700);
        assertThat(status.catalogBytes()).isGreaterThan(status.copyBytes());
        assertThat(status.thresholdBytes()).isEqualTo(4096);
    }

    /** The copies planning attaches to data-file tasks at the head, by data file id. */
    private Map<Long, byte[]> plannedCopies(boolean catalogCopies)
    {
        Map<Long, byte[]> copies = new HashMap<>();
        long tasksSeen = 0;
        try (CatalogSnapshot snapshot = catalog.latest();
                TaskStream tasks = ScanBuilder.forTable(snapshot, TABLE).withCatalogCopies(catalogCopies).build().planTasks()) {
            while (tasks.hasNext()) {
                ScanTask next = tasks.next();
                DataFileTask task = (DataFileTask) next;
                tasksSeen++;
                task.copy().ifPresent(copy -> copies.put(task.dataFileId(), copy.toByteArray()));
                if (!catalogCopies || snapshot.tinyFileThresholdBytes() == 0) {
                    assertThat(task.deleteFiles()).allMatch(delete -> delete.copy().isEmpty());
                }
            }
        }
        assertThat(tasksSeen).isEqualTo(6);
        return copies;
    }

    private List<String> copyIds()
    {
        List<String> ids = new ArrayList<>();
        try (var cursor = catalog.store().latest().scan(Subspace.TINY_FILES.start(), Subspace.TINY_FILES.end(), 64)) {
            cursor.forEachRemaining(entry -> {
                TinyFileKeys.CopyId id = TinyFileKeys.idOf(entry.key());
                if (id.tableId() == TABLE) {
                    ids.add(id.kind().tag() + "/" + id.fileId());
                }
                else {
                    ids.add(id.tableId() + ":" + id.kind().tag() + "/" + id.fileId());
                }
            });
        }
        return ids;
    }

    private void write(Path table, long id, byte[] bytes)
            throws IOException
    {
        Files.write(table.resolve(name(id)), bytes);
        contents.put(id, bytes);
    }

    private static String name(long id)
    {
        return "ducklake-" + id + ".parquet";
    }

    /** Bytes that start and end with Parquet's magic, as the publisher checks (readers parse real Parquet; this test does not read rows). */
    private static byte[] parquetLike(int length)
    {
        byte[] bytes = new byte[length];
        new java.util.Random(length).nextBytes(bytes);
        System.arraycopy("PAR1".getBytes(StandardCharsets.UTF_8), 0, bytes, 0, 4);
        System.arraycopy("PAR1".getBytes(StandardCharsets.UTF_8), 0, bytes, length - 4, 4);
        return bytes;
    }
}
