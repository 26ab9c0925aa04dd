package io.moraine.core.catalog;

import io.moraine.core.error.ConstraintException;
import io.moraine.core.error.InvalidArgumentException;
import io.moraine.core.keyspace.RowKeys;
import io.moraine.core.keyspace.Subspace;
import io.moraine.core.metadata.MetadataTableType;
import io.moraine.core.metadata.MetadataTables;
import io.moraine.core.row.Column;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.scan.ColumnDomain;
import io.moraine.core.scan.DataFileTask;
import io.moraine.core.scan.ScanBuilder;
import io.moraine.core.scan.ScanFilter;
import io.moraine.core.scan.TaskStream;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreUri;
import io.moraine.core.tx.StagedTransaction;
import io.moraine.core.types.BucketHash;
import io.moraine.core.types.DuckLakeType;
import io.moraine.core.types.PrimitiveKind;
import io.moraine.core.verify.StoreVerifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.LongStream;

import static io.moraine.core.catalog.CatalogTestSupport.changes;
import static io.moraine.core.catalog.CatalogTestSupport.column;
import static io.moraine.core.catalog.CatalogTestSupport.dataFile;
import static io.moraine.core.catalog.CatalogTestSupport.head;
import static io.moraine.core.catalog.CatalogTestSupport.memoryStore;
import static io.moraine.core.catalog.CatalogTestSupport.newCatalog;
import static io.moraine.core.catalog.CatalogTestSupport.nextSnapshot;
import static io.moraine.core.catalog.CatalogTestSupport.scan;
import static io.moraine.core.catalog.CatalogTestSupport.table;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * ducklake_file_partition_value rows that share (table_id, data_file_id, partition_key_index): DuckLake 1.5.5's
 * ducklake_add_data_files writes every partition value of a column with several keys (year(dt), month(dt), day(dt))
 * under the last key's index, and a DuckDB-file catalog keeps all of them. moraine stores each such row (the first
 * under its key cells, as always; the next ones under the key cells and a duplicate number), serves them back in the
 * order they were inserted, deletes them one by one, and its readers treat a key with several values as DuckLake's
 * bucket pruning does: the file may match when any of them does.
 */
class FilePartitionValueDuplicatesTest
{
    private static final long TABLE = 1;
    private static final long PARTITION = 3;
    private static final DuckLakeType BIGINT = new DuckLakeType.Primitive(PrimitiveKind.INT64);

    @TempDir
    Path temp;

    @Test
    void rowsWithTheSameKeyCellsAreAllStoredAndServedInTheOrderTheyWereInserted()
    {
        StoreUri uri = StoreUri.parse(temp.resolve("store").toUri().toString());
        List<Row> written;
        try (MoraineCatalog catalog = newCatalog(uri)) {
            createTable(catalog, "year", "month", "day");
            // a flushed file (one value per key), then a file added for 2024-01-01: year, month and day all under key 2,
            // two of the three rows equal in every column
            written = List.of(value(0, 0, "2024"), value(0, 1, "1"), value(0, 2, "15"), value(1, 2, "2024"), value(1, 2, "1"), value(1, 2, "1"));
            addFiles(catalog, 2, written);
            assertThat(scan(catalog, TableKind.FILE_PARTITION_VALUE, RowScope.ALL)).containsExactlyElementsOf(written);
            assertThat(catalog.everyRow(catalog.store().latest(), TableKind.FILE_PARTITION_VALUE)).containsExactlyElementsOf(written);
            try (CatalogSnapshot snapshot = catalog.latest(); RowCursor rows = snapshot.filePartitionValues(TABLE)) {
                List<Row> read = rows.toList();
                assertThat(read).containsExactlyElementsOf(written);
                assertThat(read).extracting(Row::duplicate).containsExactly(0L, 0L, 0L, 0L, 1L, 2L);
            }

            // a row without duplicates keeps the key it always had; the second and third rows of a key take numbers after it
            var reader = catalog.store().latest();
            assertThat(reader.get(RowKeys.key(Subspace.CURRENT, TableKind.FILE_PARTITION_VALUE, TABLE, 0L, 2L))).isNotNull();
            assertThat(reader.get(RowKeys.key(Subspace.CURRENT, TableKind.FILE_PARTITION_VALUE, TABLE, 1L, 2L))).isNotNull();
            assertThat(reader.get(RowKeys.key(Subspace.CURRENT, TableKind.FILE_PARTITION_VALUE, TABLE, 1L, 2L, 1L))).isNotNull();
            assertThat(reader.get(RowKeys.key(Subspace.CURRENT, TableKind.FILE_PARTITION_VALUE, TABLE, 1L, 2L, 2L))).isNotNull();
            assertThat(StoreVerifier.verify(reader, StoreVerifier.Options.STORE_ONLY).problems()).isEmpty();

            // a later commit's row with the same key cells goes after them, and the kept rows follow the commit
            Row later = value(1, 2, "later");
            Row head = head(catalog);
            Row next = nextSnapshot(head, 0, 0, 0);
            catalog.begin(head.getLong("snapshot_id")).insert(next).insert(changes(next.getLong("snapshot_id"), "inserted_into_table:1")).insert(later).commit();
            written = concat(written, later);
            assertThat(catalog.everyRow(catalog.store().latest(), TableKind.FILE_PARTITION_VALUE)).containsExactlyElementsOf(written);
            assertThat(scan(catalog, TableKind.FILE_PARTITION_VALUE, RowScope.ALL)).extracting(Row::duplicate).containsExactly(0L, 0L, 0L, 0L, 1L, 2L, 3L);
        }
        try (MoraineCatalog reopened = MoraineCatalog.open(uri, OpenMode.READ_ONLY)) {
            assertThat(scan(reopened, TableKind.FILE_PARTITION_VALUE, RowScope.ALL)).containsExactlyElementsOf(written);
        }
    }

