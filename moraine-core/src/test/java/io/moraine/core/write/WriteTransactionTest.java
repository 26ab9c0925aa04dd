package io.moraine.core.write;

import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.catalog.NewCatalog;
import io.moraine.core.error.AlreadyExistsException;
import io.moraine.core.error.CommitConflictException;
import io.moraine.core.error.ConstraintException;
import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.error.NotFoundException;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.store.StoreUri;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The write API's own rules: names checked as changes are made, typed errors, and DuckLake's conflict rules on commit. */
class WriteTransactionTest
{
    private MoraineCatalog catalog;

    @BeforeEach
    void createLake()
    {
        catalog = MoraineCatalog.create(StoreUri.parse("memory://write-" + UUID.randomUUID()), NewCatalog.bootstrapped("/lake/data"));
        WriteTransaction.begin(catalog)
                .createSchema("s")
                .createTable(NewTable.of("s", "t", List.of(ColumnDefinition.of("a", "int32"), ColumnDefinition.of("b", "varchar"))))
                .commit();
    }

    @AfterEach
    void close()
    {
        catalog.close();
    }

    @Test
    void badNamesAndTypesFailAtOnceWithTypedErrors()
    {
        WriteTransaction transaction = WriteTransaction.begin(catalog);
        assertThatThrownBy(() -> transaction.createTable(NewTable.of("nope", "t", List.of(ColumnDefinition.of("a", "int32")))))
                .isInstanceOf(NotFoundException.class).hasMessageContaining("schema nope does not exist");
        assertThatThrownBy(() -> transaction.createTable(NewTable.of("s", "t", List.of(ColumnDefinition.of("a", "int32")))))
                .isInstanceOf(AlreadyExistsException.class).hasMessageContaining("s.t already exists");
        assertThatThrownBy(() -> transaction.createTable(NewTable.of("s", "u", List.of(ColumnDefinition.of("a", "integer32")))))
                .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("'integer32', which is not a DuckLake type");
        assertThatThrownBy(() -> transaction.setColumnType("s", "t", List.of("a"), "int16"))
                .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("only widening type promotions");
        assertThatThrownBy(() -> transaction.dropColumn("s", "t", List.of("zz")))
                .isInstanceOf(NotFoundException.class).hasMessageContaining("column zz does not exist in s.t");
        assertThatThrownBy(() -> transaction.setColumnNullable("s", "t", List.of("a"), false))
                .isInstanceOf(ConstraintException.class).hasMessageContaining("NOT NULL");
        // A failed change leaves nothing behind: the transaction commits nothing.
        assertThat(transaction.commit()).isEqualTo(transaction.readSnapshotId());
    }

    @Test
    void aCatalogOpenForReadingRefusesToBeginAWrite()
    {
        io.moraine.core.store.StoreUri uri = StoreUri.parse("memory://write-ro-" + UUID.randomUUID());
        MoraineCatalog.create(uri, NewCatalog.bootstrapped("/lake/data")).close();
        try (MoraineCatalog reader = MoraineCatalog.open(uri, io.moraine.core.store.OpenMode.READ_ONLY)) {
            assertThatThrownBy(() -> WriteTransaction.begin(reader)).isInstanceOf(InvalidArgumentException.class)
                    .hasMessageContaining("open READ_ONLY").hasMessageContaining("READ_WRITE");
        }
    }

    @Test
    void concurrentCreationsOfDifferentTablesBothLandWithFreshIds()
    {
        WriteTransaction first = WriteTransaction.begin(catalog).createTable(NewTable.of("s", "x", List.of(ColumnDefinition.of("a", "int32"))));
        WriteTransaction second = WriteTransaction.begin(catalog).createTable(NewTable.of("s", "y", List.of(ColumnDefinition.of("a", "int32"))));
        long firstLanded = first.commit();
        long secondLanded = second.commit();
        assertThat(secondLanded).isEqualTo(firstLanded + 1);
        try (CatalogSnapshot snapshot = catalog.at(secondLanded)) {
            long x = snapshot.model().table("s", "x").orElseThrow().id();
            long y = snapshot.model().table("s", "y").orElseThrow().id();
            assertThat(x).isNotEqualTo(y);
            assertThat(snapshot.nextCatalogId()).isEqualTo(Math.max(x, y) + 1);
        }
    }

    @Test
    void concurrentInsertsIntoOneTableBothLandWithDistinctRowIds()
    {
        try (org.apache.arrow.memory.RootAllocator allocator = new org.apache.arrow.memory.RootAllocator();
                org.apache.arrow.vector.VectorSchemaRoot first = rows(allocator, 1, 2, 3);
                org.apache.arrow.vector.VectorSchemaRoot second = rows(allocator, 4, 5)) {
            WriteTransaction one = WriteTransaction.begin(catalog).insertInlined("s", "t", first);
            WriteTransaction two = WriteTransaction.begin(catalog).insertInlined("s", "t", second);
            long landed = one.commit();
            assertThat(two.commit()).isEqualTo(landed + 1);
            try (CatalogSnapshot snapshot = catalog.at(landed + 1)) {
                Row stats = snapshot.tableStats(snapshot.model().table("s", "t").orElseThrow().id()).orElseThrow();
                assertThat(stats.getLong("record_count")).isEqualTo(5);
                assertThat(stats.getLong("next_row_id")).isEqualTo(5);
                assertThat(snapshot.nextFileId()).isEqualTo(2); // each inlined-only insert takes a file id, as DuckLake's
            }
        }
    }

