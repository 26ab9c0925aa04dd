package io.moraine.cli;

import io.moraine.cli.cat.CsvWriter;
import io.moraine.testing.DuckLakeOracle;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * What DuckDB + DuckLake answers for every table at every surviving snapshot of the oracle lake, as the CSV lines
 * {@code bin/moraine cat} must print: the header, then {@code SELECT CAST(c AS VARCHAR), ... FROM lake.s.t AT (VERSION => n)}
 * row by row, the row lines sorted (cat's row order is unspecified, as DuckLake's is).
 */
final class DuckLakeAnswers
{
    /** One table at one snapshot and DuckDB's answer. */
    record Answer(long snapshot, String table, List<String> lines) {}

    private DuckLakeAnswers() {}

    static List<Answer> everyTableAtEverySnapshot(DuckLakeOracle oracle)
            throws SQLException
    {
        List<Answer> answers = new ArrayList<>();
        for (List<String> snapshot : oracle.query("SELECT snapshot_id FROM ducklake_snapshots('lake') ORDER BY 1")) {
            long id = Long.parseLong(snapshot.getFirst());
            for (String table : tablesAt(oracle, id)) {
                answers.add(new Answer(id, table, answer(oracle.connection(), table, id)));
            }
        }
        return answers;
    }

    /** The tables (schema.table) that exist at the snapshot, from DuckLake's own catalog tables. */
    private static List<String> tablesAt(DuckLakeOracle oracle, long snapshot)
            throws SQLException
    {
        return oracle.query("SELECT s.schema_name || '.' || t.table_name FROM __ducklake_metadata_lake.ducklake_table t "
                + "JOIN __ducklake_metadata_lake.ducklake_schema s USING (schema_id) "
                + "WHERE " + snapshot + " >= t.begin_snapshot AND (t.end_snapshot IS NULL OR " + snapshot + " < t.end_snapshot) ORDER BY 1")
                .stream().map(List::getFirst).toList();
    }

    private static List<String> answer(Connection connection, String table, long snapshot)
            throws SQLException
    {
        String relation = "lake." + table + " AT (VERSION => " + snapshot + ")";
        List<String> columns = new ArrayList<>();
        try (Statement statement = connection.createStatement(); ResultSet empty = statement.executeQuery("SELECT * FROM " + relation + " LIMIT 0")) {
            ResultSetMetaData metaData = empty.getMetaData();
            for (int i = 1; i <= metaData.getColumnCount(); i++) {
                columns.add(metaData.getColumnName(i));
            }
        }
        String select = "SELECT " + String.join(", ", columns.stream().map(name -> "CAST(\"" + name.replace("\"", "\"\"") + "\" AS VARCHAR)").toList())
                + " FROM " + relation;
        List<String> rows = new ArrayList<>();
        try (Statement statement = connection.createStatement(); ResultSet result = statement.executeQuery(select)) {
            while (result.next()) {
                List<String> fields = new ArrayList<>(columns.size());
                for (int i = 1; i <= columns.size(); i++) {
                    fields.add(result.getString(i));
                }
                rows.add(CsvWriter.line(fields));
            }
        }
        return lines(CsvWriter.line(columns) + String.join("", rows));
    }

    /** CSV text as its header line followed by its other lines sorted. */
    static List<String> lines(String csv)
    {
        List<String> lines = new ArrayList<>(List.of(csv.split("\n", -1)));
        // The text ends with a line feed: the piece after it is empty.
        lines.removeLast();
        if (lines.isEmpty()) {
            return lines;
        }
        List<String> sorted = new ArrayList<>(lines.subList(1, lines.size()));
        sorted.sort(null);
        sorted.addFirst(lines.getFirst());
        return sorted;
    }
}
