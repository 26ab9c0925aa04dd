package io.moraine.trino;

import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.moraine.core.changes.ChangeGroup;
import io.moraine.core.changes.ChangeKey;
import io.moraine.core.changes.ChangeKind;
import io.moraine.core.changes.ChangePairing;
import io.moraine.core.changes.ChangeTask;
import io.moraine.core.changes.ChangeType;
import io.trino.spi.Page;
import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.SourcePage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.VarcharType.VARCHAR;

/**
 * Reads one split of a change-feed scan, task by task, as pages of the columns the query asked for. For
 * {@code table_changes} each row gets its {@code change_type} by the core's {@link ChangePairing}: when the split's
 * group {@link ChangeGroup#pairs() pairs}, the snapshots and row ids of all its rows are counted first (a pass that
 * reads no table column), so that the rows can then be streamed. No predicate is applied here: Trino filters the
 * rows after their change type is known.
 */
final class ChangeFeedPageSource
        implements ConnectorPageSource
{
    private static final Map<ChangeType, Slice> CHANGE_TYPES = new EnumMap<>(ChangeType.class);

    static {
        for (ChangeType type : ChangeType.values()) {
            CHANGE_TYPES.put(type, Slices.utf8Slice(type.sqlName()));
        }
    }

    private final ChangeFeedTableHandle handle;
    private final ChangeGroup group;
    private final ChangeRowSources sources;
    private final List<ChangeFeedColumnHandle> outputs;
    /** The table columns read, each once; outputs[i] of a table column reads channel 2 + readIndex[i]. */
    private final List<MoraineColumnHandle> readColumns = new ArrayList<>();
    private final int[] readIndex;
    private final boolean pairs;
    private final Map<ChangeKind, Map<ChangeKey, Long>> keyCounts = new EnumMap<>(ChangeKind.class);
    private int nextTask;
    private ChangeTask task;
    private ConnectorPageSource current;
    private boolean counted;
    private boolean finished;
    private long completedBytes;
    private long readTimeNanos;

    ChangeFeedPageSource(ChangeFeedTableHandle handle, ChangeGroup group, ChangeRowSources sources, List<ChangeFeedColumnHandle> outputs)
    {
        this.handle = handle;
        this.group = group;
        this.sources = sources;
        this.outputs = List.copyOf(outputs);
        this.readIndex = new int[outputs.size()];
        for (int i = 0; i < outputs.size(); i++) {
            ChangeFeedColumnHandle output = outputs.get(i);
            if (output.tableColumn().isPresent()) {
                int index = readColumns.indexOf(output.tableColumn().get());
                if (index < 0) {
                    index = readColumns.size();
                    readColumns.add(output.tableColumn().get());
                }
                readIndex[i] = index;
            }
        }
        this.pairs = handle.output() == ChangeFeedOutput.CHANGES && group.pairs();
        for (ChangeKind kind : ChangeKind.values()) {
            keyCounts.put(kind, new HashMap<>());
        }
    }

    @Override
    public SourcePage getNextSourcePage()
    {
        if (finished) {
            return null;
        }
        if (pairs && !counted) {
            countKeys();
            counted = true;
        }
        while (true) {
            if (current == null) {
                if (nextTask == group.tasks().size()) {
                    finished = true;
                    return null;
                }
                task = group.tasks().get(nextTask++);
                current = sources.open(task, readColumns);
            }
            SourcePage page = current.getNextSourcePage();
            if (page == null) {
                closeCurrent();
                continue;
            }
            if (page.getPositionCount() > 0) {
                return SourcePage.create(output(page.getPage()));
            }
        }
    }

    /** The snapshot and row id of every row of the group, its key tasks' included, counted by kind. */
    private void countKeys()
    {
        for (ChangeTask counted : group.pairingTasks().toList()) {
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
                completedBytes += keys.getCompletedBytes();
                readTimeNanos += keys.getReadTimeNanos();
            }
            catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** The page of the outputs from a task's page (snapshot_id, rowid, then the read columns). */
    private Page output(Page page)
    {
        int rows = page.getPositionCount();
        Block snapshots = page.getBlock(0);
        Block rowIds = page.getBlock(1);
        int[] positions = null;
        int count = rows;
        Block changeTypes = null;
        if (handle.output() == ChangeFeedOutput.CHANGES) {
            Map<ChangeKey, Long> otherSide = keyCounts.get(task.kind() == ChangeKind.INSERTION ? ChangeKind.DELETION : ChangeKind.INSERTION);
            positions = new int[rows];
            count = 0;
            BlockBuilder types = VARCHAR.createBlockBuilder(null, rows);
            for (int row = 0; row < rows; row++) {
                ChangeKey key = new ChangeKey(checkedSnapshot(BIGINT.getLong(snapshots, row)), BIGINT.getLong(rowIds, row));
                for (ChangeType type : ChangePairing.changeTypes(task.kind(), key, otherSide)) {
                    if (count == positions.length) {
                        positions = Arrays.copyOf(positions, positions.length * 2);
                    }
                    positions[count++] = row;
                    VARCHAR.writeSlice(types, CHANGE_TYPES.get(type));
                }
            }
            changeTypes = types.build();
        }
        Block[] blocks = new Block[outputs.size()];
        for (int i = 0; i < outputs.size(); i++) {
            Block block = switch (outputs.get(i).field()) {
                case SNAPSHOT_ID -> snapshots;
                case ROWID -> rowIds;
                case CHANGE_TYPE -> changeTypes;
                case TABLE_COLUMN -> page.getBlock(2 + readIndex[i]);
            };
            boolean alreadyExpanded = outputs.get(i).field() == ChangeFeedColumnHandle.Field.CHANGE_TYPE;
            blocks[i] = positions == null || alreadyExpanded ? block : block.getPositions(positions, 0, count);
        }
        return new Page(count, blocks);
    }

    /** A row outside its group's snapshots could pair with a row of another split: the grouping was wrong for it. */
    private long checkedSnapshot(long snapshot)
    {
        if (handle.output() == ChangeFeedOutput.CHANGES && !group.contains(snapshot)) {
            throw new TrinoException(MoraineErrorCode.MORAINE_INTERNAL_ERROR, handle.output().functionName() + " of " + handle.table() + ": a change of snapshot "
                    + snapshot + " was read by the split planned for snapshots " + group.firstSnapshot() + " to " + group.lastSnapshot()
                    + ", so its pairing into updates could be wrong; this is a bug in moraine's change-feed grouping");
        }
        return snapshot;
    }

    private void closeCurrent()
    {
        try (ConnectorPageSource closing = current) {
            completedBytes += closing.getCompletedBytes();
            readTimeNanos += closing.getReadTimeNanos();
            current = null;
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public long getCompletedBytes()
    {
        return completedBytes + (current == null ? 0 : current.getCompletedBytes());
    }

    @Override
    public long getReadTimeNanos()
    {
        return readTimeNanos + (current == null ? 0 : current.getReadTimeNanos());
    }

    @Override
    public boolean isFinished()
    {
        return finished;
    }

    @Override
    public long getMemoryUsage()
    {
        return current == null ? 0 : current.getMemoryUsage();
    }

    @Override
    public void close()
            throws IOException
    {
        finished = true;
        if (current != null) {
            current.close();
            current = null;
        }
    }
}
