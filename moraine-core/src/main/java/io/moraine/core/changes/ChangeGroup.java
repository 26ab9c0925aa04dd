package io.moraine.core.changes;

import java.util.List;

/**
 * Tasks of a change feed read together so that {@code table_changes} pairs them alone (see {@link ChangeGroups}): every
 * row they report has a snapshot in {@code [firstSnapshot, lastSnapshot]}, and no row of another group with the same
 * snapshot is of the other {@link ChangeKind}. A reader pairs a group's rows only when {@link #pairs()}, and must refuse
 * a row whose snapshot falls outside the range (the grouping would have been wrong for it).
 */
public record ChangeGroup(long firstSnapshot, long lastSnapshot, List<ChangeTask> tasks)
{
    public ChangeGroup
    {
        if (firstSnapshot > lastSnapshot) {
            throw new IllegalArgumentException("a change group's snapshots run from " + firstSnapshot + " to " + lastSnapshot + ", which is no range");
        }
        tasks = List.copyOf(tasks);
    }

    /** Whether the group holds both insertions and deletions, so that some of its rows may be updates. */
    public boolean pairs()
    {
        return tasks.stream().map(ChangeTask::kind).distinct().count() > 1;
    }

    public boolean contains(long snapshot)
    {
        return firstSnapshot <= snapshot && snapshot <= lastSnapshot;
    }
}
