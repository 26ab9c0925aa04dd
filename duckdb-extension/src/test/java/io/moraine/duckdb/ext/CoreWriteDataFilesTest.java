package io.moraine.duckdb.ext;

import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.io.LocalFileSystem;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreUri;
import io.moraine.core.write.ColumnDefinition;
import io.moraine.core.write.files.DataFileLayout;
import io.moraine.core.write.files.DataFileTarget;
import io.moraine.core.write.NewTable;
import io.moraine.core.write.PartitionField;
import io.moraine.core.write.WriteTransaction;
import io.moraine.core.write.files.WrittenDataFile;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;

import static io.moraine.duckdb.ext.ExtensionConnections.execute;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Data files written with parquet-java where the core's {@link DataFileLayout} says, added through the write API, give
 * the catalog rows DuckDB+DuckLake writes for the same INSERTs (file ids, row ids, statistics, partition values, table
 * stats), and DuckDB reads them and keeps writing.
 */
class CoreWriteDataFilesTest
{
    private static final int ROWS = 25;

    @TempDir
    Path temp;

    @Test
    void filesAddedThroughTheCoreMatchDuckLakesOwnInserts()
            throws Exception
    {
        try (OracleLakes lakes = OracleLakes.open(temp, 10)) {
            execute(lakes.oracle(), "USE lake");
            execute(lakes.oracle(), "CREATE TABLE main.t (id INTEGER, name VARCHAR, d DATE, x DOUBLE)");
            execute(lakes.oracle(), "INSERT INTO main.t SELECT i, 'name-' || i, DATE '2026-01-01' + i::INTEGER, CASE WHEN i % 5 = 0 THEN NULL ELSE i / 4 END "
                    + "FROM range(" + ROWS + ") r(i) ORDER BY i");
            execute(lakes.oracle(), "CREATE TABLE main.p (k VARCHAR, v BIGINT)");
            execute(lakes.oracle(), "ALTER TABLE main.p SET PARTITIONED BY (k)");
            execute(lakes.oracle(), "INSERT INTO main.p SELECT 'a b/c', i FROM range(20) r(i) ORDER BY i");
        }
        try (MoraineCatalog catalog = MoraineCatalog.open(StoreUri.parse(temp.resolve("store").toString()), OpenMode.READ_WRITE)) {
            WriteTransaction.begin(catalog).createTable(NewTable.of("main", "t", List.of(ColumnDefinition.of("id", "int32"), ColumnDefinition.of("name", "varchar"),
                    ColumnDefinition.of("d", "date"), ColumnDefinition.of("x", "float64")))).commit();
            WriteTransaction insert = WriteTransaction.begin(catalog);
            DataFileLayout layout = insert.dataFileLayout("main", "t");
            DataFileTarget target = layout.target();
            write(target, ROWS, (group, i) -> {
                group.append("id", i).append("name", "name-" + i).append("d", (int) LocalDate.of(2026, 1, 1).plusDays(i).toEpochDay());
                if (i % 5 != 0) {
                    group.append("x", i / 4.0);
                }
            });
            insert.appendDataFiles("main", "t", List.of(WrittenDataFile.measure(LocalFileSystem.INSTANCE, target, layout.columns().columns()))).commit();

            WriteTransaction.begin(catalog).createTable(NewTable.of("main", "p", List.of(ColumnDefinition.of("k", "varchar"), ColumnDefinition.of("v", "int64"))))
                    .commit();
            WriteTransaction.begin(catalog).setPartitioning("main", "p", List.of(PartitionField.identity("k"))).commit();
            WriteTransaction partitioned = WriteTransaction.begin(catalog);
            DataFileLayout partitionedLayout = partitioned.dataFileLayout("main", "p");
            DataFileTarget partitionTarget = partitionedLayout.target(List.of("a b/c"), false);
            assertThat(partitionTarget.path()).startsWith("k=a%20b%2Fc/ducklake-");
            write(partitionTarget, 20, (group, i) -> group.append("k", "a b/c").append("v", (long) i));
            partitioned.appendDataFiles("main", "p", List.of(WrittenDataFile.measure(LocalFileSystem.INSTANCE, partitionTarget,
                    partitionedLayout.columns().columns()))).commit();
        }
        int compared = 0;
        try (OracleLakes lakes = OracleLakes.open(temp, 10)) {
            for (String sql : List.of(
                    "SELECT snapshot_id, schema_version, next_catalog_id, next_file_id FROM lake_meta.ducklake_snapshot ORDER BY ALL",
                    "SELECT * FROM lake_meta.ducklake_snapshot_changes ORDER BY ALL",
                    "SELECT data_file_id, table_id, begin_snapshot, end_snapshot, file_order, regexp_replace(path, 'ducklake-.*', ''), path_is_relative, "
                            + "file_format, record_count, row_id_start, partition_id, encryption_key, mapping_id, partial_max FROM lake_meta.ducklake_data_file ORDER BY ALL",
                    "SELECT data_file_id, table_id, column_id, value_count, null_count, min_value, max_value, contains_nan, extra_stats "
                            + "FROM lake_meta.ducklake_file_column_stats ORDER BY ALL",
                    "SELECT * FROM lake_meta.ducklake_file_partition_value ORDER BY ALL",
                    "SELECT table_id, record_count, next_row_id FROM lake_meta.ducklake_table_stats ORDER BY ALL",
                    "SELECT * FROM lake_meta.ducklake_table_column_stats ORDER BY ALL",
                    "SELECT *, rowid FROM lake.main.t ORDER BY id",
                    "SELECT *, rowid FROM lake.main.p ORDER BY v")) {
                lakes.same(sql);
                compared++;
            }
            lakes.both("INSERT INTO lake.main.t VALUES (100, 'duck', DATE '2027-01-01', 1.5)");
            lakes.both("INSERT INTO lake.main.p SELECT 'z', i FROM range(30) r(i) ORDER BY i");
            lakes.same("SELECT *, rowid FROM lake.main.t ORDER BY id");
            lakes.same("SELECT *, rowid FROM lake.main.p ORDER BY k, v");
            lakes.same("SELECT table_id, record_count, next_row_id FROM lake_meta.ducklake_table_stats ORDER BY ALL");
            compared += 3;
        }
        assertThat(compared).isEqualTo(12);
    }

    interface RowWriter
    {
        void write(Group group, int row);
    }

    static void write(DataFileTarget target, int rows, RowWriter rowWriter)
            throws Exception
    {
        Files.createDirectories(Path.of(target.location()).getParent());
        SimpleGroupFactory groups = new SimpleGroupFactory(target.schema());
        try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(LocalFileSystem.INSTANCE.newOutputFile(target.location()))
                .withType(target.schema()).withCompressionCodec(target.settings().compression()).build()) {
            for (int i = 0; i < rows; i++) {
                Group group = groups.newGroup();
                rowWriter.write(group, i);
                writer.write(group);
            }
        }
    }
}