    @Test
    void eightThreadsInsertingIntoOneTableAllLand()
            throws Exception
    {
        int threads = 8;
        int commitsPerThread = 15;
        try (org.apache.arrow.memory.RootAllocator allocator = new org.apache.arrow.memory.RootAllocator();
                var pool = java.util.concurrent.Executors.newFixedThreadPool(threads)) {
            List<java.util.concurrent.Future<?>> writers = new java.util.ArrayList<>();
            for (int thread = 0; thread < threads; thread++) {
                writers.add(pool.submit(() -> {
                    for (int commit = 0; commit < commitsPerThread; commit++) {
                        try (org.apache.arrow.vector.VectorSchemaRoot batch = rows(allocator, commit, commit + 1)) {
                            WriteTransaction.begin(catalog).insertInlined("s", "t", batch).commit();
                        }
                    }
                    return null;
                }));
            }
            for (var writer : writers) {
                writer.get();
            }
        }
        try (CatalogSnapshot snapshot = catalog.at(catalog.headSnapshotId().orElseThrow())) {
            Row stats = snapshot.tableStats(snapshot.model().table("s", "t").orElseThrow().id()).orElseThrow();
            assertThat(stats.getLong("record_count")).isEqualTo(2L * threads * commitsPerThread);
        }
    }

    @Test
    void anInsertIntoATableAlteredMeanwhileConflicts()
    {
        try (org.apache.arrow.memory.RootAllocator allocator = new org.apache.arrow.memory.RootAllocator();
                org.apache.arrow.vector.VectorSchemaRoot batch = rows(allocator, 1)) {
            WriteTransaction insert = WriteTransaction.begin(catalog).insertInlined("s", "t", batch);
            WriteTransaction.begin(catalog).addColumn("s", "t", ColumnDefinition.of("c", "int64")).commit();
            assertThatThrownBy(insert::commit).isInstanceOf(CommitConflictException.class)
                    .hasMessageContaining("inlined_insert").hasMessageContaining("altered_table");
        }
    }

    @Test
    void anOverwriteDeletesTheInlinedRowsItsConditionAcceptsAndKeepsTheRowsItAdds()
    {
        try (org.apache.arrow.memory.RootAllocator allocator = new org.apache.arrow.memory.RootAllocator();
                org.apache.arrow.vector.VectorSchemaRoot first = rows(allocator, 1, 2, 3, 2);
                org.apache.arrow.vector.VectorSchemaRoot replacement = rows(allocator, 2, 9);
                org.apache.arrow.vector.VectorSchemaRoot dynamic = rows(allocator, 5)) {
            WriteTransaction.begin(catalog).insertInlined("s", "t", first).commit();
            long a = columnId("a");
            io.moraine.core.scan.ScanFilter twos = io.moraine.core.scan.ScanFilter.of(java.util.Map.of(a,
                    io.moraine.core.scan.ColumnDomain.values(List.of(2L))));
            long overwritten = WriteTransaction.begin(catalog).deleteWhere("s", "t", twos, "a = 2").insertInlined("s", "t", replacement).commit();
            assertThat(liveValuesOfA(overwritten)).as("both old 2s gone, the new 2 kept").containsExactlyInAnyOrder(1, 3, 2, 9);
            // an unpartitioned table's "partitions written" are all of it: only the rows the transaction adds stay
            long replaced = WriteTransaction.begin(catalog).insertInlined("s", "t", dynamic).deletePartitionsWritten("s", "t").commit();
            assertThat(liveValuesOfA(replaced)).containsExactly(5);
        }
    }

    private long columnId(String name)
    {
        try (CatalogSnapshot snapshot = catalog.at(catalog.headSnapshotId().orElseThrow())) {
            return snapshot.model().columns(snapshot.model().table("s", "t").orElseThrow()).column(name).orElseThrow().columnId();
        }
    }

