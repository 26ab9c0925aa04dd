package io.moraine.testing;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The row ids DuckDB+DuckLake gave the rows a MERGE inserted, per table: engines may number a MERGE's new rows in
 * another order, so an engine's write oracle compares those rows without their row ids ({@link #masked}). The ranges
 * come from the oracle lake's {@code ducklake_table_stats.next_row_id} before and after the step.
 */
public final class MergeInsertedRowIds
{
    private final DuckDbSession duckdb;
    private final String oracleMetadata;
    private final Map<String, List<long[]>> byTable = new HashMap<>();

    /** {@code oracleMetadata}: the name the oracle lake's metadata catalog is attached as in {@code duckdb}. */
    public MergeInsertedRowIds(DuckDbSession duckdb, String oracleMetadata)
    {
        this.duckdb = duckdb;
        this.oracleMetadata = oracleMetadata;
    }

    /** Runs a MERGE step on {@code table} and records the row ids it gave new rows. */
    public void around(String table, OracleDifferences.Step step)
            throws Exception
    {
        long[] range = {nextRowId(table), Long.MAX_VALUE}; // open while the step's own comparisons run
        byTable.computeIfAbsent(table, _ -> new ArrayList<>()).add(range);
        step.run();
        range[1] = nextRowId(table);
    }

    /** The rows (row id last) with the row ids a MERGE gave its inserted rows replaced by a mark. */
    public List<List<String>> masked(String table, List<List<String>> rows)
    {
        List<long[]> ranges = byTable.getOrDefault(table, List.of());
        if (ranges.isEmpty()) {
            return rows;
        }
        return rows.stream().map(row -> {
            long rowId = Long.parseLong(row.getLast());
            if (ranges.stream().noneMatch(range -> rowId >= range[0] && rowId < range[1])) {
                return row;
            }
            List<String> copy = new ArrayList<>(row);
            copy.set(copy.size() - 1, "(inserted by a MERGE)");
            return copy;
        }).toList();
    }

    private long nextRowId(String table)
            throws Exception
    {
        return Long.parseLong(duckdb.query("SELECT s.next_row_id FROM " + oracleMetadata + ".ducklake_table_stats s JOIN " + oracleMetadata
                + ".ducklake_table t USING (table_id) WHERE t.table_name = '" + table + "' AND t.end_snapshot IS NULL").getFirst().getFirst());
    }
}
