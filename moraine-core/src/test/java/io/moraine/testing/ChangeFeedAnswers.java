package io.moraine.testing;

import com.google.common.collect.HashMultiset;
import io.moraine.testing.DuckLakeChangeFeed.Function;
import io.moraine.testing.DuckLakeChangeFeed.Range;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * DuckDB + DuckLake's answers of one change-feed function for the ranges of one table that share an end, read with
 * one DuckDB call instead of one per range (each call costs DuckLake tens of milliseconds, whatever its size): the
 * widest range [first, end] is read, and a range [a, end] is given those of its rows with {@code snapshot_id >= a}
 * (DuckLake's feed, update pairs included, is per snapshot). The derivation is checked against DuckDB's own answer
 * for a sample of the ranges, the first, a middle and the last start, by snapshot ids and by the snapshots' times.
 */
public final class ChangeFeedAnswers
{
    private final Range widest;
    private final List<List<String>> widestRows;
    private long checked;

    private ChangeFeedAnswers(Range widest, List<List<String>> widestRows)
    {
        this.widest = widest;
        this.widestRows = widestRows;
    }

    /**
     * The answers of {@code function} for ranges [start, end] of {@code table}, one per start, with its columns at the
     * end; the sample is also checked by timestamp bounds when {@code byTimestampToo}.
     */
    public static ChangeFeedAnswers read(DuckLakeChangeFeed feed, Function function, LakeTable table, long end, List<LakeColumn> columns, List<Long> starts,
            boolean byTimestampToo)
            throws SQLException
    {
        long first = starts.stream().mapToLong(Long::longValue).min().orElseThrow();
        Range widest = new Range(table, first, end, columns);
        ChangeFeedAnswers answers = new ChangeFeedAnswers(widest, feed.answer(function, widest, false));
        List<Long> sorted = starts.stream().sorted().toList();
        Set<Long> sample = new LinkedHashSet<>(List.of(sorted.getFirst(), sorted.get(sorted.size() / 2), sorted.getLast()));
        for (long start : sample) {
            Range range = new Range(table, start, end, columns);
            List<List<String>> derived = answers.answer(start);
            for (boolean byTimestamp : byTimestampToo ? new boolean[] {false, true} : new boolean[] {false}) {
                if (start == first && !byTimestamp) {
                    continue; // the widest range itself
                }
                List<List<String>> direct = feed.answer(function, range, byTimestamp);
                if (!HashMultiset.create(direct).equals(HashMultiset.create(derived))) {
                    throw new AssertionError("DuckDB's " + function.functionName() + " of " + range + (byTimestamp ? " by timestamp" : "") + " has " + direct.size()
                            + " rows, not the " + derived.size() + " of " + widest + " from snapshot " + start + " on: the oracle's derivation of ranges does not hold");
                }
                answers.checked++;
            }
        }
        return answers;
    }

    /** DuckDB's answer for [start, end] (the same by snapshot ids or by the snapshots' times). */
    public List<List<String>> answer(long start)
    {
        if (start < widest.start()) {
            throw new IllegalArgumentException("no answer was read for a range starting at " + start + ", before " + widest);
        }
        List<List<String>> rows = new ArrayList<>();
        for (List<String> row : widestRows) {
            if (Long.parseLong(row.getFirst()) >= start) {
                rows.add(row);
            }
        }
        return rows;
    }

    /** How many derived answers (range and kind of bounds) were checked against DuckDB's own. */
    public long checked()
    {
        return checked;
    }
}
