package io.moraine.trino;

import io.moraine.core.changes.ChangeGroup;
import io.moraine.core.changes.ChangeKey;
import io.moraine.core.changes.ChangeKind;
import io.moraine.core.changes.ChangePairing;
import io.moraine.core.changes.ChangeTask;
import io.moraine.core.changes.ChangeType;
import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.trino.spi.Page;
import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.SourcePage;
import io.trino.spi.function.table.TableFunctionProcessorState;
import io.trino.spi.function.table.TableFunctionSplitProcessor;

import java.io.IOException;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.trino.spi.function.table.TableFunctionProcessorState.Finished.FINISHED;
import static io.trino.spi.function.table.TableFunctionProcessorState.Processed.produced;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.VarcharType.VARCHAR;

/**
 * Reads one split of a change-feed call, task by task. For {@code table_changes} each row gets its {@code change_type}
 * by the core's {@link ChangePairing}: when the split's group {@link ChangeGroup#pairs() pairs}, the snapshots and row
 * ids of all its rows are counted first (a pass that reads no table column), so that the rows can then be streamed.
 */
final class ChangeFeedProcessor
        implements TableFunctionSplitProcessor
{
    private static final Map<ChangeType, Slice> CHANGE_TYPES = new EnumMap<>(ChangeType.class);

    static {
        for (ChangeType type : ChangeType.values()) {
            CHANGE_TYPES.put(type, Slices.utf8Slice(type.sqlName()));
        }
    }

    private final ChangeFeedFunctionHandle handle;
    private final ChangeGroup group;
    private final ChangeRowSources sources;
    private final Map<ChangeKind, Map<ChangeKey, Long>> keyCounts = new EnumMap<>(ChangeKind.class);
    private int nextTask;
    private ChangeTask task;
    private ConnectorPageSource current;

    ChangeFeedProcessor(ChangeFeedFunctionHandle handle, ChangeGroup group, ChangeRowSources sources)
    {
        this.handle = handle;
        this.group = group;
        this.sources = sources;
        for (ChangeKind kind : ChangeKind.values()) {
            keyCounts.put(kind, new HashMap<>());
        }
    }

    @Override
    public TableFunctionProcessorState process()
    {
        if (nextTask == 0 && current == null && handle.output() == ChangeFeedOutput.CHANGES && group.pairs()) {
            countKeys();
        }
        while (true) {
            if (current == null) {
                if (nextTask == group.tasks().size()) {
                    return FINISHED;
                }
                task = group.tasks().get(nextTask++);
                current = sources.open(task, handle.columns());
            }
            SourcePage page = current.getNextSourcePage();
            if (page == null) {
                closeCurrent();
                continue;
            }
            if (page.getPositionCount() > 0) {
                return produced(output(page.getPage()));
            }
        }
    }

    /** The snapshot and row id of every row of the group, counted by kind. */
    private void countKeys()
    {
        for (ChangeTask counted : group.tasks()) {
            try (ConnectorPageSource keys = sources.open(counted, List.of())) {
                Map<ChangeKey, Long> counts = keyCounts.get(counted.kind());
                while (!keys.isFinished()) {
                    SourcePage page = keys.getNextSourcePage();
                    if (page == null) {
                        continue;
                    }
                    Block snapshots = page.getBlock(0);
                    Block rowIds = page.getBlock(1);
                    for (int row = 0; row < page.getPositionCount(); row++) {
                        counts.merge(new ChangeKey(checkedSnapshot(BIGINT.getLong(snapshots, row)), BIGINT.getLong(rowIds, row)), 1L, Long::sum);
                    }
                }
            }
            catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }

    private Page output(Page page)
    {
        if (handle.output() != ChangeFeedOutput.CHANGES) {
            return page;
        }
        Block snapshots = page.getBlock(0);
        Block rowIds = page.getBlock(1);
        Map<ChangeKey, Long> otherSide = keyCounts.get(task.kind() == ChangeKind.INSERTION ? ChangeKind.DELETION : ChangeKind.INSERTION);
        int[] positions = new int[page.getPositionCount()];
        int count = 0;
        BlockBuilder types = VARCHAR.createBlockBuilder(null, page.getPositionCount());
        for (int row = 0; row < page.getPositionCount(); row++) {
            ChangeKey key = new ChangeKey(checkedSnapshot(BIGINT.getLong(snapshots, row)), BIGINT.getLong(rowIds, row));
            for (ChangeType type : ChangePairing.changeTypes(task.kind(), key, otherSide)) {
                if (count == positions.length) {
                    positions = java.util.Arrays.copyOf(positions, positions.length * 2);
                }
                positions[count++] = row;
                VARCHAR.writeSlice(types, CHANGE_TYPES.get(type));
            }
        }
        Block[] blocks = new Block[page.getChannelCount() + 1];
        blocks[0] = snapshots.getPositions(positions, 0, count);
        blocks[1] = rowIds.getPositions(positions, 0, count);
        blocks[2] = types.build();
        for (int channel = 2; channel < page.getChannelCount(); channel++) {
            blocks[channel + 1] = page.getBlock(channel).getPositions(positions, 0, count);
        }
        return new Page(count, blocks);
    }

    /** A row outside its group's snapshots could pair with a row of another split: the grouping was wrong for it. */
    private long checkedSnapshot(long snapshot)
    {
        if (!group.contains(snapshot)) {
            throw new TrinoException(MoraineErrorCode.MORAINE_INTERNAL_ERROR, handle.output().functionName() + " of " + handle.table() + ": a change of snapshot "
                    + snapshot + " was read by the split planned for snapshots " + group.firstSnapshot() + " to " + group.lastSnapshot()
                    + ", so its pairing into updates could be wrong; this is a bug in moraine's change-feed grouping");
        }
        return snapshot;
    }

    private void closeCurrent()
    {
        try (ConnectorPageSource closing = current) {
            current = null;
        }
        catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Override
    public void close()
            throws IOException
    {
        if (current != null) {
            current.close();
            current = null;
        }
    }
}
