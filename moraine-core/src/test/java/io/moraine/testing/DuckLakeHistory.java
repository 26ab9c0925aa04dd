package io.moraine.testing;

import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * What DuckDB + DuckLake says the oracle lake held at each surviving snapshot: the snapshots, the tables at each, and
 * a table's columns at each. An engine's comparison walks these; the counts ({@link #tableSnapshotPairs()},
 * {@link #snapshotsWithColumns}) come from the catalog's own rows instead, so that a comparison loop that skips a
 * table or a snapshot does not also lower the count it is checked against.
 */
public final class DuckLakeHistory
{
    private static final String AT_SNAPSHOT = "oracle_lake_at_snapshot";
    private static final String METADATA = "__ducklake_metadata_lake";

    private final DuckLakeOracle oracle;
    private final String catalogCopy;

    private DuckLakeHistory(DuckLakeOracle oracle, String catalogCopy)
    {
        this.oracle = oracle;
        this.catalogCopy = catalogCopy;
    }

    /**
     * The history of the lake as it is now. DuckDB cannot attach the lake's catalog a second time (at another
     * snapshot) while the oracle holds it, so the tables at a snapshot are listed from a copy written to {@code copy}.
     */
    public static DuckLakeHistory of(DuckLakeOracle oracle, Path copy)
            throws SQLException
    {
        return new DuckLakeHistory(oracle, oracle.catalogCopy(copy));
    }

    public DuckLakeOracle oracle()
    {
        return oracle;
    }

    public List<Long> survivingSnapshots()
            throws SQLException
    {
        return oracle.query("SELECT snapshot_id FROM ducklake_snapshots('lake') ORDER BY 1").stream()
                .map(row -> Long.parseLong(row.getFirst()))
                .toList();
    }

    /** The tables (not views) that exist at {@code snapshot}, from the catalog attached at that snapshot. */
    public List<LakeTable> tablesAt(long snapshot)
            throws SQLException
    {
        oracle.execute("ATTACH '" + catalogCopy + "' AS " + AT_SNAPSHOT + " (SNAPSHOT_VERSION " + snapshot + ", READ_ONLY)");
        try {
            return oracle.query("SELECT schema_name, table_name FROM duckdb_tables() WHERE database_name = '" + AT_SNAPSHOT + "' ORDER BY 1, 2").stream()
                    .map(row -> new LakeTable(row.get(0), row.get(1)))
                    .toList();
        }
        finally {
            oracle.execute("DETACH " + AT_SNAPSHOT);
        }
    }

    /** The columns of {@code table} at {@code snapshot}, in table order, as DuckDB describes them. */
    public List<LakeColumn> columnsAt(LakeTable table, long snapshot)
            throws SQLException
    {
        List<LakeColumn> columns = oracle.query("SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM " + table.sqlName("lake")
                        + " AT (VERSION => " + snapshot + "))").stream()
                .map(row -> new LakeColumn(row.get(0), row.get(1)))
                .toList();
        if (columns.isEmpty()) {
            throw new IllegalStateException("DuckDB describes no columns for " + table + " at snapshot " + snapshot);
        }
        return columns;
    }

    /** How many (surviving snapshot, table) pairs the lake has, counted from the catalog's table rows. */
    public long tableSnapshotPairs()
            throws SQLException
    {
        return count("SELECT count(*) FROM ducklake_snapshots('lake') s JOIN " + METADATA + ".ducklake_table t ON " + visibleAt("t", "s"), List.of());
    }

    /**
     * At how many surviving snapshots {@code table} exists with every one of {@code columns} (top-level, by name),
     * counted from the catalog's table, schema and column rows.
     */
    public long snapshotsWithColumns(LakeTable table, List<String> columns)
            throws SQLException
    {
        String placeholders = String.join(", ", columns.stream().map(column -> "?").toList());
        String sql = "SELECT count(*) FROM ducklake_snapshots('lake') s"
                + " JOIN " + METADATA + ".ducklake_table t ON " + visibleAt("t", "s")
                + " JOIN " + METADATA + ".ducklake_schema sc ON sc.schema_id = t.schema_id AND " + visibleAt("sc", "s")
                + " WHERE sc.schema_name = ? AND t.table_name = ?"
                + " AND (SELECT count(DISTINCT c.column_name) FROM " + METADATA + ".ducklake_column c"
                + " WHERE c.table_id = t.table_id AND c.parent_column IS NULL AND " + visibleAt("c", "s")
                + " AND c.column_name IN (" + placeholders + ")) = " + columns.size();
        List<String> parameters = new ArrayList<>(List.of(table.schema(), table.name()));
        parameters.addAll(columns);
        return count(sql, parameters);
    }

    /** DuckLake's visibility rule: a catalog row is visible at snapshot S when begin <= S < end (or no end). */
    private static String visibleAt(String row, String snapshot)
    {
        return row + ".begin_snapshot <= " + snapshot + ".snapshot_id AND (" + row + ".end_snapshot IS NULL OR " + snapshot + ".snapshot_id < "
                + row + ".end_snapshot)";
    }

    private long count(String sql, List<String> parameters)
            throws SQLException
    {
        try (PreparedStatement statement = oracle.connection().prepareStatement(sql)) {
            for (int i = 0; i < parameters.size(); i++) {
                statement.setString(i + 1, parameters.get(i));
            }
            try (ResultSet result = statement.executeQuery()) {
                result.next();
                return result.getLong(1);
            }
        }
    }
}
