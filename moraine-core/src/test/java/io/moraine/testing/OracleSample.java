package io.moraine.testing;

import io.moraine.testing.DuckLakeChangeFeed.Range;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which of the oracle lake's comparisons an engine test makes. The exhaustive comparisons (every table at every
 * surviving snapshot, every table over every range of surviving snapshots) run once, engine-free, in the examples
 * module ({@code CatCommandTest}, {@code ChangeFeedAfterWorkloadTest}, {@code ChangeFeedBeforeFlushTest}); an engine
 * (Trino, Spark) makes every kind of comparison it made before on this deterministic sample of them, chosen here so
 * that the rule is written once:
 * <ul>
 * <li>ranges: the whole history of every table (the first surviving snapshot to the last at which the table exists),
 * and of the ranges that end at one of the table's sampled range ends (its newest snapshot, its oldest and every
 * {@value #OLDER_RANGE_END_STRIDE}th counting back), every one-snapshot range [s, s] and every
 * {@value #LONGER_RANGE_STRIDE}th of the others, in order of end then start;</li>
 * <li>table snapshots: every table at the newest snapshot at which it exists, at its oldest, and at every
 * {@value #OLDER_SNAPSHOT_STRIDE}th snapshot counting back from the newest.</li>
 * </ul>
 * Each {@code assert...Sample} checks a sample against counts taken from the catalog's own rows, so that a sample that
 * loses a table, a snapshot or a range fails.
 */
public final class OracleSample
{
    /** Of a table's ranges longer than one snapshot (the whole history aside), every this many-th is compared. */
    public static final int LONGER_RANGE_STRIDE = 4;
    /** Of a table's snapshots older than its newest, every this many-th is compared (and the oldest). */
    public static final int OLDER_SNAPSHOT_STRIDE = 3;
    /**
     * Of a table's snapshots older than its newest, every this many-th ends sampled ranges (and the oldest): a range's
     * changes carry the table's rows since its start, so range comparisons cost far more rows than table snapshots.
     */
    public static final int OLDER_RANGE_END_STRIDE = 9;

    /** A table at a snapshot. */
    public record TableSnapshot(LakeTable table, long snapshot) {}

    private OracleSample() {}

    /** The sample of {@code every} (as {@link DuckLakeChangeFeed#everyRange()} gives them: by end, then start), in that order. */
    public static List<Range> ranges(List<Range> every)
    {
        Map<LakeTable, Long> lastEnd = new LinkedHashMap<>();
        Map<LakeTable, Long> firstStart = new LinkedHashMap<>();
        Map<LakeTable, Set<Long>> ends = new LinkedHashMap<>();
        for (Range range : every) {
            lastEnd.merge(range.table(), range.end(), Math::max);
            firstStart.merge(range.table(), range.start(), Math::min);
            ends.computeIfAbsent(range.table(), table -> new java.util.TreeSet<>()).add(range.end());
        }
        Map<LakeTable, Set<Long>> sampledEnds = new LinkedHashMap<>();
        ends.forEach((table, all) -> sampledEnds.put(table, Set.copyOf(sampledSnapshots(new ArrayList<>(all), OLDER_RANGE_END_STRIDE))));
        Map<LakeTable, Integer> longerSeen = new LinkedHashMap<>();
        List<Range> sample = new ArrayList<>();
        for (Range range : every) {
            LakeTable table = range.table();
            boolean wholeHistory = range.start() == firstStart.get(table) && range.end() == lastEnd.get(table);
            if (wholeHistory) {
                sample.add(range);
                continue;
            }
            if (!sampledEnds.get(table).contains(range.end())) {
                continue;
            }
            if (range.start() == range.end()) {
                sample.add(range);
                continue;
            }
            int seen = longerSeen.merge(table, 1, Integer::sum) - 1;
            if (seen % LONGER_RANGE_STRIDE == 0) {
                sample.add(range);
            }
        }
        return sample;
    }

    /** Of a table's snapshots, oldest first: the newest, every {@code stride}th counting back, and the oldest. */
    private static List<Long> sampledSnapshots(List<Long> snapshots, int stride)
    {
        Set<Long> kept = new LinkedHashSet<>();
        for (int back = 0; back < snapshots.size(); back++) {
            if (back % stride == 0) {
                kept.add(snapshots.get(snapshots.size() - 1 - back));
            }
        }
        kept.add(snapshots.getFirst());
        return snapshots.stream().filter(kept::contains).toList();
    }

    /** The sampled ranges of {@code feed}: {@link #ranges(List)} of {@link DuckLakeChangeFeed#everyRange()}. */
    public static List<Range> ranges(DuckLakeChangeFeed feed)
            throws SQLException
    {
        return ranges(feed.everyRange());
    }

    /**
     * Checks {@code sample} against the catalog's rows: a whole-history range for every table, a one-snapshot range at
     * every table's newest snapshot and at least one in {@value #OLDER_RANGE_END_STRIDE} of the (snapshot, table) pairs.
     */
    public static void assertRangeSample(DuckLakeChangeFeed feed, List<Range> sample)
            throws SQLException
    {
        DuckLakeHistory history = feed.history();
        long pairs = history.tableSnapshotPairs();
        long all = feed.rangeCount();
        List<Long> snapshots = history.survivingSnapshots();
        Map<LakeTable, Long> newest = new LinkedHashMap<>();
        for (long snapshot : snapshots) {
            history.tablesAt(snapshot).forEach(table -> newest.put(table, snapshot));
        }
        newest.forEach((table, snapshot) -> assertThat(sample).as("the sample has %s's one-snapshot range at its newest snapshot", table)
                .contains(new Range(table, snapshot, snapshot, sample.stream().filter(range -> range.table().equals(table) && range.end() == snapshot)
                        .findFirst().orElseThrow(() -> new AssertionError("no sampled range of " + table + " ends at " + snapshot)).columns())));
        assertThat(sample.stream().filter(range -> range.start() == range.end()).count()).as("one-snapshot ranges sampled of the %d", pairs)
                .isGreaterThanOrEqualTo((pairs + OLDER_RANGE_END_STRIDE - 1) / OLDER_RANGE_END_STRIDE);
        assertThat(sample.stream().filter(range -> range.start() == snapshots.getFirst() && range.start() != range.end()).map(Range::table).distinct().count())
                .as("tables whose history from the first snapshot is sampled").isEqualTo(newest.size());
        assertThat(sample.stream().map(Range::table).distinct().count()).as("tables sampled").isEqualTo(newest.size());
        assertThat((long) sample.size()).as("ranges sampled of the %d", all).isLessThan(all);
    }

    /** The sampled (table, snapshot) pairs of {@code history}, by snapshot then table. */
    public static List<TableSnapshot> tableSnapshots(DuckLakeHistory history)
            throws SQLException
    {
        Map<LakeTable, List<Long>> snapshotsOf = new LinkedHashMap<>();
        List<TableSnapshot> every = new ArrayList<>();
        for (long snapshot : history.survivingSnapshots()) {
            for (LakeTable table : history.tablesAt(snapshot)) {
                snapshotsOf.computeIfAbsent(table, key -> new ArrayList<>()).add(snapshot);
                every.add(new TableSnapshot(table, snapshot));
            }
        }
        Set<TableSnapshot> kept = new LinkedHashSet<>();
        snapshotsOf.forEach((table, snapshots) -> sampledSnapshots(snapshots, OLDER_SNAPSHOT_STRIDE).forEach(snapshot -> kept.add(new TableSnapshot(table, snapshot))));
        return every.stream().filter(kept::contains).toList();
    }

    /**
     * Checks {@code sample} against the catalog's rows: every table at the newest snapshot at which it exists, and at
     * least one in {@value #OLDER_SNAPSHOT_STRIDE} of the (snapshot, table) pairs.
     */
    public static void assertTableSnapshotSample(DuckLakeHistory history, List<TableSnapshot> sample)
            throws SQLException
    {
        long pairs = history.tableSnapshotPairs();
        List<Long> snapshots = history.survivingSnapshots();
        Map<LakeTable, Long> newest = new LinkedHashMap<>();
        for (long snapshot : snapshots) {
            history.tablesAt(snapshot).forEach(table -> newest.put(table, snapshot));
        }
        newest.forEach((table, snapshot) -> assertThat(sample).as("the sample has %s at its newest snapshot", table).contains(new TableSnapshot(table, snapshot)));
        assertThat((long) sample.size()).as("table snapshots sampled of the %d", pairs).isGreaterThanOrEqualTo((pairs + OLDER_SNAPSHOT_STRIDE - 1) / OLDER_SNAPSHOT_STRIDE)
                .isLessThanOrEqualTo(pairs);
    }

    /** One engine's comparison of a table at a snapshot with DuckDB's answer, counted by the engine's tally. */
    public interface TableSnapshotComparison
    {
        void compare(LakeTable table, long snapshot)
                throws SQLException;

        /** How many comparisons ran; fails when any of them did. */
        long finish();
    }

    /** Compares every sampled table snapshot of {@code history}; fails unless exactly the sample's comparisons ran. */
    public static long compareSampledTableSnapshots(DuckLakeHistory history, TableSnapshotComparison comparison)
            throws SQLException
    {
        List<TableSnapshot> sample = tableSnapshots(history);
        assertTableSnapshotSample(history, sample);
        for (TableSnapshot pair : sample) {
            comparison.compare(pair.table(), pair.snapshot());
        }
        long compared = comparison.finish();
        if (compared != sample.size()) {
            throw new AssertionError(compared + " comparisons for a sample of " + sample.size());
        }
        return compared;
    }
}