    private List<Integer> liveValuesOfA(long snapshotId)
    {
        List<Integer> values = new java.util.ArrayList<>();
        try (CatalogSnapshot snapshot = catalog.at(snapshotId);
                org.apache.arrow.memory.RootAllocator allocator = new org.apache.arrow.memory.RootAllocator()) {
            long tableId = snapshot.model().table("s", "t").orElseThrow().id();
            var columns = snapshot.model().columns(tableId).columns().subList(0, 1);
            var task = new io.moraine.core.scan.InlinedRowsTask(tableId, snapshotId, snapshot.viewHeadSnapshotId(),
                    snapshot.inlinedDataTables(tableId).stream().map(row -> row.getLong("schema_version")).toList());
            try (var reader = io.moraine.core.inline.read.InlinedRowsReader.open(snapshot, task, columns, 1024, allocator)) {
                while (reader.hasNext()) {
                    var batch = reader.next();
                    for (int row = 0; row < batch.rows(); row++) {
                        values.add((Integer) batch.vector(0).getObject(row));
                    }
                }
            }
        }
        return values;
    }

    private synchronized org.apache.arrow.vector.VectorSchemaRoot rows(org.apache.arrow.memory.BufferAllocator allocator, int... values)
    {
        try (CatalogSnapshot snapshot = catalog.at(catalog.headSnapshotId().orElseThrow())) {
            var columns = snapshot.model().columns(snapshot.model().table("s", "t").orElseThrow()).columns();
            org.apache.arrow.vector.VectorSchemaRoot root = org.apache.arrow.vector.VectorSchemaRoot.create(InlinedArrowSchema.of(columns), allocator);
            org.apache.arrow.vector.IntVector a = (org.apache.arrow.vector.IntVector) root.getVector("a");
            a.allocateNew(values.length);
            root.getVector("b").allocateNew();
            for (int i = 0; i < values.length; i++) {
                a.set(i, values[i]);
                root.getVector("b").setNull(i);
            }
            root.setRowCount(values.length);
            return root;
        }
    }

    @Test
    void creatingTheSameTableConcurrentlyConflicts()
    {
        WriteTransaction first = WriteTransaction.begin(catalog).createTable(NewTable.of("s", "x", List.of(ColumnDefinition.of("a", "int32"))));
        WriteTransaction second = WriteTransaction.begin(catalog).createTable(NewTable.of("s", "x", List.of(ColumnDefinition.of("b", "int64"))));
        first.commit();
        assertThatThrownBy(second::commit).isInstanceOf(CommitConflictException.class)
                .hasMessageContaining("conflict").hasMessageContaining("created_table:\"s\".\"x\"");
    }

    @Test
    void alteringATableDroppedMeanwhileConflicts()
    {
        WriteTransaction alter = WriteTransaction.begin(catalog).addColumn("s", "t", ColumnDefinition.of("c", "int64"));
        WriteTransaction.begin(catalog).dropTable("s", "t").commit();
        assertThatThrownBy(alter::commit).isInstanceOf(CommitConflictException.class).hasMessageContaining("dropped_table");
    }

    @Test
    void theCommitRecordsAuthorMessageAndChanges()
    {
        long landed = WriteTransaction.begin(catalog)
                .commitInfo(new CommitInfo("ana", "add c", "{\"job\": 7}"))
                .addColumn("s", "t", ColumnDefinition.of("c", "int64"))
                .commit();
        try (CatalogSnapshot snapshot = catalog.at(landed);
                var changes = snapshot.everyVersion(TableKind.SNAPSHOT_CHANGES, landed)) {
            Row row = changes.next();
            assertThat(row.getString("author")).isEqualTo("ana");
            assertThat(row.getString("commit_message")).isEqualTo("add c");
            assertThat(row.getString("commit_extra_info")).isEqualTo("{\"job\": 7}");
            assertThat(row.getString("changes_made")).matches("altered_table:\\d+");
        }
    }

    @Test
    void aLakeThatRequiresACommitMessageRefusesOneWithoutAndTakesItAfter()
    {
        LakeOptions.set(catalog, "require_commit_message", "true");
        WriteTransaction transaction = WriteTransaction.begin(catalog).addColumn("s", "t", ColumnDefinition.of("c", "int64"));
        assertThatThrownBy(transaction::commit).isInstanceOf(InvalidArgumentException.class).hasMessageContaining("requires a commit message");
        long landed = transaction.commitInfo(new CommitInfo(null, "with a message", null)).commit();
        assertThat(landed).isEqualTo(transaction.readSnapshotId() + 1);
    }

    @Test
    void optionsAreCheckedAndNormalisedAsDuckLakeDoes()
    {
        assertThat(LakeOptions.normalize("target_file_size", "1MB")).isEqualTo("1000000");
        assertThat(LakeOptions.normalize("hive_file_pattern", "FALSE")).isEqualTo("false");
        assertThat(LakeOptions.normalize("parquet_version", "2")).isEqualTo("V2");
        assertThatThrownBy(() -> LakeOptions.normalize("parquet_compression", "lzma")).isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("supported codecs");
        assertThatThrownBy(() -> LakeOptions.set(catalog, "no_such_option", "1")).hasMessageContaining("supported:");
        assertThatThrownBy(() -> LakeOptions.setForTable(catalog, "s", "t", "expire_older_than", "1 day"))
                .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("whole lake only");
    }
}
