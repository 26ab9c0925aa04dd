package io.moraine.testing;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * DuckDB + DuckLake's change feed of the oracle lake, for comparing an engine's: the ranges to compare (every table
 * and every range of surviving snapshots) and DuckDB's answer for each, {@code ducklake_table_changes},
 * {@code ducklake_table_insertions} or {@code ducklake_table_deletions}, with the bounds as snapshot ids or as the
 * snapshots' times. Rows are canonical ({@link DuckDbCanonicalRows}): {@code snapshot_id}, {@code rowid},
 * ({@code change_type},) then every column of the table at the end snapshot.
 */
public final class DuckLakeChangeFeed
{
    /** DuckLake's three change-feed functions. */
    public enum Function
    {
        CHANGES("table_changes"),
        INSERTIONS("table_insertions"),
        DELETIONS("table_deletions");

        private final String name;

        Function(String name)
        {
            this.name = name;
        }

        /** The name without DuckDB's {@code ducklake_} prefix (Trino's name for it). */
        public String functionName()
        {
            return name;
        }

        /**
         * The columns the comparisons select before the table's own. Only {@code ducklake_table_changes} returns them
         * from {@code SELECT *}; of the other two they are DuckDB's virtual columns, selected by name.
         */
        public List<LakeColumn> changeColumns()
        {
            List<LakeColumn> columns = new ArrayList<>(List.of(new LakeColumn("snapshot_id", "BIGINT"), new LakeColumn("rowid", "BIGINT")));
            if (this == CHANGES) {
                columns.add(new LakeColumn("change_type", "VARCHAR"));
            }
            return columns;
        }
    }

    /** A table and the inclusive range [start, end] of its changes, with its columns at the end. */
    public record Range(LakeTable table, long start, long end, List<LakeColumn> columns)
    {
        @Override
        public String toString()
        {
            return table + " [" + start + ", " + end + "]";
        }
    }

    private final DuckLakeHistory history;
    private final Map<Long, String> snapshotTimes = new TreeMap<>();

    public DuckLakeChangeFeed(DuckLakeHistory history)
            throws SQLException
    {
        this.history = history;
        for (List<String> row : history.oracle().query("SELECT snapshot_id, strftime(snapshot_time AT TIME ZONE 'UTC', '%Y-%m-%d %H:%M:%S.%f') "
                + "FROM ducklake_snapshots('lake')")) {
            snapshotTimes.put(Long.parseLong(row.get(0)), row.get(1));
        }
    }

    public DuckLakeHistory history()
    {
        return history;
    }

    /** Every table and every range [a, b] of surviving snapshots a <= b where the table exists at b, by end then start. */
    public List<Range> everyRange()
            throws SQLException
    {
        List<Long> snapshots = history.survivingSnapshots();
        List<Range> ranges = new ArrayList<>();
        for (long end : snapshots) {
            for (LakeTable table : history.tablesAt(end)) {
                List<LakeColumn> columns = history.columnsAt(table, end);
                for (long start : snapshots) {
                    if (start <= end) {
                        ranges.add(new Range(table, start, end, columns));
                    }
                }
            }
        }
        return ranges;
    }

    /** How many ranges {@link #everyRange()} must give, counted from the catalog's table rows instead of DuckDB's listing. */
    public long rangeCount()
            throws SQLException
    {
        return Long.parseLong(history.oracle().query("SELECT count(*) FROM ducklake_snapshots('lake') e JOIN ducklake_snapshots('lake') s "
                + "ON s.snapshot_id <= e.snapshot_id JOIN __ducklake_metadata_lake.ducklake_table t ON t.begin_snapshot <= e.snapshot_id "
                + "AND (t.end_snapshot IS NULL OR e.snapshot_id < t.end_snapshot)").getFirst().getFirst());
    }

    /** The snapshot's time in UTC to the microsecond, {@code yyyy-MM-dd HH:mm:ss.SSSSSS}. */
    public String snapshotTime(long snapshot)
    {
        String time = snapshotTimes.get(snapshot);
        if (time == null) {
            throw new IllegalArgumentException("snapshot " + snapshot + " is not a surviving snapshot of the oracle lake");
        }
        return time;
    }

    /** DuckDB's answer for {@code range}, its bounds given as snapshot ids or (when {@code byTimestamp}) as the snapshots' times. */
    public List<List<String>> answer(Function function, Range range, boolean byTimestamp)
            throws SQLException
    {
        String bounds = byTimestamp
                ? "TIMESTAMPTZ '" + snapshotTime(range.start()) + "+00', TIMESTAMPTZ '" + snapshotTime(range.end()) + "+00'"
                : range.start() + ", " + range.end();
        List<String> select = new ArrayList<>(function.changeColumns().stream().map(LakeColumn::sqlName).toList());
        range.columns().forEach(column -> select.add(DuckDbCanonicalRows.expression(range.table(), column)));
        String sql = "SELECT " + String.join(", ", select) + " FROM ducklake_" + function.functionName() + "('lake', '" + range.table().schema() + "', '"
                + range.table().name() + "', " + bounds + ")";
        return DuckDbCanonicalRows.query(history.oracle(), sql);
    }
}
