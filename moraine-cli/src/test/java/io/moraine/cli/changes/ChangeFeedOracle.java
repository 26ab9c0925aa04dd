package io.moraine.cli.changes;

import com.google.common.collect.HashMultiset;
import io.moraine.cli.cat.CsvWriter;
import io.moraine.testing.DuckLakeOracle;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What DuckDB + DuckLake's change feed answers for a table and a range: {@code ducklake_table_insertions},
 * {@code ducklake_table_deletions} and {@code ducklake_table_changes}, each row as a CSV line of {@code snapshot_id},
 * {@code rowid}, ({@code change_type},) then every column of the table at the end snapshot cast to VARCHAR.
 */
final class ChangeFeedOracle
{
    /** DuckDB's three answers for one table and range. */
    record Answer(String schema, String table, long start, long end, List<String> insertions, List<String> deletions, List<String> changes)
    {
        /** The answer for [from, end], derived from this one's rows: those with {@code snapshot_id >= from}. */
        Answer from(long from)
        {
            return new Answer(schema, table, from, end, since(insertions, from), since(deletions, from), since(changes, from));
        }

        boolean sameRowsAs(Answer other)
        {
            return HashMultiset.create(insertions).equals(HashMultiset.create(other.insertions))
                    && HashMultiset.create(deletions).equals(HashMultiset.create(other.deletions))
                    && HashMultiset.create(changes).equals(HashMultiset.create(other.changes));
        }

        /** The lines whose first field, the snapshot id, is at least {@code from}. */
        private static List<String> since(List<String> lines, long from)
        {
            return lines.stream().filter(line -> Long.parseLong(line.substring(0, line.indexOf(','))) >= from).toList();
        }
    }

    private ChangeFeedOracle() {}

    /**
     * The answers for every table and every range [a, b] of surviving snapshots a <= b where the table exists at b.
     * Each call costs DuckLake tens of milliseconds whatever its size, so the ranges of a table that share an end are
     * derived from one call per function for the widest, [first, b]: the rows of [a, b] are its rows with
     * {@code snapshot_id >= a} (DuckLake's feed, update pairs included, is per snapshot). The derivation is checked
     * against DuckDB's own answers for the middle and the last start of each end.
     */
    static List<Answer> everyTableAndRange(DuckLakeOracle oracle)
            throws SQLException
    {
        List<Long> snapshots = oracle.query("SELECT snapshot_id FROM ducklake_snapshots('lake') ORDER BY 1").stream()
                .map(row -> Long.parseLong(row.getFirst())).toList();
        List<Answer> answers = new ArrayList<>();
        for (int endIndex = 0; endIndex < snapshots.size(); endIndex++) {
            long end = snapshots.get(endIndex);
            List<Long> starts = snapshots.subList(0, endIndex + 1);
            for (List<String> table : tablesAt(oracle, end)) {
                List<String> columns = columnsAt(oracle.connection(), table.get(0), table.get(1), end);
                Answer widest = answer(oracle.connection(), table.get(0), table.get(1), columns, starts.getFirst(), end);
                for (long start : starts) {
                    answers.add(widest.from(start));
                }
                for (long start : Set.of(starts.get(starts.size() / 2), end)) {
                    Answer direct = answer(oracle.connection(), table.get(0), table.get(1), columns, start, end);
                    if (!direct.sameRowsAs(widest.from(start))) {
                        throw new AssertionError("DuckDB's change feed of " + table + " [" + start + ", " + end + "] is not the rows of [" + starts.getFirst() + ", "
                                + end + "] from snapshot " + start + " on: the oracle's derivation of ranges does not hold");
                    }
                }
            }
        }
        return answers;
    }

    static Answer answer(Connection connection, String schema, String table, List<String> columns, long start, long end)
            throws SQLException
    {
        String arguments = "('lake', '" + schema + "', '" + table + "', " + start + ", " + end + ")";
        String cast = String.join(", ", columns.stream().map(name -> "CAST(\"" + name.replace("\"", "\"\"") + "\" AS VARCHAR)").toList());
        return new Answer(schema, table, start, end,
                rows(connection, "SELECT snapshot_id, rowid, " + cast + " FROM ducklake_table_insertions" + arguments),
                rows(connection, "SELECT snapshot_id, rowid, " + cast + " FROM ducklake_table_deletions" + arguments),
                rows(connection, "SELECT snapshot_id, rowid, change_type, " + cast + " FROM ducklake_table_changes" + arguments));
    }

    /** The (schema, table) pairs that exist at the snapshot, from DuckLake's own catalog tables. */
    private static List<List<String>> tablesAt(DuckLakeOracle oracle, long snapshot)
            throws SQLException
    {
        return oracle.query("SELECT s.schema_name, t.table_name FROM __ducklake_metadata_lake.ducklake_table t "
                + "JOIN __ducklake_metadata_lake.ducklake_schema s USING (schema_id) "
                + "WHERE " + snapshot + " >= t.begin_snapshot AND (t.end_snapshot IS NULL OR " + snapshot + " < t.end_snapshot) "
                + "AND " + snapshot + " >= s.begin_snapshot AND (s.end_snapshot IS NULL OR " + snapshot + " < s.end_snapshot) ORDER BY 1, 2");
    }

    static List<String> columnsAt(Connection connection, String schema, String table, long snapshot)
            throws SQLException
    {
        List<String> columns = new ArrayList<>();
        try (Statement statement = connection.createStatement();
                ResultSet empty = statement.executeQuery("SELECT * FROM lake." + schema + "." + table + " AT (VERSION => " + snapshot + ") LIMIT 0")) {
            ResultSetMetaData metaData = empty.getMetaData();
            for (int i = 1; i <= metaData.getColumnCount(); i++) {
                columns.add(metaData.getColumnName(i));
            }
        }
        return columns;
    }

    static List<String> rows(Connection connection, String select)
            throws SQLException
    {
        List<String> rows = new ArrayList<>();
        try (Statement statement = connection.createStatement(); ResultSet result = statement.executeQuery(select)) {
            int width = result.getMetaData().getColumnCount();
            while (result.next()) {
                List<String> fields = new ArrayList<>(width);
                for (int i = 1; i <= width; i++) {
                    fields.add(result.getString(i));
                }
                rows.add(CsvWriter.line(fields));
            }
        }
        return rows;
    }
}
