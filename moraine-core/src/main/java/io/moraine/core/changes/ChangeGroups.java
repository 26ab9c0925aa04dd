package io.moraine.core.changes;

import io.moraine.core.io.LakeFileSystem;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Splits a change feed's tasks into {@link ChangeGroup}s an engine reads in parallel: {@code table_changes} pairs a
 * deletion with an insertion of the same snapshot and row id (reference §6.3), so tasks that may report rows of a common
 * snapshot with opposite kinds go into one group, and the rest into groups of one task. Each task's snapshots are bounded
 * without reading a data file: an insertion of a file written whole at its begin snapshot, of a flush or merge output
 * its rows between the file's begin snapshot and {@code partial_max}; a deletion by its delete files (read here, they
 * are small) and inlined deletes. The table's inlined rows span the whole range; they are cut into the groups' snapshot
 * ranges (at most {@code maxInlinedRanges} of them, merged when there are more) so that they do not join every group.
 */
public final class ChangeGroups
{
    private ChangeGroups() {}

    /** A task with the snapshots its rows can have. */
    record Bounded(ChangeTask task, long first, long last) {}

    /** A group as planned, each task with its snapshots. */
    record BoundedGroup(long first, long last, List<Bounded> tasks)
    {
        ChangeGroup group()
        {
            return new ChangeGroup(first, last, tasks.stream().map(Bounded::task).toList());
        }
    }

    /**
     * The groups of {@code tasks}, planned by {@code feed}; deletion tasks that delete nothing in the range are left out.
     * {@code files} reads the delete files.
     */
    public static List<ChangeGroup> of(ChangeFeed feed, List<ChangeTask> tasks, LakeFileSystem files, int maxInlinedRanges)
    {
        return of(feed.startSnapshot(), feed.endSnapshot(), tasks, files, maxInlinedRanges);
    }

    /**
     * The groups of {@code tasks} that {@code pruning} does not rule out, for {@code table_changes}: only whole groups
     * are left out, so every row read pairs as it would without the predicate ({@link ChangePruning}).
     */
    public static List<ChangeGroup> of(ChangeFeed feed, List<ChangeTask> tasks, LakeFileSystem files, int maxInlinedRanges, ChangePruning pruning)
    {
        if (pruning.matchesNothing()) {
            return List.of();
        }
        List<ChangeGroup> groups = new ArrayList<>();
        for (BoundedGroup group : bounded(feed.startSnapshot(), feed.endSnapshot(), tasks, files, maxInlinedRanges)) {
            pruning.prune(group).ifPresent(groups::add);
        }
        return groups;
    }

    /**
     * The tasks of one {@code side} ({@code table_insertions} or {@code table_deletions}), each a group of its own
     * spanning the feed, that {@code pruning} does not rule out. Nothing pairs, so each task is judged alone; a
     * deletion's snapshots are read from its delete files only when pruning is by snapshot.
     */
    public static List<ChangeGroup> ofSide(ChangeFeed feed, List<ChangeTask> tasks, ChangeKind side, LakeFileSystem files, ChangePruning pruning)
    {
        List<ChangeGroup> groups = new ArrayList<>();
        if (pruning.matchesNothing() || feed.startSnapshot() > feed.endSnapshot()) {
            return groups;
        }
        long from = feed.startSnapshot();
        long to = feed.endSnapshot();
        for (ChangeTask task : tasks) {
            if (task.kind() != side) {
                continue;
            }
            Optional<Bounded> bounded = switch (task) {
                case InsertedRowsTask inserted -> Optional.of(bounds(inserted, from, to));
                case InlinedChangesTask inlined -> pruning.inlinedBounds(inlined);
                case DeletedRowsTask deleted -> pruning.prunesBySnapshot() ? bounds(deleted, files) : Optional.of(new Bounded(deleted, from, to));
            };
            if (bounded.isPresent() && pruning.mayMatch(bounded.get())) {
                groups.add(new ChangeGroup(from, to, List.of(task)));
            }
        }
        return groups;
    }

    /** A deletion task's snapshots, from its delete files; empty when it deletes nothing in the range. */
    private static Optional<Bounded> bounds(DeletedRowsTask task, LakeFileSystem files)
    {
        DeletedRows rows = DeletedRows.of(task, files);
        return rows.isEmpty() ? Optional.empty() : Optional.of(new Bounded(task, rows.firstSnapshot(), rows.lastSnapshot()));
    }

    /** The groups of {@code tasks} of the feed {@code [from, to]}. */
    public static List<ChangeGroup> of(long from, long to, List<ChangeTask> tasks, LakeFileSystem files, int maxInlinedRanges)
    {
        return bounded(from, to, tasks, files, maxInlinedRanges).stream().map(BoundedGroup::group).toList();
    }

