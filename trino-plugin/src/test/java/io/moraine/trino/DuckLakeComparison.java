package io.moraine.trino;

import io.moraine.testing.DuckLakeOracle;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner;

import java.sql.SQLException;
import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Compares what Trino's catalog {@code lake} answers with what DuckDB + DuckLake answers for the oracle workload's
 * tables ({@code sales.orders}, {@code main.events}) at a snapshot: row count and order-independent sums.
 */
final class DuckLakeComparison
{
    private final DuckLakeOracle oracle;
    private final QueryRunner trino;

    DuckLakeComparison(DuckLakeOracle oracle, QueryRunner trino)
    {
        this.oracle = oracle;
        this.trino = trino;
    }

    List<Long> survivingSnapshots()
            throws SQLException
    {
        return oracle.query("SELECT snapshot_id FROM ducklake_snapshots('lake') ORDER BY 1").stream()
                .map(row -> Long.parseLong(row.getFirst())).toList();
    }

    /** Asserts Trino's checksum equals DuckLake's; false when DuckLake cannot run it (table or column absent then). */
    boolean sameChecksum(String table, long snapshot, String where)
    {
        List<List<String>> expected;
        try {
            expected = oracle.query(checksum(table, "lake." + table + " AT (VERSION => " + snapshot + ")" + where, true));
        }
        catch (SQLException e) {
            return false;
        }
        List<String> actual = trino.execute(checksum(table, "lake." + table + " FOR VERSION AS OF " + snapshot + where, false))
                .getMaterializedRows().stream().map(MaterializedRow::getFields)
                .map(fields -> fields.stream().map(String::valueOf).collect(Collectors.joining("|")))
                .toList();
        assertThat(actual).as("%s at snapshot %d%s", table, snapshot, where)
                .isEqualTo(expected.stream().map(row -> String.join("|", row.stream().map(String::valueOf).toList())).toList());
        return true;
    }

    /** Compares both workload tables at every surviving snapshot; returns how many comparisons ran. */
    int everyTableAtEverySnapshot()
            throws SQLException
    {
        int compared = 0;
        for (long snapshot : survivingSnapshots()) {
            for (String table : List.of("sales.orders", "main.events")) {
                compared += sameChecksum(table, snapshot, "") ? 1 : 0;
            }
        }
        return compared;
    }

    /** Row count and order-independent sums over columns both engines print alike. */
    private static String checksum(String table, String relation, boolean duckdb)
    {
        String text = duckdb ? "VARCHAR" : "varchar";
        if (table.equals("sales.orders")) {
            return "SELECT count(*), CAST(sum(id) AS " + text + "), CAST(sum(amount) AS " + text + "), count(DISTINCT client), count(note) FROM " + relation;
        }
        return "SELECT count(*), CAST(sum(v) AS " + text + "), count(DISTINCT kind) FROM " + relation;
    }
}
