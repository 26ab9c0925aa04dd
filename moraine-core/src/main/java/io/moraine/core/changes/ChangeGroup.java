package io.moraine.core.changes;

import java.util.List;
import java.util.stream.Stream;

/**
 * Tasks of a change feed read together so that {@code table_changes} pairs them alone (see {@link ChangeGroups}): every
 * row they report has a snapshot in {@code [firstSnapshot, lastSnapshot]}, and no row of another group with the same
 * snapshot is of the other {@link ChangeKind}. A reader pairs a group's rows only when {@link #pairs()}, and must refuse
 * a row whose snapshot falls outside the range (the grouping would have been wrong for it); {@link PairedChanges} does
 * both.
 *
 * @param tasks the tasks whose rows are reported
 * @param keyTasks tasks whose rows are not reported (a predicate ruled them out, {@link ChangePruning}) but whose
 *         snapshots and row ids are counted for pairing, because rows of {@code tasks} may pair with them
 */
public record ChangeGroup(long firstSnapshot, long lastSnapshot, List<ChangeTask> tasks, List<ChangeTask> keyTasks)
{
    public ChangeGroup
    {
        if (firstSnapshot > lastSnapshot) {
            throw new IllegalArgumentException("a change group's snapshots run from " + firstSnapshot + " to " + lastSnapshot + ", which is no range");
        }
        tasks = List.copyOf(tasks);
        keyTasks = List.copyOf(keyTasks);
    }

    /** A group whose every task is reported. */
    public ChangeGroup(long firstSnapshot, long lastSnapshot, List<ChangeTask> tasks)
    {
        this(firstSnapshot, lastSnapshot, tasks, List.of());
    }

    /** Whether the group holds both insertions and deletions, so that some of its rows may be updates. */
    public boolean pairs()
    {
        return pairingTasks().map(ChangeTask::kind).distinct().count() > 1;
    }

    /** Every task whose keys a pairing reader counts: the reported ones, then the key-only ones. */
    public Stream<ChangeTask> pairingTasks()
    {
        return Stream.concat(tasks.stream(), keyTasks.stream());
    }

    public boolean contains(long snapshot)
    {
        return firstSnapshot <= snapshot && snapshot <= lastSnapshot;
    }
}
