package io.moraine.spark;

import io.moraine.core.changes.ChangeKind;
import org.apache.spark.sql.connector.read.InputPartition;

import java.util.List;

/**
 * One of the core's change groups ({@code ChangeGroup}): its snapshots, whether its rows may pair into updates, and its
 * parts ({@link ChangeFilePartition}s and {@link InlinedRowsPartition}s), each with its kind.
 */
record ChangeGroupPartition(long firstSnapshot, long lastSnapshot, boolean pairs, List<InputPartition> parts, List<ChangeKind> kinds)
        implements InputPartition
{
    ChangeGroupPartition
    {
        parts = List.copyOf(parts);
        kinds = List.copyOf(kinds);
    }
}
