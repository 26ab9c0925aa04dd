package io.moraine.trino;

import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.moraine.core.changes.ChangeGroup;
import io.moraine.core.changes.ChangeTask;
import io.moraine.core.changes.ChangeType;
import io.moraine.core.changes.PairedChanges;
import io.moraine.core.error.MoraineException;
import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockBuilder;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.SourcePage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.VarcharType.VARCHAR;

/**
 * Reads one split of a change-feed scan, task by task, as pages of the columns the query asked for. For
 * {@code table_changes} each row gets its {@code change_type} by the core's {@link PairedChanges}: when the split's
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
    /** The pairing of {@code table_changes}; null for one side. */
    private final PairedChanges changes;
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
        this.changes = handle.output() == ChangeFeedOutput.CHANGES ? PairedChanges.of(group, handle.output().functionName() + " of " + handle.table()) : null;
    }

    @Override
    public SourcePage getNextSourcePage()
    {
        if (finished) {
            return null;
        }
        try {
            return nextPage();
        }
        catch (MoraineException e) {
            throw MoraineErrorCode.toTrino(e);
        }
    }

    private SourcePage nextPage()
    {
        if (changes != null && changes.pairs() && !counted) {
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
                while (!keys.isFinished()) {
                    SourcePage page = keys.getNextSourcePage();
                    if (page == null) {
                        continue;
                    }
                    Block snapshots = page.getBlock(0);
                    Block rowIds = page.getBlock(1);
                    changes.count(counted.kind(), page.getPositionCount(), row -> BIGINT.getLong(snapshots, row), row -> BIGINT.getLong(rowIds, row));
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
        if (changes != null) {
            count = changes.name(task.kind(), rows, row -> BIGINT.getLong(snapshots, row), row -> BIGINT.getLong(rowIds, row));
            // The blocks taken at these positions keep the array: a copy, as the next page's naming reuses it.
            positions = Arrays.copyOf(changes.rows(), count);
            ChangeType[] named = changes.types();
            BlockBuilder types = VARCHAR.createBlockBuilder(null, count);
            for (int i = 0; i < count; i++) {
                VARCHAR.writeSlice(types, CHANGE_TYPES.get(named[i]));
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