    private static List<BoundedGroup> bounded(long from, long to, List<ChangeTask> tasks, LakeFileSystem files, int maxInlinedRanges)
    {
        if (maxInlinedRanges < 1) {
            throw new IllegalArgumentException("maxInlinedRanges must be at least 1, was " + maxInlinedRanges);
        }
        List<InlinedChangesTask> inlined = new ArrayList<>();
        List<Bounded> bounded = new ArrayList<>();
        for (ChangeTask task : tasks) {
            switch (task) {
                case InlinedChangesTask inlinedTask -> inlined.add(inlinedTask);
                case InsertedRowsTask inserted -> bounded.add(bounds(inserted, from, to));
                case DeletedRowsTask deleted -> {
                    DeletedRows rows = DeletedRows.of(deleted, files);
                    if (!rows.isEmpty()) {
                        bounded.add(new Bounded(deleted, rows.firstSnapshot(), rows.lastSnapshot()));
                    }
                }
            }
        }
        if (from > to) {
            return List.of();
        }
        List<List<Bounded>> clusters = clusters(bounded);
        return inlined.isEmpty() ? withoutInlined(clusters) : withInlined(clusters, inlined, from, to, maxInlinedRanges);
    }

    /** An insertion task's snapshots: the file's begin, or for a file of several snapshots its begin to partial_max. */
    private static Bounded bounds(InsertedRowsTask task, long from, long to)
    {
        long begin = task.file().beginSnapshot();
        if (task.file().partialMax().isEmpty()) {
            return new Bounded(task, begin, begin);
        }
        long last = Math.min(to, task.file().partialMax().getAsLong());
        long first = Math.max(from, begin);
        return first <= last ? new Bounded(task, first, last) : new Bounded(task, from, Math.max(from, last));
    }

    /** Tasks whose snapshot ranges overlap, transitively, ordered by snapshot. */
    private static List<List<Bounded>> clusters(List<Bounded> tasks)
    {
        List<Bounded> sorted = new ArrayList<>(tasks);
        sorted.sort(Comparator.comparingLong(Bounded::first));
        List<List<Bounded>> clusters = new ArrayList<>();
        long last = Long.MIN_VALUE;
        for (Bounded task : sorted) {
            if (clusters.isEmpty() || task.first() > last) {
                clusters.add(new ArrayList<>());
            }
            clusters.getLast().add(task);
            last = Math.max(last, task.last());
        }
        return clusters;
    }

    /** A cluster of both kinds is one group; one of a single kind needs no pairing, so each of its tasks is a group. */
    private static List<BoundedGroup> withoutInlined(List<List<Bounded>> clusters)
    {
        List<BoundedGroup> groups = new ArrayList<>();
        for (List<Bounded> cluster : clusters) {
            long first = cluster.getFirst().first();
            long last = cluster.stream().mapToLong(Bounded::last).max().orElseThrow();
            BoundedGroup whole = new BoundedGroup(first, last, cluster);
            if (whole.group().pairs()) {
                groups.add(whole);
            }
            else {
                cluster.forEach(task -> groups.add(new BoundedGroup(first, last, List.of(task))));
            }
        }
        return groups;
    }

    /**
     * The range cut into consecutive pieces, one per cluster (each reaching back to the previous one's end), merged into
     * at most {@code maxRanges}; each piece gets the clusters' tasks in it and the inlined rows of its snapshots.
     */
    private static List<BoundedGroup> withInlined(List<List<Bounded>> clusters, List<InlinedChangesTask> inlined, long from, long to, int maxRanges)
    {
        List<long[]> pieces = new ArrayList<>();
        List<List<Bounded>> pieceTasks = new ArrayList<>();
        long next = from;
        for (List<Bounded> cluster : clusters) {
            long last = Math.max(next, cluster.stream().mapToLong(Bounded::last).max().orElseThrow());
            pieces.add(new long[] {next, last});
            pieceTasks.add(cluster);
            next = last + 1;
        }
        if (pieces.isEmpty() || next <= to) {
            pieces.add(new long[] {next, to});
            pieceTasks.add(List.of());
        }
        int perGroup = Math.ceilDiv(pieces.size(), maxRanges);
        List<BoundedGroup> groups = new ArrayList<>();
        for (int start = 0; start < pieces.size(); start += perGroup) {
            int end = Math.min(pieces.size(), start + perGroup);
            long first = pieces.get(start)[0];
            long last = pieces.get(end - 1)[1];
            List<Bounded> groupTasks = new ArrayList<>();
            for (InlinedChangesTask task : inlined) {
                groupTasks.add(new Bounded(new InlinedChangesTask(task.tableId(), task.kind(), task.endSnapshotId(), task.plannedHead(), first, last,
                        task.schemaVersions()), first, last));
            }
            for (int piece = start; piece < end; piece++) {
                groupTasks.addAll(pieceTasks.get(piece));
            }
            groups.add(new BoundedGroup(first, last, groupTasks));
        }
        return groups;
    }
}
