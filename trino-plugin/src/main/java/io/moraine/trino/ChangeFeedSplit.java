package io.moraine.trino;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.moraine.core.changes.ChangeGroup;
import io.moraine.core.changes.ChangeTask;
import io.moraine.core.changes.ChangeTaskCodec;
import io.moraine.core.changes.InlinedChangesTask;
import io.moraine.core.types.TableColumn;
import io.moraine.core.types.TableColumnCodec;
import io.trino.spi.SplitWeight;
import io.trino.spi.connector.ConnectorSplit;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import static io.airlift.slice.SizeOf.instanceSize;
import static io.airlift.slice.SizeOf.sizeOf;
import static java.util.Objects.requireNonNull;

/**
 * One group of a change feed's tasks (the core's {@link ChangeGroup}), shipped to a worker as the core's encoding,
 * with everything its page source needs besides the lake's files, so that a worker never opens the catalog: the table
 * columns the query reads (the core's {@link TableColumn}s at the feed's end snapshot) and, for each of the group's
 * inlined tasks, its rows as the coordinator read them, in bounded pieces (the inline reader's Arrow IPC streams). The
 * pieces are aligned with {@link ChangeGroup#pairingTasks()}: a list per task, empty for a data-file task. A group is
 * one split whole, as the core's pairing needs every row of the group; a key-only task's pieces hold no column.
 */
public final class ChangeFeedSplit
        implements ConnectorSplit
{
    private static final int INSTANCE_SIZE = instanceSize(ChangeFeedSplit.class);

    private final byte[] group;
    private final byte[] columns;
    private final List<List<byte[]>> inlined;
    private final double weight;

    @JsonCreator
    public ChangeFeedSplit(@JsonProperty("group") byte[] group, @JsonProperty("columns") byte[] columns, @JsonProperty("inlined") List<List<byte[]>> inlined,
            @JsonProperty("weight") double weight)
    {
        this.group = requireNonNull(group, "group is null");
        this.columns = requireNonNull(columns, "columns is null");
        this.inlined = requireNonNull(inlined, "inlined is null").stream().map(List::copyOf).toList();
        this.weight = weight;
    }

    /** @param inlined the pieces of each of {@code group}'s pairing tasks, in their order */
    static ChangeFeedSplit of(ChangeGroup group, List<TableColumn> columns, List<List<byte[]>> inlined, double weight)
    {
        if (inlined.size() != group.pairingTasks().count()) {
            throw new IllegalArgumentException("a change-feed split needs the pieces of each of its group's tasks, not " + inlined.size() + " lists");
        }
        return new ChangeFeedSplit(ChangeTaskCodec.encode(group), TableColumnCodec.encode(columns), inlined, weight);
    }

    @JsonProperty
    public byte[] getGroup()
    {
        return group;
    }

    @JsonProperty
    public byte[] getColumns()
    {
        return columns;
    }

    @JsonProperty
    public List<List<byte[]>> getInlined()
    {
        return inlined;
    }

    @JsonProperty
    public double getWeight()
    {
        return weight;
    }

    public ChangeGroup group()
    {
        return ChangeTaskCodec.decode(group);
    }

    /** The table columns the query reads, as the coordinator found them at the feed's end snapshot. */
    List<TableColumn> columns()
    {
        return TableColumnCodec.decode(columns);
    }

    /** The pieces of each inlined task of {@code decoded} (this split's group, decoded once), by identity. */
    Map<ChangeTask, List<byte[]>> inlinedPieces(ChangeGroup decoded)
    {
        List<ChangeTask> tasks = decoded.pairingTasks().toList();
        if (tasks.size() != inlined.size()) {
            throw new IllegalStateException("the change-feed split holds pieces of " + inlined.size() + " tasks, its group " + tasks.size());
        }
        Map<ChangeTask, List<byte[]>> pieces = new IdentityHashMap<>();
        for (int i = 0; i < tasks.size(); i++) {
            if (tasks.get(i) instanceof InlinedChangesTask) {
                pieces.put(tasks.get(i), inlined.get(i));
            }
        }
        return pieces;
    }

    @Override
    public SplitWeight getSplitWeight()
    {
        return SplitWeight.fromProportion(weight);
    }

    @Override
    public long getRetainedSizeInBytes()
    {
        long size = INSTANCE_SIZE + sizeOf(group) + sizeOf(columns);
        for (List<byte[]> pieces : inlined) {
            for (byte[] piece : pieces) {
                size += sizeOf(piece);
            }
        }
        return size;
    }

    @Override
    public String toString()
    {
        return "change group (" + inlined.stream().mapToLong(List::size).sum() + " pieces of inlined rows)";
    }
}
