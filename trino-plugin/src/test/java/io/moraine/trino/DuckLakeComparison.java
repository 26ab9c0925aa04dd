package io.moraine.trino;

import io.moraine.testing.CanonicalRowsAssert;
import io.moraine.testing.DuckDbCanonicalRows;
import io.moraine.testing.DuckLakeHistory;
import io.moraine.testing.LakeColumn;
import io.moraine.testing.LakeTable;
import io.moraine.testing.OracleSample;
import io.trino.testing.QueryRunner;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Compares what Trino's catalog {@code lake} reads with what DuckDB + DuckLake reads: every column of every row of a
 * table at a snapshot, the columns being those DuckDB describes at that snapshot.
 */
final class DuckLakeComparison
{
    private final DuckLakeHistory history;
    private final QueryRunner trino;

    DuckLakeComparison(DuckLakeHistory history, QueryRunner trino)
    {
        this.history = history;
        this.trino = trino;
    }

    DuckLakeHistory history()
    {
        return history;
    }

    /** Asserts that Trino reads the rows DuckDB reads of {@code table} at {@code snapshot}, filtered by {@code where} (SQL, or empty). */
    void assertSameRows(LakeTable table, long snapshot, String where)
            throws SQLException
    {
        List<LakeColumn> columns = history.columnsAt(table, snapshot);
        List<List<String>> expected = DuckDbCanonicalRows.read(history.oracle(), table, snapshot, columns, where);
        String sql = "SELECT " + String.join(", ", columns.stream().map(LakeColumn::sqlName).toList()) + " FROM " + table.sqlName("lake")
                + " FOR VERSION AS OF " + snapshot + (where.isEmpty() ? "" : " WHERE " + where);
        List<List<String>> actual = TrinoCanonicalRows.of(trino.execute(sql));
        CanonicalRowsAssert.assertSameRows(describe(table, snapshot, where), columns, expected, "Trino", actual);
    }

    private static String describe(LakeTable table, long snapshot, String where)
    {
        return table + " at snapshot " + snapshot + (where.isEmpty() ? "" : " WHERE " + where);
    }

    /** Compares every table DuckDB lists at every surviving snapshot; returns how many comparisons ran. */
    long everyTableAtEverySnapshot()
            throws SQLException
    {
        Tally tally = tally();
        for (long snapshot : history.survivingSnapshots()) {
            for (LakeTable table : history.tablesAt(snapshot)) {
                tally.compare(table, snapshot, "");
            }
        }
        return tally.finish();
    }

    /**
     * Compares the sample of table snapshots {@link OracleSample#tableSnapshots} picks (every table at its newest
     * snapshot, its oldest and every third counting back), checked against the catalog's counts; returns how many
     * comparisons ran. Every table at every snapshot is compared engine-free by the moraine-cli module's {@code CatCommandTest}.
     */
    long sampledTableSnapshots()
            throws SQLException
    {
        return OracleSample.compareSampledTableSnapshots(history, tally());
    }

    /** A new count of comparisons. */
    Tally tally()
    {
        return new Tally();
    }

    /** Runs comparisons to the end even when some fail, so that one failure names every mismatch. */
    final class Tally
            implements OracleSample.TableSnapshotComparison
    {
        private final List<String> failures = new ArrayList<>();
        private long compared;

        @Override
        public void compare(LakeTable table, long snapshot)
                throws SQLException
        {
            compare(table, snapshot, "");
        }

        void compare(LakeTable table, long snapshot, String where)
                throws SQLException
        {
            try {
                assertSameRows(table, snapshot, where);
            }
            catch (AssertionError e) {
                failures.add(e.getMessage());
            }
            catch (RuntimeException e) {
                failures.add(describe(table, snapshot, where) + ": the query failed: " + e);
            }
            compared++;
        }

        /** How many comparisons ran; fails when any of them did. */
        @Override
        public long finish()
        {
            if (!failures.isEmpty()) {
                throw new AssertionError(failures.size() + " of " + compared + " comparisons failed:\n" + String.join("\n", failures));
            }
            return compared;
        }
    }
}
