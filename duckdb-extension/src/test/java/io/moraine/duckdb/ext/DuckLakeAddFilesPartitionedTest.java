package io.moraine.duckdb.ext;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;

import static io.moraine.duckdb.ext.ExtensionConnections.execute;
import static io.moraine.duckdb.ext.ExtensionConnections.query;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ducklake_add_data_files} on a table with several partition keys on one column
 * (add_files/add_file_partitioned.test): DuckLake 1.5.5 writes every partition value of such a column under the key
 * index of its last key, so {@code ducklake_file_partition_value} holds rows that agree on (data_file_id,
 * partition_key_index), for 2024-01-01 two of them equal in every column. A DuckDB-file catalog keeps them all;
 * moraine refused the commit. Now it stores and serves them as the DuckDB-file catalog does, DuckLake reads the table
 * alike, and its maintenance (merging the added file, expiring it) deletes them alike.
 */
class DuckLakeAddFilesPartitionedTest
{
    private static final String PARTITION_VALUES = "SELECT data_file_id, table_id, partition_key_index, partition_value FROM lake_meta.ducklake_file_partition_value";

    @TempDir
    Path temp;

    @Test
    void addedFilesKeepEveryPartitionValueRowDuckLakeWritesUnderOneKeyIndex()
            throws Exception
    {
        try (OracleLakes lakes = OracleLakes.open(temp, 0)) {
            lakes.both("CREATE TABLE lake.events (id INTEGER, value VARCHAR, dt DATE)");
            lakes.both("ALTER TABLE lake.events SET PARTITIONED BY (year(dt), month(dt), day(dt))");
            lakes.both("INSERT INTO lake.events VALUES (1, 'a', DATE '2024-01-15'), (2, 'b', DATE '2024-02-10'), (3, 'c', DATE '2024-01-01')");
            addFile(lakes, "events", "year=2024/month=2/day=10", "SELECT 10 AS id, 'x' AS value, DATE '2024-02-10' AS dt");
            addFile(lakes, "events", "year=2024/month=1/day=1", "SELECT 11 AS id, 'y' AS value, DATE '2024-01-01' AS dt");

            List<List<String>> values = lakes.same(PARTITION_VALUES);
            assertThat(values.subList(values.size() - 3, values.size())).as("the second added file's rows: year, month and day under key 2, month and day equal")
                    .extracting(row -> row.subList(2, 4))
                    .containsExactly(List.of("2", "2024"), List.of("2", "1"), List.of("2", "1"));
            lakes.same("SELECT * FROM lake.events ORDER BY id");
            assertThat(lakes.same("SELECT id FROM lake.events WHERE day(dt) = 10 ORDER BY id")).containsExactly(List.of("2"), List.of("10"));
            lakes.same("SELECT id FROM lake.events WHERE dt = DATE '2024-01-01' ORDER BY id");

            // (b, bucket(4, b)): the added file's bucket, then its b, both under key 1 (the bucket key), nothing under key 0
            lakes.both("CREATE TABLE lake.buckets (id INTEGER, b INTEGER)");
            lakes.both("ALTER TABLE lake.buckets SET PARTITIONED BY (b, bucket(4, b))");
            lakes.both("INSERT INTO lake.buckets VALUES (1, 5), (2, 6)");
            String buckets = lakes.same("SELECT table_id FROM lake_meta.ducklake_table WHERE table_name = 'buckets'").getFirst().getFirst();
            String bucketOf5 = query(lakes.oracle(), "SELECT partition_value FROM lake_meta.ducklake_file_partition_value WHERE table_id = " + buckets
                    + " AND partition_key_index = 1 AND data_file_id IN (SELECT data_file_id FROM lake_meta.ducklake_file_partition_value "
                    + "WHERE table_id = " + buckets + " AND partition_key_index = 0 AND partition_value = '5')").getFirst().getFirst();
            addFile(lakes, "buckets", "b=5/bucket=" + bucketOf5, "SELECT 3 AS id");
            assertThat(lakes.same(PARTITION_VALUES + " WHERE table_id = " + buckets + " AND data_file_id = (SELECT MAX(data_file_id) FROM lake_meta.ducklake_data_file)"))
                    .extracting(row -> row.subList(2, 4))
                    .containsExactly(List.of("1", bucketOf5), List.of("1", "5"));
            assertThat(lakes.same("SELECT id, b FROM lake.buckets WHERE b = 5 ORDER BY id")).containsExactly(List.of("1", "5"), List.of("3", "5"));

            // maintenance merges the added events files into the flushed ones of their partitions (DuckLake groups files by
            // their values ordered by key index) and, once their snapshots expire, deletes every row of them
            String sharedKeys = "SELECT data_file_id, partition_key_index, count(*) FROM lake_meta.ducklake_file_partition_value "
                    + "GROUP BY ALL HAVING count(*) > 1 ORDER BY ALL";
            assertThat(lakes.same(sharedKeys)).hasSize(3);
            lakes.both("CALL ducklake_merge_adjacent_files('lake')");
            lakes.both("CALL ducklake_expire_snapshots('lake', older_than => now())");
            assertThat(lakes.same(sharedKeys)).as("the added buckets file only").hasSize(1);
            lakes.same(PARTITION_VALUES);
            lakes.same("SELECT data_file_id, table_id, partition_id FROM lake_meta.ducklake_data_file");
            lakes.same("SELECT * FROM lake.events ORDER BY id");
            lakes.same("SELECT * FROM lake.buckets ORDER BY id");
        }
    }

    /** Writes {@code select} to {@code <table dir>/<hivePath>/added.parquet} of each lake and adds that file to the table. */
    private void addFile(OracleLakes lakes, String table, String hivePath, String select)
            throws Exception
    {
        addFile(lakes.oracle(), temp.resolve("oracle-data"), table, hivePath, select);
        addFile(lakes.moraine(), temp.resolve("data"), table, hivePath, select);
    }

    private static void addFile(Connection connection, Path data, String table, String hivePath, String select)
            throws Exception
    {
        Path file = data.resolve("main").resolve(table).resolve(hivePath).resolve("added.parquet");
        Files.createDirectories(file.getParent());
        execute(connection, "COPY (" + select + ") TO '" + file + "' (FORMAT parquet)");
        execute(connection, "CALL ducklake_add_data_files('lake', '" + table + "', '" + file + "')");
    }
}