    @Test
    void eachRowIsDeletedByItsOwnKeyCellsAndNumber()
    {
        try (MoraineCatalog catalog = newCatalog(memoryStore("duplicate-deletes"))) {
            createTable(catalog, "year", "month", "day");
            addFiles(catalog, 1, List.of(value(0, 2, "2024"), value(0, 2, "2"), value(0, 2, "10")));
            List<Row> stored = scan(catalog, TableKind.FILE_PARTITION_VALUE, RowScope.ALL);
            assertThat(stored.get(1).keyCells()).containsExactly(TABLE, 0L, 2L, 1L);

            commitData(catalog, transaction -> transaction.delete(TableKind.FILE_PARTITION_VALUE, stored.get(1).keyCells().toArray()));
            assertThat(scan(catalog, TableKind.FILE_PARTITION_VALUE, RowScope.ALL)).extracting(row -> row.getString("partition_value"))
                    .containsExactly("2024", "10");

            // what DuckLake does when a file goes: every row of it, each by its own address
            List<Row> left = catalog.everyRow(catalog.store().latest(), TableKind.FILE_PARTITION_VALUE);
            commitData(catalog, transaction -> left.forEach(row -> transaction.delete(TableKind.FILE_PARTITION_VALUE, row.keyCells().toArray())));
            assertThat(scan(catalog, TableKind.FILE_PARTITION_VALUE, RowScope.ALL)).isEmpty();
            assertThat(catalog.everyRow(catalog.store().latest(), TableKind.FILE_PARTITION_VALUE)).isEmpty();
        }
    }

    @Test
    void otherKindsStillRefuseASecondRowWithTheSameKeyCells()
    {
        try (MoraineCatalog catalog = newCatalog(memoryStore("duplicate-refused"))) {
            createTable(catalog, "year", "month", "day");
            Row stats = Row.of(TableKind.FILE_COLUMN_STATS, 0L, TABLE, 2L, null, 10L, 0L, "1", "2", false, null);
            assertThatThrownBy(() -> addFiles(catalog, 1, List.of(stats, stats)))
                    .isInstanceOf(ConstraintException.class)
                    .hasMessageContaining("exists already");
            assertThatThrownBy(() -> stats.withDuplicate(1))
                    .isInstanceOf(InvalidArgumentException.class)
                    .hasMessageContaining("holds no two rows with the same key cells");
        }
    }

