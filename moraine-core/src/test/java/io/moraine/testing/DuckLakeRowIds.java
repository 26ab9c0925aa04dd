package io.moraine.testing;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/** DuckDB's own answers about row ids, for the engines' `$row_id` / `_row_id` lookup tests. */
public final class DuckLakeRowIds
{
    private DuckLakeRowIds() {}

    /** DuckDB's row ids of {@code table} at the newest snapshot, ascending. */
    public static List<Long> rowIds(DuckLakeOracle oracle, LakeTable table)
            throws Exception
    {
        return oracle.query("SELECT rowid FROM " + table.sqlName("lake") + " ORDER BY 1").stream().map(row -> Long.parseLong(row.getFirst())).toList();
    }

    /**
     * Every data file of {@code table} at the newest snapshot with the row ids it holds physically (deleted rows too):
     * its embedded row-id column read by DuckDB, else {@code row_id_start} .. + record_count from DuckLake's catalog.
     */
    public static Map<String, long[]> physicalRowIds(DuckLakeOracle oracle, LakeTable table)
            throws Exception
    {
        Map<String, long[]> starts = new HashMap<>();
        for (List<String> row : oracle.query("SELECT f.path, f.row_id_start, f.record_count FROM __ducklake_metadata_lake.ducklake_data_file f "
                + "JOIN __ducklake_metadata_lake.ducklake_table t ON f.table_id = t.table_id AND t.end_snapshot IS NULL "
                + "JOIN __ducklake_metadata_lake.ducklake_schema s ON t.schema_id = s.schema_id AND s.end_snapshot IS NULL "
                + "WHERE f.end_snapshot IS NULL AND t.table_name = '" + table.name() + "' AND s.schema_name = '" + table.schema() + "'")) {
            starts.put(fileName(row.get(0)), new long[] {row.get(1) == null ? -1 : Long.parseLong(row.get(1)), Long.parseLong(row.get(2))});
        }
        Map<String, long[]> held = new HashMap<>();
        for (List<String> row : oracle.query("SELECT data_file FROM ducklake_list_files('lake', '" + table.name() + "', schema => '" + table.schema() + "')")) {
            String path = row.getFirst();
            long[] start = starts.get(fileName(path));
            assertThat(start).as("catalog row of %s", path).isNotNull();
            if (embedsRowIds(oracle, path)) {
                held.put(path, oracle.query("SELECT _ducklake_internal_row_id FROM read_parquet('" + path + "')").stream()
                        .mapToLong(ids -> Long.parseLong(ids.getFirst())).toArray());
            }
            else {
                held.put(path, LongStream.range(start[0], start[0] + start[1]).toArray());
            }
        }
        assertThat(held).isNotEmpty();
        return held;
    }

    /** Whether the Parquet file at {@code path} has DuckLake's embedded row-id column. */
    public static boolean embedsRowIds(DuckLakeOracle oracle, String path)
            throws Exception
    {
        return !oracle.query("SELECT name FROM parquet_schema('" + path + "') WHERE name = '_ducklake_internal_row_id'").isEmpty();
    }

    public static String fileName(String path)
    {
        return path.substring(path.lastIndexOf('/') + 1);
    }
}
