package io.moraine.spark;

import io.moraine.testing.CanonicalRowsAssert;
import io.moraine.testing.DuckDbCanonicalRows;
import io.moraine.testing.DuckLakeHistory;
import io.moraine.testing.LakeColumn;
import io.moraine.testing.LakeTable;
import io.moraine.testing.OracleSample;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Compares what Spark's catalog {@code lake} reads with what DuckDB + DuckLake reads: every column of every row of a
 * table at a snapshot, the columns being those DuckDB describes at that snapshot. How Spark names the snapshot (VERSION
 * AS OF, TIMESTAMP AS OF, a reader option) is the caller's {@link Reader}.
 */
final class SparkDuckLakeComparison
{
    /** Spark's rows of a table's columns at a snapshot, optionally filtered. */
    @FunctionalInterface
    interface Reader
    {
        List<Row> read(LakeTable table, long snapshot, List<LakeColumn> columns, String where);
    }

    private final DuckLakeHistory history;
    private final SparkSession spark;

    SparkDuckLakeComparison(DuckLakeHistory history, SparkSession spark)
    {
        this.history = history;
        this.spark = spark;
    }

    DuckLakeHistory history()
    {
        return history;
    }

    /** Spark SQL naming the snapshot with {@code asOf} (e.g. {@code s -> "VERSION AS OF " + s}). */
    Reader sql(Function<Long, String> asOf)
    {
        return (table, snapshot, columns, where) -> spark.sql("SELECT " + String.join(", ", columns.stream().map(SparkDuckLakeComparison::quoted).toList())
                + " FROM lake." + quoted(table.schema()) + "." + quoted(table.name()) + " " + asOf.apply(snapshot)
                + (where.isEmpty() ? "" : " WHERE " + where)).collectAsList();
    }

    static String quoted(LakeColumn column)
    {
        return quoted(column.name());
    }

    static String quoted(String identifier)
    {
        return "`" + identifier.replace("`", "``") + "`";
    }

    void assertSameRows(Reader reader, LakeTable table, long snapshot, String where)
            throws SQLException
    {
        List<LakeColumn> columns = history.columnsAt(table, snapshot);
        List<List<String>> expected = DuckDbCanonicalRows.read(history.oracle(), table, snapshot, columns, where);
        List<List<String>> actual = SparkCanonicalRows.of(reader.read(table, snapshot, columns, where), columns);
        CanonicalRowsAssert.assertSameRows(describe(table, snapshot, where), columns, expected, "Spark", actual);
    }

    private static String describe(LakeTable table, long snapshot, String where)
    {
        return table + " at snapshot " + snapshot + (where.isEmpty() ? "" : " WHERE " + where);
    }

    /**
     * Compares the sample of table snapshots {@link OracleSample#tableSnapshots} picks (every table at its newest
     * snapshot, its oldest and every third counting back), checked against the catalog's counts; returns how many
     * comparisons ran. Every table at every snapshot is compared engine-free by the moraine-cli module's {@code CatCommandTest}.
     */
    long sampledTableSnapshots(Reader reader)
            throws SQLException
    {
        return OracleSample.compareSampledTableSnapshots(history, new Tally(reader));
    }

    Tally tally(Reader reader)
    {
        return new Tally(reader);
    }

    /** Runs comparisons to the end even when some fail, so that one failure names every mismatch. */
    final class Tally
            implements OracleSample.TableSnapshotComparison
    {
        private final Reader reader;
        private final List<String> failures = new ArrayList<>();
        private long compared;

        private Tally(Reader reader)
        {
            this.reader = reader;
        }

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
                assertSameRows(reader, table, snapshot, where);
            }
            catch (AssertionError e) {
                failures.add(e.getMessage());
            }
            catch (RuntimeException e) {
                failures.add(describe(table, snapshot, where) + ": the query failed: " + e);
            }
            compared++;
        }

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