    /**
     * Partitioned by (b, bucket(4, b)), an added file gets its bucket and its b under key 1 (the bucket key) and nothing
     * under key 0. A filter b = 5 keeps it (one of its key-1 values is 5's bucket), as DuckLake's
     * {@code partition_value IN (...)} does; taking the last value (5) for the bucket pruned it. A filter whose bucket is
     * none of its values prunes it.
     */
    @Test
    void aKeyWithSeveralValuesPrunesAFileOnlyWhenEveryValueExcludesIt()
    {
        try (MoraineCatalog catalog = newCatalog(memoryStore("duplicate-pruning"))) {
            createTable(catalog, "identity", "bucket(4)");
            String bucketOf5 = Long.toString(bucket(5));
            addFiles(catalog, 2, List.of(value(0, 0, "5"), value(0, 1, bucketOf5), value(1, 1, bucketOf5), value(1, 1, "5")));
            long other = LongStream.rangeClosed(6, 100).filter(v -> bucket(v) != bucket(5)).findFirst().orElseThrow();

            try (CatalogSnapshot snapshot = catalog.latest()) {
                List<DataFileTask> all = plan(snapshot, ScanFilter.all());
                assertThat(all).extracting(DataFileTask::dataFileId).containsExactly(0L, 1L);
                // a key with several values has no single value; key 0 of the added file has none
                assertThat(all.get(0).partitionValues()).containsExactly("5", bucketOf5);
                assertThat(all.get(1).partitionValues()).containsExactly(null, null);

                assertThat(plan(snapshot, equalTo(5))).extracting(DataFileTask::dataFileId).containsExactly(0L, 1L);
                assertThat(plan(snapshot, equalTo(other))).isEmpty();

                List<List<Object>> files = MetadataTables.rows(MetadataTableType.FILES, snapshot, TABLE, Optional.empty());
                int values = MetadataTableType.FILES.columns().stream().map(Column::name).toList().indexOf("partition_values");
                assertThat(files).extracting(row -> row.get(values))
                        .containsExactly("b=5, bucket(4)(b)=" + bucketOf5, "b=NULL, bucket(4)(b)=[" + bucketOf5 + ", 5]");
            }
        }
    }

    private static long bucket(long value)
    {
        return BucketHash.bucketOf(BIGINT, value, 4).orElseThrow();
    }

    private static ScanFilter equalTo(long value)
    {
        return ScanFilter.of(Map.of(2L, ColumnDomain.values(List.of(value))));
    }

    private static List<DataFileTask> plan(CatalogSnapshot snapshot, ScanFilter filter)
    {
        List<DataFileTask> tasks = new ArrayList<>();
        try (TaskStream stream = ScanBuilder.forTable(snapshot, TABLE).withFilter(filter).build().planTasks()) {
            stream.forEachRemaining(task -> tasks.add((DataFileTask) task));
        }
        return tasks;
    }

    private static Row value(long dataFileId, long keyIndex, String value)
    {
        return Row.of(TableKind.FILE_PARTITION_VALUE, dataFileId, TABLE, keyIndex, value);
    }

    /** Snapshot 1: table t (a BIGINT id, a BIGINT b), partitioned by {@code transforms} of b, as keys 0, 1, ... */
    private static void createTable(MoraineCatalog catalog, String... transforms)
    {
        Row head = head(catalog);
        Row next = nextSnapshot(head, 1, 4, 0);
        StagedTransaction transaction = catalog.begin(head.getLong("snapshot_id")).insert(next).insert(changes(1, "created_table:\"main\".\"t\""))
                .insert(table(TABLE, 0, "t", 1)).insert(column(TABLE, 1, "id", "int64", 1)).insert(column(TABLE, 2, "b", "int64", 1))
                .insert(Row.of(TableKind.PARTITION_INFO, PARTITION, TABLE, 1L, null));
        for (int key = 0; key < transforms.length; key++) {
            transaction.insert(Row.of(TableKind.PARTITION_COLUMN, PARTITION, TABLE, (long) key, 2L, transforms[key]));
        }
        transaction.commit();
    }

    /** One data commit adding data files 0 .. files-1 of the table (in its partition) and {@code rows}. */
    private static void addFiles(MoraineCatalog catalog, int files, List<Row> rows)
    {
        commitData(catalog, files, transaction -> {
            long snapshot = transaction.readSnapshotId() + 1;
            for (long file = 0; file < files; file++) {
                transaction.insert(dataFile(TABLE, file, snapshot, file * 10, 10).with("partition_id", PARTITION));
            }
            rows.forEach(transaction::insert);
        });
    }

    private static void commitData(MoraineCatalog catalog, java.util.function.Consumer<StagedTransaction> staging)
    {
        commitData(catalog, 0, staging);
    }

    private static void commitData(MoraineCatalog catalog, int fileIdsUsed, java.util.function.Consumer<StagedTransaction> staging)
    {
        Row head = head(catalog);
        Row next = nextSnapshot(head, 0, 0, fileIdsUsed);
        StagedTransaction transaction = catalog.begin(head.getLong("snapshot_id")).insert(next).insert(changes(next.getLong("snapshot_id"), "inserted_into_table:1"));
        staging.accept(transaction);
        transaction.commit();
    }

    private static List<Row> concat(List<Row> rows, Row row)
    {
        List<Row> all = new ArrayList<>(rows);
        all.add(row);
        return all;
    }
}
